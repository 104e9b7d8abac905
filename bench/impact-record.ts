// The impact report's cost on the request path, alone: what the edge adds per /rpc call (the caller's id, the
// watched fields of the body, the record), in CPU µs per call, in memory and with Redis batching (no Redis needed:
// a batch that cannot be written stays pending, which is the costlier case).
//
// Usage: npx tsx bench/impact-record.ts [calls]; `npm run bench` runs it too and checks the 5 µs target.

import { pino } from 'pino';
import { createMetrics } from '../src/admin/metrics.js';
import { shippedContract } from '../src/contract/index.js';
import { loadContract } from '../src/core/contract-model/load.js';
import { deprecationsUsed } from '../src/core/impact/deprecations.js';
import { Caller } from '../src/edge/rpc/client-id.js';
import { createImpactRecorder } from '../src/adapters/impact/recorder.js';
import type { ImpactRecorder } from '../src/ports/impact.js';
import { isMain } from './control.js';

const loaded = loadContract(shippedContract);
const logger = pino({ level: 'silent' });
const metrics = createMetrics({ maxClients: 10, defaultMetrics: false });
const limits = { maxClients: 1_000, maxPathsPerClient: 200 };
const ROWS = [
  { name: 'v1 createReport (a watched field)', version: 1, method: 'createReport', body: { key: 'reports/a/b', config: { rows: 10 } } },
  { name: 'v1 getReport', version: 1, method: 'getReport', body: { reportId: 'rep_1' } },
  { name: 'head getReport', version: loaded.head, method: 'getReport', body: { reportId: 'rep_1' } },
];

/** CPU µs per call of `work`, over `calls` calls after a warm-up. */
function cpuPerCall(work: (i: number) => void, calls: number): number {
  for (let i = 0; i < 20_000; i++) work(i);
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) work(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

export interface RecordingCost {
  readonly store: string;
  readonly row: string;
  readonly cpuUs: number;
}

function measure(label: string, recorder: ImpactRecorder, calls: number): RecordingCost[] {
  const out: RecordingCost[] = [];
  for (const row of ROWS) {
    // A few hundred clients by credential (the bench's callers send no org id: each id is a hash).
    const headers = Array.from({ length: 300 }, (_, i) => ({ authorization: `Bearer bench-client-${i}` }));
    const at = Date.parse('2026-11-22T12:00:00Z');
    const us = cpuPerCall((i) => {
      const id = new Caller(headers[i % headers.length]!).id;
      deprecationsUsed(loaded, row.version, row.method, row.body, at);
      const paths = recorder.pathsIn(loaded, row.version, row.method, row.body);
      recorder.record(id, row.version, row.method, at + i, paths);
    }, calls);
    out.push({ store: label, row: row.name, cpuUs: us });
  }
  return out;
}

/** The recording's CPU per call for each row, in memory and with Redis batching. */
export async function impactRecordingCost(calls: number): Promise<RecordingCost[]> {
  const inMemory = measure('in memory', createImpactRecorder({ limits, logger, metrics }), calls);
  const shared = createImpactRecorder({ limits, logger, metrics, redis: { url: 'redis://127.0.0.1:1', keyPrefix: 'bench:' }, flushMs: 3_600_000 });
  const withRedis = measure('Redis (batched, pending)', shared, calls);
  await shared.close();
  return [...inMemory, ...withRedis];
}

if (isMain(import.meta.url)) {
  for (const c of await impactRecordingCost(Number(process.argv[2] ?? 200_000))) {
    console.log(`${c.store.padEnd(28)} ${c.row.padEnd(36)} ${c.cpuUs.toFixed(2)} µs CPU/call`);
  }
}
