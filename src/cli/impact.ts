// `impact`: the per-client impact report of a running gateway (its admin listener's GET /impact), as a table.

import { changesMet, plural, relativeDays, touchedParts, type ChangeMet } from '../core/impact/reading.js';
import type { ImpactFilters, ImpactReport } from '../core/impact/report.js';
import type { Output } from './contract-commands.js';

/** Columns padded to their widest cell. */
function table(rows: readonly string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
}

/** One change, once, as a detail line: its version, its description, then each method it touches with its calls. */
function changeLine(change: ChangeMet): string {
  const methods = change.methods.map((m) => `${m.method} (${[...touchedParts(m, change.kind), plural(m.calls, 'call')].join(', ')})`);
  return `    v${change.version}: ${change.description} Touches ${methods.join('; ')}.`;
}

/** The report as lines: the store, then one row per client and version, each followed by the changes that affect it. */
export function impactLines(report: ImpactReport): string[] {
  const lines = [`impact report at ${report.generatedAt} (${report.store.note})`];
  if (report.dropped.clients || report.dropped.paths) {
    lines.push(`dropped to stay bounded: ${plural(report.dropped.clients, 'client')}, ${plural(report.dropped.paths, 'field entry', 'field entries')}`);
  }
  if (report.clients.length === 0) return [...lines, 'no calls recorded'];
  const rows = [['CLIENT', 'VERSION', 'STATUS', 'SUNSET', 'CALLS', 'LAST SEEN', 'METHODS']];
  const details: string[][] = [];
  for (const c of report.clients) {
    for (const v of c.versions) {
      rows.push([
        c.client,
        String(v.version),
        v.status,
        v.sunsetAt ? `${v.sunsetAt.slice(0, 10)}${v.daysToSunset !== null ? ` (${relativeDays(v.daysToSunset)})` : ''}` : '-',
        String(v.calls),
        c.lastSeen.slice(0, 19).replace('T', ' '),
        v.methods.map((m) => m.method).join(','),
      ]);
      details.push([
        ...v.deprecated.map((d) => `    deprecated since ${d.since.slice(0, 10)}: ${d.method}${d.path ? ` ${d.path}` : ''}, use ${d.replacement} (${plural(d.calls, 'call')})`),
        ...changesMet(v.affected).map(changeLine),
      ]);
    }
  }
  const [head, ...body] = table(rows);
  lines.push(head as string);
  body.forEach((row, i) => lines.push(row, ...(details[i] ?? [])));
  return lines;
}

/** Fetches the report from the admin URL and prints it; 1 when the gateway cannot give it. */
export async function runImpact(io: Output, adminUrl: string, filters: ImpactFilters, json: boolean): Promise<number> {
  const url = new URL('/impact', adminUrl);
  if (filters.client !== undefined) url.searchParams.set('client', filters.client);
  if (filters.version !== undefined) url.searchParams.set('version', String(filters.version));
  if (filters.method !== undefined) url.searchParams.set('method', filters.method);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (e) {
    io.err(`impact: cannot reach the admin listener at ${url.origin}: ${(e as Error).message}`);
    return 1;
  }
  const text = await res.text();
  if (!res.ok) {
    io.err(`impact: ${url.origin} answered ${res.status}: ${text.slice(0, 300)}`);
    return 1;
  }
  if (json) {
    io.out(text);
    return 0;
  }
  for (const line of impactLines(JSON.parse(text) as ImpactReport)) io.out(line);
  return 0;
}
