// With Redis configured, every replica writes to one impact report: any replica shows the whole picture, and
// it survives a restart of them all. A real redis-server, two real gateways, the reference backend.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../src/cli/serve.js';
import type { ImpactReport } from '../../src/core/impact/report.js';
import { DEMO_SEED, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { HEAD } from '../helpers/calendar.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { configDoc, memoryLog, tempDir, yamlOf } from '../helpers/serve-process.js';
import { rpc } from '../helpers/stack.js';

let redis: TestRedis;
let backend: ReferenceBackend;
let configPath: string;
const running: Serving[] = [];

const replica = async () => {
  const s = await serve({ configPath, logger: memoryLog('silent').logger, watch: false });
  running.push(s);
  return s;
};

/**
 * The report once `ready` holds: the replicas write once a second and connect to Redis in the background, so
 * the report is asked again (a bounded wait for the batch, not a timing under test).
 */
async function reportWhen(serving: Serving, ready: (r: ImpactReport) => boolean): Promise<ImpactReport> {
  let last: unknown;
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${serving.adminUrl}/impact`);
    if (res.status === 200) {
      const r = (await res.json()) as ImpactReport;
      if (ready(r)) return r;
      last = r;
    } else last = await res.text();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the shared report never got there: ${JSON.stringify((last as ImpactReport).clients ?? last).slice(0, 1500)}`);
}

const clients = (r: ImpactReport) => r.clients.map((c) => c.client).sort();
/** Every call the test made is in (three). */
const allIn = (r: ImpactReport) => r.clients.flatMap((c) => c.versions).reduce((n, v) => n + v.calls, 0) === 3;

beforeAll(async () => {
  redis = await startRedis();
  backend = createReferenceBackend({ seed: DEMO_SEED });
  const backendUrl = await backend.listen(0, '127.0.0.1');
  configPath = join(tempDir('dlgw-impact-shared-'), 'gateway.yaml');
  writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl, extra: { cache: { redis: { url: redis.url, keyPrefix: 'impact-test:' } } } })));
});
afterAll(async () => {
  for (const s of running) await s.stop();
  await backend?.close();
  await redis?.stop();
});

describe('the impact report shared through Redis', () => {
  it('two replicas write to one report that either shows whole, and it survives their restart', async () => {
    const [a, b] = [await replica(), await replica()];
    expect((await rpc(a.url, 'getEntries', { pageSize: 1 }, '1', { 'x-dl-org-id': 'on-a' })).status).toBe(200);
    expect((await rpc(b.url, 'createReport', { key: 'reports/marketing/shared', config: {} }, '1', { 'x-dl-org-id': 'on-b' })).status).toBe(200);
    expect((await rpc(b.url, 'getEntries', { pageSize: 1 }, String(HEAD), { 'x-dl-org-id': 'on-a' })).status).toBe(200);

    const fromA = await reportWhen(a, allIn);
    expect(fromA.store.kind).toBe('redis');
    expect(clients(fromA)).toEqual(['org:on-a', 'org:on-b']);
    const onA = fromA.clients.find((c) => c.client === 'org:on-a')!;
    expect(onA.versions.map((v) => v.version)).toEqual([1, HEAD]);
    const onB = fromA.clients.find((c) => c.client === 'org:on-b')!;
    expect(onB.versions[0]!.methods[0]).toMatchObject({ method: 'createReport', calls: 1, paths: { key: 1 } });
    expect(onB.versions[0]!.affected).toContainEqual(expect.objectContaining({ version: 2, path: 'key', calls: 1 }));
    const fromB = await reportWhen(b, allIn);
    expect(fromB.clients).toEqual(fromA.clients);

    // Every replica stops (writing what it still had), and a new one reads the same report.
    await a.stop();
    await b.stop();
    running.length = 0;
    const c = await replica();
    const fromC = await reportWhen(c, allIn);
    expect(fromC.clients).toEqual(fromA.clients);
  }, 30_000);
});
