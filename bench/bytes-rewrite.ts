// In-process CPU time of getDashboard's answer at v2 (~500 KiB, bench/dashboard.ts) translated two ways: buffered
// (JSON.parse, guard and migrate down, JSON.stringify) and on the bytes (core/translate/bytes). A measure, not a row of
// the table: `tsx bench/bytes-rewrite.ts [ITERATIONS] [ROUNDS]`; prints each round and the median.

import '../src/contract/v3/dashboards-edits.js';
import { shippedContract } from '../src/contract/index.js';
import { loadContract } from '../src/core/contract-model/load.js';
import type { Json, MigrationContext } from '../src/core/contract-model/types.js';
import { programFor, rewrite } from '../src/core/translate/bytes/index.js';
import { translateRequest, translateResponse } from '../src/core/translate/engine.js';
import { buildPlan } from '../src/core/translate/plan.js';
import { NO_SERVICES } from '../test/helpers/no-services.js';
import { realShapedDashboardData } from './dashboard.js';

const iterations = Number(process.argv[2] ?? 100);
const rounds = Number(process.argv[3] ?? 5);
const loaded = loadContract(shippedContract);
const ctx = (): MigrationContext => ({ clientVersion: 2, callBackend: async () => ({}), principal: 'bench', state: new Map(), services: NO_SERVICES });
const upPlan = buildPlan(loaded, 2, 'createDashboard');
const downPlan = buildPlan(loaded, 2, 'getDashboard');
const made = programFor(loaded, 2, 'getDashboard');
if (!upPlan || !downPlan || made.kind !== 'program') throw new Error('no plan or program for the dashboard at v2');
const up = (await translateRequest(upPlan, { entry: { workbookId: 'wb', name: 'n', data: realShapedDashboardData(), meta: {} } }, ctx())) as { entry: Json };
const { data, annotation } = up.entry as { data: Json; annotation?: Json };
const answer = Buffer.from(JSON.stringify({ entry: { entryId: 'ent_bench', scope: 'dash', type: '', key: null, workbookId: 'wb', version: 2, apiVersion: 2, data, meta: {}, annotation: annotation ?? null } }));

const buffered = async () => Buffer.from(JSON.stringify(await translateResponse(downPlan, JSON.parse(answer.toString('utf8')), ctx())));
const onBytes = () => {
  const r = rewrite(answer, made.program);
  if (r.kind !== 'rewritten') throw new Error(r.reason);
  return r.chunks;
};

/** CPU µs per call over `iterations` calls. */
async function cpu(fn: () => unknown): Promise<number> {
  const t0 = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await fn();
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / iterations;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
for (let i = 0; i < 20; i++) {
  await buffered();
  onBytes();
}
const floor = () => JSON.stringify(JSON.parse(answer.toString('utf8')));
const b: number[] = [];
const r: number[] = [];
const f: number[] = [];
for (let round = 0; round < rounds; round++) {
  b.push(await cpu(buffered));
  r.push(await cpu(onBytes));
  f.push(await cpu(floor));
}
const chunks = onBytes();
process.stdout.write(`answer ${(answer.length / 1024).toFixed(0)} KiB; ${chunks.length} chunks out; ${iterations} calls × ${rounds} rounds\n`);
process.stdout.write(`buffered (parse + guard + migrate + stringify)  median ${median(b).toFixed(0)} µs CPU/call  rounds ${b.map((x) => x.toFixed(0)).join(' / ')}\n`);
process.stdout.write(`on the bytes (rewrite)                          median ${median(r).toFixed(0)} µs CPU/call  rounds ${r.map((x) => x.toFixed(0)).join(' / ')}\n`);
process.stdout.write(`JSON.parse + JSON.stringify alone (no steps)     median ${median(f).toFixed(0)} µs CPU/call  rounds ${f.map((x) => x.toFixed(0)).join(' / ')}\n`);
process.stdout.write(`ratio buffered / bytes: ${(median(b) / median(r)).toFixed(2)}×\n`);
