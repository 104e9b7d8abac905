// Renders the version calendar as text lines: release, deprecation, sunset and status at an instant.

import { type Calendar, statusAt } from '../core/lifecycle/calendar.js';

const day = (d: Date | undefined) => (d ? d.toISOString().replace('T00:00:00.000Z', '').replace('.000Z', 'Z') : '-');

export function calendarLines(calendar: Calendar, now: Date): string[] {
  const rows = calendar.entries.map((e) => [
    `v${e.version}`,
    day(e.releasedAt),
    day(e.deprecatedAt),
    day(e.sunsetAt),
    statusAt(e, now),
  ]);
  const header = ['version', 'released', 'deprecated', 'sunset', `status at ${now.toISOString()}`];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const table = [header, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i] as number)).join('  ').trimEnd());
  return [...table, ...brownoutLines(calendar), ...previewLines(calendar, now)];
}

/** One line per version not yet released that lets preview clients in: who may call it before its release. */
function previewLines(calendar: Calendar, now: Date): string[] {
  return calendar.entries
    .filter((e) => e.preview?.length && statusAt(e, now) === 'unreleased')
    .map((e) => `v${e.version} preview before ${day(e.releasedAt)}: ${e.preview?.join(', ')}`);
}

/** One line per version with brownouts: its windows (start to end) and its share of refused requests. */
function brownoutLines(calendar: Calendar): string[] {
  return calendar.entries
    .filter((e) => e.brownouts.length > 0 || e.brownoutShare > 0)
    .map((e) => {
      const windows = e.brownouts.map((w) => `${day(w.start)} to ${day(w.end)}`);
      const share = e.brownoutShare > 0 ? [`${Math.round(e.brownoutShare * 1000) / 10}% of requests while deprecated`] : [];
      return `v${e.version} brownouts: ${[...windows, ...share].join(', ')}`;
    });
}
