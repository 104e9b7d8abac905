// In-process timing of the dashboard rows' translation alone: the real-shaped dashboard (bench/dashboard.ts) migrated up
// to the head (createDashboard's plan at v2), then the head-shaped answer guarded and migrated down (getDashboard's plan
// at v2), next to JSON.parse and JSON.stringify of the same answer and a bare structure scan of its bytes. A tool for profiling the translation path
// (`node --cpu-prof`), not a row of the table: `tsx bench/dash-translate.ts [ITERATIONS]`.

import { isDeepStrictEqual } from 'node:util';
import { shippedContract } from '../src/contract/index.js';
import { loadContract } from '../src/core/contract-model/load.js';
import type { Json, MigrationContext } from '../src/core/contract-model/types.js';
import { translateRequest, translateResponse } from '../src/core/translate/engine.js';
import { buildPlan } from '../src/core/translate/plan.js';
import { NO_SERVICES } from '../test/helpers/no-services.js';
import { realShapedDashboardData } from './dashboard.js';

const iterations = Number(process.argv[2] ?? 200);
const loaded = loadContract(shippedContract);
const ctx: MigrationContext = { clientVersion: 2, callBackend: async () => ({}), principal: 'bench', state: new Map(), services: NO_SERVICES };
const upPlan = buildPlan(loaded, 2, 'createDashboard');
const downPlan = buildPlan(loaded, 2, 'getDashboard');
if (!upPlan || !downPlan) throw new Error('no plan for the dashboard methods at v2');

const data = realShapedDashboardData();
const up = (await translateRequest(upPlan, structuredClone({ entry: { workbookId: 'wb', name: 'n', data, meta: {} } }), ctx)) as { entry: Json };
// The backend's answer: the entry in the head shape, stamped as saved at v2.
const { data: headData, annotation } = up.entry as { data: Json; annotation?: Json };
const answer = JSON.stringify({
  entry: { entryId: 'ent_bench', scope: 'dash', type: '', key: null, workbookId: 'wb', version: 2, apiVersion: 2, data: headData, meta: {}, annotation: annotation ?? null },
});

/**
 * The least any rewriter working on the bytes must do: visit every byte outside strings, skip each string to its
 * closing quote (escapes honoured) and follow the nesting. Returns the deepest nesting, so the work is not optimised away.
 */
function structureDepth(b: Buffer): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i] as number;
    if (c === 0x22) {
      let j = b.indexOf(0x22, i + 1);
      // A quote after an odd run of backslashes is escaped: look for the next one.
      for (;;) {
        let k = j - 1;
        while (b[k] === 0x5c) k--;
        if ((j - 1 - k) % 2 === 0) break;
        j = b.indexOf(0x22, j + 1);
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

const time = async (label: string, fn: () => unknown): Promise<number> => {
  for (let i = 0; i < 20; i++) await fn();
  const t0 = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await fn();
  const used = process.cpuUsage(t0);
  const us = (used.user + used.system) / iterations;
  process.stdout.write(`${label.padEnd(44)} ${us.toFixed(0).padStart(7)} µs CPU per call\n`);
  return us;
};

process.stdout.write(`head-shaped answer: ${(Buffer.byteLength(answer) / 1024).toFixed(0)} KiB; ${iterations} calls each\n`);
const raw = Buffer.from(answer);
await time('structure scan of the answer (JS, no values)', () => structureDepth(raw));
await time('JSON.parse of the answer', () => JSON.parse(raw.toString('utf8')));
const down = await translateResponse(downPlan, JSON.parse(answer), ctx);
if (!isDeepStrictEqual((down as { entry: Json }).entry.data, data)) throw new Error('the answer migrated down is not what the v2 client saved');
await time('JSON.stringify of the v2 answer', () => JSON.stringify(down));
await time('parse + guard + migrate down (getDashboard)', () => translateResponse(downPlan, JSON.parse(answer), ctx));
await time('migrate up (createDashboard), on a copy', () => translateRequest(upPlan, structuredClone({ entry: { data, meta: {} } }), ctx));
await time('structuredClone of the v2 body (to subtract)', () => structuredClone({ entry: { data, meta: {} } }));
