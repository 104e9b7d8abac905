// The impact report's cost on the request path, alone: what the edge adds per /rpc call (the caller's id, the
// watched fields of the body, the record), in CPU µs per call, in memory and with Redis batching (no Redis needed:
// a batch that cannot be written stays pending, which is the costlier case).
//
// Usage: npx tsx bench/impact-record.ts [calls]

import { pino } from 'pino';
import { createMetrics } from '../src/admin/metrics.js';
import { shippedContract } from '../src/contract/index.js';
import { loadContract } from '../src/core/contract/load.js';
import { deprecationsUsed } from '../src/core/impact/deprecations.js';
import { Caller } from '../src/edge/client-id.js';
import { createImpactRecorder, type ImpactRecorder } from '../src/edge/impact-recorder.js';

const calls = Number(process.argv[2] ?? 200_000);
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
function cpuPerCall(work: (i: number) => void): number {
  for (let i = 0; i < 20_000; i++) work(i);
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) work(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

function measure(label: string, recorder: ImpactRecorder): void {
  for (const row of ROWS) {
    // A few hundred clients by credential (the bench's callers send no org id: each id is a hash).
    const headers = Array.from({ length: 300 }, (_, i) => ({ authorization: `Bearer bench-client-${i}` }));
    const at = Date.parse('2026-11-22T12:00:00Z');
    const us = cpuPerCall((i) => {
      const id = new Caller(headers[i % headers.length]!).id;
      deprecationsUsed(loaded, row.version, row.method, row.body, at);
      const paths = recorder.pathsIn(loaded, row.version, row.method, row.body);
      recorder.record(id, row.version, row.method, at + i, paths);
    });
    console.log(`${label.padEnd(28)} ${row.name.padEnd(36)} ${us.toFixed(2)} µs CPU/call`);
  }
}

measure('in memory', createImpactRecorder({ limits, logger, metrics }));
const shared = createImpactRecorder({ limits, logger, metrics, redis: { url: 'redis://127.0.0.1:1', keyPrefix: 'bench:' }, flushMs: 3_600_000 });
measure('Redis (batched, pending)', shared);
await shared.close();
