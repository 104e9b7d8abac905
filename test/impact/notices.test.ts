// Signed notices before a sunset, end to end: real gateways (serve), real receiving servers that check the
// HMAC signature, a receiver that fails twice then accepts, and two replicas sharing a Redis that must not
// both send. v1 is sunset 20 days from now, so the 30-day lead time is the nearest reached.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../src/cli/serve.js';
import type { NoticeBody } from '../../src/core/impact/notices.js';
import type { DeliveryRecord } from '../../src/adapters/impact/notices.js';
import { listen } from '../../src/net/listen.js';
import { DEMO_SEED, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { configDoc, memoryLog, tempDir, yamlOf } from '../helpers/serve-process.js';
import { rpc } from '../helpers/stack.js';

const SECRET = 'notice-signing-key-for-tests';
const DAY_MS = 86_400_000;

interface Received {
  readonly body: NoticeBody;
  readonly signatureOk: boolean;
  readonly path: string;
}

/** A webhook receiver that checks each notice's signature as a client owner would; `failFirst` answers 500 that many times per notice. */
async function startReceiver(failFirst = 0): Promise<{ url: string; received: Received[]; requests: number; close(): Promise<void> }> {
  const received: Received[] = [];
  const tries = new Map<string, number>();
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests++;
      const raw = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['x-dlgw-notice-id']);
      const n = (tries.get(id) ?? 0) + 1;
      tries.set(id, n);
      if (n <= failFirst) {
        res.statusCode = 500;
        res.end('not now');
        return;
      }
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers['x-dlgw-signature']));
      const expected = match && createHmac('sha256', SECRET).update(`${match[1]}.${raw}`).digest();
      const signatureOk = !!match && !!expected && timingSafeEqual(expected, Buffer.from(match[2] as string, 'hex'));
      received.push({ body: JSON.parse(raw) as NoticeBody, signatureOk, path: req.url ?? '' });
      res.statusCode = signatureOk ? 204 : 401;
      res.end();
    });
  });
  const url = await listen(server, 0, '127.0.0.1');
  return {
    url,
    received,
    get requests() {
      return state.requests;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let backend: ReferenceBackend;
let backendUrl: string;
const v1Sunset = new Date(Date.now() + 20 * DAY_MS).toISOString();
const running: Serving[] = [];

async function gateway(extra: Record<string, unknown>): Promise<Serving> {
  const path = join(tempDir('dlgw-notices-'), 'gateway.yaml');
  writeFileSync(path, yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset, extra })));
  const s = await serve({ configPath: path, logger: memoryLog('silent').logger, watch: false, env: { NOTICES_SECRET: SECRET } });
  running.push(s);
  return s;
}

async function deliveries(s: Serving): Promise<DeliveryRecord[]> {
  const res = await fetch(`${s.adminUrl}/notices`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: DeliveryRecord[] }).deliveries;
}

beforeAll(async () => {
  backend = createReferenceBackend({ seed: DEMO_SEED });
  backendUrl = await backend.listen(0, '127.0.0.1');
});
afterAll(async () => {
  for (const s of running) await s.stop();
  await backend?.close();
});

