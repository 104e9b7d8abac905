// The impact report as one self-contained HTML page (no script, no outside resource): the calendar as a
// timeline (released, deprecated, sunset, today) and a table of clients by version with the changes that affect them.

import { changesMet, plural, relativeDays, touchedParts, type ChangeMet } from '../core/impact/reading.js';
import type { DeprecatedUse, ImpactReport, VersionUse } from '../core/impact/report.js';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
/** Escaped text whose `backticked` parts (the contract's descriptions are Markdown) become <code>. */
const prose = (text: string) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');
/** A day as one unbreakable piece (class "date": white-space nowrap), or a dash without one. */
const day = (iso: string | null) => (iso ? `<time class="date" datetime="${escape(iso)}">${escape(iso.slice(0, 10))}</time>` : '—');

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
      `<div class="seg current" style="left:${x(released)}%;width:${(Number(x(currentEnd)) - Number(x(released))).toFixed(2)}%" title="released ${r.releasedAt.slice(0, 10)}"></div>`,
      deprecated !== undefined
        ? `<div class="seg deprecated" style="left:${x(deprecated)}%;width:${(Number(x(sunset)) - Number(x(deprecated))).toFixed(2)}%" title="deprecated ${r.deprecatedAt?.slice(0, 10)}"></div>`
        : '',
    ].join('');
    // Each phrase unbreakable ("deprecated 2026-06-11"): the line breaks only between them.
    const dates = [`released ${day(r.releasedAt)}`, r.deprecatedAt && `deprecated ${day(r.deprecatedAt)}`, r.sunsetAt && `sunset ${day(r.sunsetAt)}`]
      .filter(Boolean)
      .map((phrase) => `<span class="phrase">${phrase}</span>`)
      .join(', ');
    return `<div class="row" data-version="${r.version}" data-status="${r.status}"><span class="label">v${r.version} <small>${escape(r.status)}</small></span><div class="track">${segments}</div><span class="dates">${dates}</span></div>`;
  });
  return `<div class="timeline">${rows.join('')}<div class="today" style="left:calc(8rem + (100% - 24rem) * ${x(now)} / 100)" title="today ${report.generatedAt.slice(0, 10)}"></div></div>`;
}

/** One change, once: the version that brings it, its description, and each method of the client it touches. */
function changeItem(change: ChangeMet): string {
  const methods = change.methods.map((m) => {
    const parts = touchedParts(m, change.kind).map(prose);
    return `<code>${escape(m.method)}</code> (${[...parts, plural(m.calls, 'call')].join(', ')})`;
  });
  return `<li class="change" data-at="${change.version}"><b>v${change.version}</b>: ${prose(change.description)} <span class="touches">Touches ${methods.join('; ')}.</span></li>`;
}

function deprecatedItem(d: DeprecatedUse): string {
  const what = `<code>${escape(d.method)}${d.path ? ` ${escape(d.path)}` : ''}</code>`;
  return `<li class="deprecated-use">deprecated since ${day(d.since)}: ${what} ${prose(d.description)} Use instead: ${prose(d.replacement)} (${plural(d.calls, 'call')})</li>`;
}

/** The sunset cell: the day, and how far it is from the report's day in words. */
function sunsetCell(v: VersionUse): string {
  return `${day(v.sunsetAt)}${v.daysToSunset !== null ? ` <small class="when">(${relativeDays(v.daysToSunset)})</small>` : ''}`;
}

function clientRows(report: ImpactReport): string {
  const rows: string[] = [];
  for (const c of report.clients) {
    for (const v of c.versions) {
      const methods = v.methods.map((m) => `<span class="phrase"><code>${escape(m.method)}</code> (${m.calls})</span>`).join(', ');
      const items = [...v.deprecated.map(deprecatedItem), ...changesMet(v.affected).map(changeItem)];
      const affected = items.length ? `<ul>${items.join('')}</ul>` : 'nothing it uses changes';
      rows.push(
        `<tr data-client="${escape(c.client)}" data-version="${v.version}"><td>${escape(c.client)}</td><td>v${v.version} <small>${escape(v.status)}</small></td>` +
          `<td>${sunsetCell(v)}</td><td>${v.calls}</td><td>${methods}</td><td>${day(c.lastSeen)}</td><td>${affected}</td></tr>`,
      );
    }
  }
  return rows.length ? rows.join('') : '<tr><td colspan="7">No calls recorded yet.</td></tr>';
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#222}
h1{font-size:1.3rem}h2{font-size:1.1rem;margin-top:1.5rem}
.timeline{position:relative;border:1px solid #ccc;padding:.5rem 0}
.row{display:flex;align-items:center;min-height:1.8rem;padding:.1rem 0}
.label{width:8rem;padding-left:.5rem}.dates{width:16rem;font-size:12px;color:#555}
.track{position:relative;flex:1;height:1rem;background:#f3f3f3}
.seg{position:absolute;top:0;height:100%}.current{background:#4a9d5b}.deprecated{background:#e0a030}
.today{position:absolute;top:0;bottom:0;border-left:2px solid #c00}
.legend span{display:inline-block;width:1rem;height:.7rem;margin:0 .3rem 0 1rem}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.3rem;vertical-align:top;text-align:left}
ul{margin:0;padding-left:1.1rem}li+li{margin-top:.25rem}.note{color:#555}.touches{color:#555}
code{font:12.5px/1.3 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f2f2f2;border-radius:3px;padding:0 .2em;overflow-wrap:break-word}
.date,.when,.phrase{white-space:nowrap}`;

export function renderImpactPage(report: ImpactReport): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Impact report — dl-version-gateway</title>
<style>
${STYLE}
</style></head><body>
<h1>Impact report</h1>
<p class="note" id="store">Generated ${day(report.generatedAt)} at ${escape(report.generatedAt.slice(11, 16))} UTC. Record: ${escape(report.store.note)}.
Dropped to stay bounded: ${plural(report.dropped.clients, 'client')}, ${plural(report.dropped.paths, 'field entry', 'field entries')}.</p>
<h2>Calendar</h2>
<p class="legend"><span class="current"></span>current<span class="deprecated"></span>deprecated (until its sunset)<span style="border-left:2px solid #c00;width:0"></span>today</p>
${timeline(report)}
<h2>Clients by version</h2>
<table id="clients"><thead><tr><th>Client</th><th>Version</th><th>Sunset</th><th>Calls</th><th>Methods (calls)</th><th>Last seen</th><th>Changes that affect it</th></tr></thead>
<tbody>${clientRows(report)}</tbody></table>
</body></html>
`;
}
