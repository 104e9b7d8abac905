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
  return [header, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i] as number)).join('  ').trimEnd());
}
