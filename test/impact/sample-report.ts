// One impact report built in-process at a fixed instant, 28 days after version 1's sunset: a v1 client reading and
// saving dashboards (the changes of later versions touch both methods) and creating reports by key, and one at the head.

import { shippedContract } from '../../src/contract/index.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import { impactsAfter } from '../../src/core/impact/changes.js';
import { buildImpactReport, type ImpactReport } from '../../src/core/impact/report.js';
import { UsageBook } from '../../src/core/impact/usage.js';
import { buildCalendar } from '../../src/core/lifecycle/calendar.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';

export const loaded = loadContract(shippedContract);
const DAY = 86_400_000;
/** Versions released 40 days apart from 2025-01-15, each served 90 days after the next one's release. */
export const calendar = buildCalendar(
  VERSIONS.map((version, i) => ({ version, releasedAt: new Date(Date.parse('2025-01-15T00:00:00Z') + i * 40 * DAY) })),
  90,
);
const v1Sunset = calendar.entries[0]!.sunsetAt!;
/** 28 days and 15 hours after version 1's sunset. */
export const NOW = new Date(v1Sunset.getTime() + 28 * DAY + 15 * 3_600_000);

/** The field of updateDashboard a later version renames, sent by the v1 client in one of its two saves. */
export const SENT = 'entry.data.description';

export function sampleReport(): ImpactReport {
  const book = new UsageBook({ maxClients: 10, maxPathsPerClient: 50 });
  const seen = NOW.getTime() - 30 * DAY;
  book.record('org:dashboards', 1, 'getDashboard', seen, undefined);
  book.record('org:dashboards', 1, 'getDashboard', seen, undefined);
  book.record('org:dashboards', 1, 'getDashboard', seen, undefined);
  book.record('org:dashboards', 1, 'updateDashboard', seen, [SENT]);
  book.record('org:dashboards', 1, 'updateDashboard', seen, undefined);
  book.record('org:dashboards', 1, 'createReport', seen, ['key']);
  book.record('org:modern', HEAD, 'getEntries', NOW.getTime() - DAY, undefined);
  return buildImpactReport(loaded, calendar, NOW, book.snapshot(), { kind: 'memory', note: 'this process only' });
}

/** The distinct changes (by description) the v1 client's calls meet, computed from the contract, not the report. */
export function expectedChanges(): Set<string> {
  const found = new Set<string>();
  for (const method of ['getDashboard', 'updateDashboard', 'createReport']) {
    for (const i of impactsAfter(loaded, 1, method)) {
      // A request-field change counts only when the field was sent.
      if (i.scope !== 'request' || (method === 'updateDashboard' ? i.path === SENT : i.path === 'key')) found.add(i.description);
    }
  }
  return found;
}
