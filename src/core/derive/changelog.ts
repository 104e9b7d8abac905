// The changelog in markdown, from the changes' descriptions (and release dates when a calendar is given).

import type { LoadedContract } from '../contract-model/load.js';
import { isIncompatible } from '../contract-model/check.js';
import type { Calendar } from '../lifecycle/calendar.js';

const day = (d: Date | undefined) => (d ? d.toISOString().slice(0, 10) : undefined);

export function renderChangelog(contract: LoadedContract, calendar?: Calendar): string {
  const lines = ['# API changelog', ''];
  for (const spec of [...contract.contract.versions].reverse()) {
    const entry = calendar?.entries.find((e) => e.version === spec.version);
    const dates = [
      entry && `released ${day(entry.releasedAt)}`,
      entry?.deprecatedAt && `deprecated ${day(entry.deprecatedAt)}`,
      entry?.sunsetAt && `sunset ${day(entry.sunsetAt)}`,
    ].filter(Boolean);
    lines.push(`## Version ${spec.version}${dates.length ? ` (${dates.join(', ')})` : ''}`, '');
    const incompatible = spec.changes.filter(isIncompatible);
    const compatible = [...spec.changes.filter((c) => !isIncompatible(c)), ...(spec.additions ?? [])];
    if (spec.changes.length === 0 && spec.version === contract.versions[0]) {
      lines.push(`The first version: ${Object.keys(spec.methods).length} methods.`, '');
    }
    if (incompatible.length) {
      lines.push('### Breaking changes', '', ...incompatible.map((c) => `- ${c.description}`), '');
    }
    if (compatible.length) {
      lines.push('### Compatible changes', '', ...compatible.map((c) => `- ${c.description}`), '');
    }
    // Still served, but on the way out: the method or field, from when, and what to use instead.
    if (spec.deprecations?.length) {
      lines.push(
        '### Deprecated',
        '',
        ...spec.deprecations.map(
          (d) => `- \`${d.method}\`${d.path ? ` field \`${d.path}\`` : ''}, from ${d.since.slice(0, 10)}: ${d.description} Use instead: ${d.replacement}.`,
        ),
        '',
      );
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