describe('notices from one gateway', () => {
  let acme: Awaited<ReturnType<typeof startReceiver>>;
  let flaky: Awaited<ReturnType<typeof startReceiver>>;
  let s: Serving;
  beforeAll(async () => {
    acme = await startReceiver();
    flaky = await startReceiver(2);
    s = await gateway({
      notices: { webhooks: { 'org:acme': `${acme.url}/hooks/dl?token=abc`, 'org:flaky': `${flaky.url}/hook` }, retryBaseMs: 1 },
    });
    for (const org of ['acme', 'flaky', 'nohook']) {
      expect((await rpc(s.url, 'createReport', { key: `reports/marketing/${org}`, config: {} }, '1', { 'x-dl-org-id': org })).status).toBe(200);
    }
    await s.checkNotices();
  });
  afterAll(async () => {
    await acme.close();
    await flaky.close();
  });

  it('posts a signed first-call notice and the 30-day notice, with the sunset, the guide and the changes that affect the client', () => {
    expect(acme.received.map((r) => r.body.id).sort()).toEqual(['org:acme|v1|first-call', 'org:acme|v1|lead-30']);
    for (const r of acme.received) {
      expect(r.signatureOk).toBe(true);
      expect(r.path).toBe('/hooks/dl?token=abc');
      expect(r.body).toMatchObject({ client: 'org:acme', version: 1, sunsetAt: v1Sunset, migrationGuide: 'https://example.com/migrate-v1-to-v2' });
      expect(r.body.changes).toContainEqual(expect.objectContaining({ version: 2, method: 'createReport', path: 'key' }));
    }
    expect(acme.received.find((r) => r.body.type === 'sunset-approaching')!.body).toMatchObject({ leadDays: 30, daysToSunset: 19 });
  });

  it('retries a receiver that fails twice, and it gets each notice once accepted', async () => {
    expect(flaky.received.map((r) => r.body.id).sort()).toEqual(['org:flaky|v1|first-call', 'org:flaky|v1|lead-30']);
    expect(flaky.requests).toBe(6);
    const log = (await deliveries(s)).filter((d) => d.client === 'org:flaky');
    expect(log.map((d) => [d.outcome, d.attempts])).toEqual([
      ['delivered', 3],
      ['delivered', 3],
    ]);
  });

  it('sends nothing to a client without a webhook, nothing twice, and the log shows no secret or token', async () => {
    await s.checkNotices();
    expect(acme.received).toHaveLength(2);
    expect(flaky.received).toHaveLength(2);
    const log = await deliveries(s);
    expect(log.every((d) => d.client !== 'org:nohook')).toBe(true);
    expect(JSON.stringify(log)).not.toContain('token=abc');
    expect(JSON.stringify(log)).not.toContain(SECRET);
  });

  it('a gateway with a webhook but no signing key does not start', async () => {
    const path = join(tempDir('dlgw-notices-'), 'gateway.yaml');
    writeFileSync(path, yamlOf(configDoc({ upstreamUrl: backendUrl, extra: { notices: { webhooks: { 'org:x': acme.url } } } })));
    await expect(serve({ configPath: path, logger: memoryLog('silent').logger, watch: false, env: {} })).rejects.toThrow(/NOTICES_SECRET/);
  });
});

/** One notices check that read the shared record (a link still connecting, or in its cooldown after a slow reply on a loaded machine, makes a check fail; serve's timer retries it). */
async function checkUntilRead(serving: { checkNotices(): Promise<void> }): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await serving.checkNotices();
      return;
    } catch (e) {
      if (attempt >= 50) throw e;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('notices from two replicas sharing a Redis', () => {
  let redis: TestRedis;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    redis = await startRedis();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const s of running.splice(0)) await s.stop();
    await receiver.close();
    await redis.stop();
  });

  it('only one replica sends each notice, and a restarted one sends nothing again', async () => {
    const extra = { cache: { redis: { url: redis.url, keyPrefix: 'notices-test:' } }, notices: { webhooks: { 'org:shared': receiver.url } } };
    const [a, b] = [await gateway(extra), await gateway(extra)];
    expect((await rpc(a.url, 'getEntries', { pageSize: 1 }, '1', { 'x-dl-org-id': 'shared' })).status).toBe(200);
    // Both replicas check at once until the notices are out (each batch reaches Redis within a second).
    // A check that cannot read the shared record yet (a link still connecting) is retried, as serve's timer does.
    for (let i = 0; i < 100 && receiver.received.length < 2; i++) {
      await Promise.all([a.checkNotices(), b.checkNotices()].map((check) => check.catch(() => undefined)));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(receiver.received.map((r) => r.body.id).sort()).toEqual(['org:shared|v1|first-call', 'org:shared|v1|lead-30']);
    expect(receiver.received.every((r) => r.signatureOk)).toBe(true);
    await Promise.all([checkUntilRead(a), checkUntilRead(b)]);
    await a.stop();
    await b.stop();
    const c = await gateway(extra);
    await checkUntilRead(c);
    expect(receiver.requests).toBe(2);
    expect((await deliveries(c)).map((d) => d.outcome)).toEqual(['delivered', 'delivered']);
  }, 30_000);
});
