// The impact report as one self-contained HTML page (no script, no outside resource): the calendar as a
// timeline (released, deprecated, sunset, today) and a table of clients by version with the changes that affect them.

import type { ImpactReport } from '../core/impact/report.js';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '—');

/** The timeline: one bar per version from its release to its sunset (or the chart's end), and a line for today. */
function timeline(report: ImpactReport): string {
  const now = Date.parse(report.generatedAt);
  const instants = report.calendar.flatMap((r) => [r.releasedAt, r.deprecatedAt, r.sunsetAt].filter((d): d is string => d !== null).map(Date.parse));
  instants.push(now);
  const start = Math.min(...instants);
  const end = Math.max(...instants) + 30 * 86_400_000;
  const x = (t: number) => (((t - start) / (end - start)) * 100).toFixed(2);
  const rows = report.calendar.map((r) => {
    const released = Date.parse(r.releasedAt);
    const deprecated = r.deprecatedAt ? Date.parse(r.deprecatedAt) : undefined;
    const sunset = r.sunsetAt ? Date.parse(r.sunsetAt) : end;
    const currentEnd = deprecated ?? sunset;
    const segments = [
      `<div class="seg current" style="left:${x(released)}%;width:${(Number(x(currentEnd)) - Number(x(released))).toFixed(2)}%" title="released ${day(r.releasedAt)}"></div>`,
      deprecated !== undefined
        ? `<div class="seg deprecated" style="left:${x(deprecated)}%;width:${(Number(x(sunset)) - Number(x(deprecated))).toFixed(2)}%" title="deprecated ${day(r.deprecatedAt)}"></div>`
        : '',
    ].join('');
    const dates = [`released ${day(r.releasedAt)}`, r.deprecatedAt && `deprecated ${day(r.deprecatedAt)}`, r.sunsetAt && `sunset ${day(r.sunsetAt)}`]
      .filter(Boolean)
      .join(', ');
    return `<div class="row" data-version="${r.version}" data-status="${r.status}"><span class="label">v${r.version} <small>${escape(r.status)}</small></span><div class="track">${segments}</div><span class="dates">${escape(dates)}</span></div>`;
  });
  return `<div class="timeline">${rows.join('')}<div class="today" style="left:calc(8rem + (100% - 24rem) * ${x(now)} / 100)" title="today ${day(report.generatedAt)}"></div></div>`;
}

function clientRows(report: ImpactReport): string {
  const rows: string[] = [];
  for (const c of report.clients) {
    for (const v of c.versions) {
      const methods = v.methods.map((m) => `${escape(m.method)} (${m.calls})`).join(', ');
      const items = [
        ...v.deprecated.map(
          (d) =>
            `<li class="deprecated-use">deprecated from ${escape(d.since.slice(0, 10))}: <code>${escape(d.method)}${d.path ? ` ${escape(d.path)}` : ''}</code> ${escape(d.description)} Use instead: ${escape(d.replacement)} (${d.calls} calls)</li>`,
        ),
        ...v.affected.map(
          (a) =>
            `<li data-at="${a.version}">v${a.version}: <code>${escape(a.method)}${a.path ? ` ${escape(a.path)}` : a.scope === 'response' ? ' (answer)' : ' (method)'}</code> ${escape(a.description)} (${a.calls} calls)</li>`,
        ),
      ];
      const affected = items.length ? `<ul>${items.join('')}</ul>` : 'nothing it uses changes';
      rows.push(
        `<tr data-client="${escape(c.client)}" data-version="${v.version}"><td>${escape(c.client)}</td><td>v${v.version} <small>${escape(v.status)}</small></td><td>${day(v.sunsetAt)}${
          v.daysToSunset !== null ? ` <small>(${v.daysToSunset} days)</small>` : ''
        }</td><td>${v.calls}</td><td>${methods}</td><td>${day(c.lastSeen)}</td><td>${affected}</td></tr>`,
      );
    }
  }
  return rows.length ? rows.join('') : '<tr><td colspan="7">No calls recorded yet.</td></tr>';
}

export function renderImpactPage(report: ImpactReport): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Impact report — dl-version-gateway</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#222}
h1{font-size:1.3rem}h2{font-size:1.1rem;margin-top:1.5rem}
.timeline{position:relative;border:1px solid #ccc;padding:.5rem 0}
.row{display:flex;align-items:center;height:1.8rem}
.label{width:8rem;padding-left:.5rem}.dates{width:16rem;font-size:12px;color:#555}
.track{position:relative;flex:1;height:1rem;background:#f3f3f3}
.seg{position:absolute;top:0;height:100%}.current{background:#4a9d5b}.deprecated{background:#e0a030}
.today{position:absolute;top:0;bottom:0;border-left:2px solid #c00}
.legend span{display:inline-block;width:1rem;height:.7rem;margin:0 .3rem 0 1rem}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.3rem;vertical-align:top;text-align:left}
ul{margin:0;padding-left:1.1rem}.note{color:#555}
</style></head><body>
<h1>Impact report</h1>
<p class="note" id="store">Generated ${escape(report.generatedAt)}. Record: ${escape(report.store.note)}.
Dropped to stay bounded: ${report.dropped.clients} clients, ${report.dropped.paths} field entries.</p>
<h2>Calendar</h2>
<p class="legend"><span class="current"></span>current<span class="deprecated"></span>deprecated (until its sunset)<span style="border-left:2px solid #c00;width:0"></span>today</p>
${timeline(report)}
<h2>Clients by version</h2>
<table id="clients"><thead><tr><th>Client</th><th>Version</th><th>Sunset</th><th>Calls</th><th>Methods (calls)</th><th>Last seen</th><th>Changes that affect it</th></tr></thead>
<tbody>${clientRows(report)}</tbody></table>
</body></html>
`;
}
