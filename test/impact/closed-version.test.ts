// A deprecated version closed to new clients (lifecycle.versions[].refuseNewClients): clients the impact record
// saw on it before its deprecation keep working until the sunset; a client first seen after it gets a 400 that
// names the versions it may use. In one process, and across two replicas sharing a Redis.

import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/admin/metrics.js';
import { createImpactRecorder } from '../../src/adapters/impact/recorder.js';
import type { ImpactRecorder } from '../../src/ports/impact.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { expectProblem } from '../helpers/http.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { CALENDAR, DURING_DEPRECATION, DURING_V1_ONLY, type Stack, rpc, startStack } from '../helpers/stack.js';

const LIFECYCLE = { ...CALENDAR, versions: [{ ...CALENDAR.versions[0]!, refuseNewClients: true }, ...CALENDAR.versions.slice(1)] };
/** At DURING_DEPRECATION: every supported version but v1 (the others are open to anyone). */
const OPEN = VERSIONS.filter((v) => v !== 1);
const recorder = (redis?: TestRedis): ImpactRecorder =>
  createImpactRecorder({
    limits: { maxClients: 100, maxPathsPerClient: 100 },
    logger: pino({ level: 'silent' }),
    metrics: createMetrics({ maxClients: 10, defaultMetrics: false }),
    ...(redis && { redis: { url: redis.url, keyPrefix: 'closed-test:' } }),
  });
const org = (id: string) => ({ 'x-dl-org-id': id });

describe('v1 closed to new clients, in one process', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ now: DURING_V1_ONLY, config: { lifecycle: LIFECYCLE }, impact: recorder() });
    expect((await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1', org('early'))).status).toBe(200);
    stack.setNow(DURING_DEPRECATION);
  });
  afterAll(() => stack.close());

  it('a client seen on v1 before its deprecation keeps working', async () => {
    const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1', org('early'));
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).not.toBeNull();
  });

  it('a client first seen after it gets 400 naming the versions it may use, and stays refused', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1', org('late'));
      const details = expectProblem(res, 400, 'INVALID_API_VERSION_HEADER');
      expect(details).toMatchObject({ reason: 'closedToNewClients', received: '1', supported: OPEN, latest: HEAD });
      expect(res.body.detail).toContain(`use version ${OPEN.join(' or ')}`);
    }
  });

  it('the same new client may use the other versions', async () => {
    for (const v of OPEN) expect((await rpc(stack.url, 'getEntries', { pageSize: 1 }, String(v), org('late'))).status).toBe(200);
  });
});

describe('v1 closed to new clients, across two replicas sharing a Redis', () => {
  let redis: TestRedis;
  let a: Stack;
  let b: Stack;
  let recA: ImpactRecorder;
  beforeAll(async () => {
    redis = await startRedis();
    recA = recorder(redis);
    a = await startStack({ now: DURING_V1_ONLY, config: { lifecycle: LIFECYCLE }, impact: recA });
    b = await startStack({ now: DURING_DEPRECATION, config: { lifecycle: LIFECYCLE }, impact: recorder(redis) });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await redis.stop();
  });

  it('a client seen on one replica before the deprecation is let in by the other; a new one is refused', async () => {
    expect((await rpc(a.url, 'getEntries', { pageSize: 1 }, '1', org('early'))).status).toBe(200);
    // The replica's batch reaches Redis (the recorder connects in the background: asked until it has).
    for (let i = 0; i < 100; i++) {
      const snap = await recA.snapshot().catch(() => undefined);
      if (snap?.clients.some((c) => c.client === 'org:early')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // While b's own connection to Redis comes up it cannot tell, and lets everyone in: asked until it can tell.
    let late = await rpc(b.url, 'getEntries', { pageSize: 1 }, '1', org('late'));
    for (let i = 0; i < 100 && late.status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      late = await rpc(b.url, 'getEntries', { pageSize: 1 }, '1', org('late'));
    }
    expectProblem(late, 400, 'INVALID_API_VERSION_HEADER');
    expect((await rpc(b.url, 'getEntries', { pageSize: 1 }, '1', org('early'))).status).toBe(200);
  }, 30_000);
});
