import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, startNginx, type RunningNginx } from '../../bench/nginx.js';
import { DEMO_WORKBOOKS, createReferenceBackend, type ReferenceBackend, type SeedEntry } from '../../src/reference-backend/index.js';
import { LARGEST_PAGE_SIZE } from '../../src/contract/v2/entries-page-token.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import {
  configDoc,
  replaceFile,
  sampleValue,
  scrape,
  startServeProcess,
  tempDir,
  waitFor,
  yamlOf,
  type ServeProcess,
} from '../helpers/serve-process.js';

// Three gateway processes behind a real nginx (round-robin, keep-alive upstream), sharing a Redis of the
// test's own, in front of one reference backend with 5,000 entries. A v1 client pages by number, so each
// page may reach another replica: with Redis the replicas share the page tokens they learn; without it each
// walks for itself. Whatever happens to Redis or to a replica, no answer is ever wrong.

const ENTRIES = 5_000;
// The backend's largest page: a walk's steps are then page starts, so each token is learned once.
const PAGE_SIZE = LARGEST_PAGE_SIZE;
const PAGES = ENTRIES / PAGE_SIZE; // 25 pages: any page is within the default walk budget of page 0
const nginxBinary = findNginx();
if (!nginxBinary) throw new Error('nginx not found: install the Debian package nginx-light (npm run test:all does)');

let backend: ReferenceBackend;
let backendUrl: string;
let redis: TestRedis;
let configPath: string;
let replicas: ServeProcess[] = [];
let nginx: RunningNginx;
const backendCalls = new Map<string, number>();
const calls = (method: string) => backendCalls.get(method) ?? 0;
const reference: unknown[] = [];

const seed: SeedEntry[] = Array.from({ length: ENTRIES }, (_, i) => ({
  entryId: `e${String(i).padStart(5, '0')}`,
  key: `scale/entry-${i}`,
  scope: 'dash',
  workbookId: 'wb_demo_marketing',
  version: 1,
}));

// Redis may take up to 1 s per command here (50 ms by default): on a busy 2-core machine a slow answer must not
// count as Redis trouble, or the call counts would measure the fallback. Trouble is the outage test's business.
const withRedis = () => configDoc({ upstreamUrl: backendUrl, extra: { cache: { redis: { url: redis.url, timeoutMs: 1_000 } } } });
const cacheErrors = async () => {
  const counts = await Promise.all(replicas.map(async (r) => sampleValue(await scrape(r.adminUrl), 'dlgw_cache_errors_total') ?? 0));
  return counts.reduce((a, b) => a + b, 0);
};
const withoutRedis = () => configDoc({ upstreamUrl: backendUrl });

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: any;
}

async function v1Page(url: string, client: string, page: number): Promise<Answer> {
  const res = await fetch(`${url}/rpc/getEntries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-dl-api-version': '1', authorization: `Bearer ${client}` },
    body: JSON.stringify({ page, pageSize: PAGE_SIZE }),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* nginx's own error pages are HTML */
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body };
}

/** A deterministic shuffle (mulberry32), so every run pages in the same "random" order. */
function shuffled(n: number, seedValue: number): number[] {
  let a = seedValue >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as number, out[i] as number];
  }
  return out;
}

/** Reads every page in the given order through nginx; each answer must be 200 and equal the reference. */
async function readAll(client: string, order: readonly number[], between?: (done: number) => Promise<void>) {
  const before = calls('getEntries');
  const seen = new Set<string>();
  for (const [i, page] of order.entries()) {
    const answer = await v1Page(nginx.url, client, page);
    expect(answer.status, `page ${page}: ${JSON.stringify(answer.body)}`).toBe(200);
    expect(answer.body, `page ${page}`).toEqual(reference[page]);
    for (const e of answer.body.entries as { entryId: string }[]) seen.add(e.entryId);
    await between?.(i + 1);
  }
  return { calls: calls('getEntries') - before, seen };
}

const gaugeOf = async (r: ServeProcess) => sampleValue(await scrape(r.adminUrl), 'dlgw_cache_redis_connected');
const allConnected = () =>
  waitFor(async () => (await Promise.all(replicas.map(gaugeOf))).every((v) => v === 1), 'every replica to connect to Redis', { timeoutMs: 15_000 });

/** Rewrites the shared config file and waits until every replica has reloaded it. */
async function reloadAll(doc: Record<string, unknown>) {
  const count = (r: ServeProcess) => r.logs().filter((e) => e.msg === 'config reloaded').length;
  const before = replicas.map(count);
  replaceFile(configPath, yamlOf(doc));
  await Promise.all(replicas.map((r, i) => r.waitForLog(() => count(r) > (before[i] as number), 'the reload')));
}

beforeAll(async () => {
  backend = createReferenceBackend({ seed: { workbooks: [...DEMO_WORKBOOKS], entries: seed } });
  backend.server.on('request', (req) => {
    const method = (req.url ?? '').replace('/rpc/', '');
    backendCalls.set(method, (backendCalls.get(method) ?? 0) + 1);
  });
  backendUrl = await backend.listen(0, '127.0.0.1');
  redis = await startRedis();
  configPath = join(tempDir('dlgw-scale-'), 'gateway.yaml');
  writeFileSync(configPath, yamlOf(withRedis()));
  replicas = await Promise.all([1, 2, 3].map(() => startServeProcess(configPath)));
  nginx = await startNginx(nginxBinary, replicas.map((r) => r.url));
  await allConnected();
  // The reference: every page as one gateway alone answers it, read in order by a caller of its own.
  for (let page = 0; page <= PAGES; page++) {
    const answer = await v1Page(replicas[0]!.url, 'reference', page);
    expect(answer.status).toBe(200);
    reference.push(answer.body);
  }
  const ids = new Set(reference.flatMap((b: any) => b.entries.map((e: { entryId: string }) => e.entryId)));
  expect(ids.size).toBe(ENTRIES);
  expect((reference[PAGES] as any).entries).toEqual([]);
}, 90_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(replicas.map((r) => r.kill()));
  await redis?.dispose();
  await backend?.close();
});

// Bounds, for one client reading the PAGES pages once in any order, one request at a time: every answer
// costs one backend call, and a walk costs one call per token it learns. With shared tokens each of the
// PAGES - 1 tokens is learned once: at most 2 × PAGES - 1 calls. Read again, every token is known: PAGES calls.
const SHARED_BOUND = 2 * PAGES - 1;
const figures: Record<string, number> = {};

describe('three gateways behind nginx sharing Redis', () => {
  it('serve every page in random order, each as one gateway would, and walk each stretch once', async () => {
    const first = await readAll('redis-client', shuffled(PAGES, 1));
    expect(first.seen.size).toBe(ENTRIES);
    expect(first.calls).toBeLessThanOrEqual(SHARED_BOUND);
    const second = await readAll('redis-client', shuffled(PAGES, 2));
    expect(second.calls).toBe(PAGES);
    expect(await cacheErrors()).toBe(0);
    figures.redisFirst = first.calls;
    figures.redisSecond = second.calls;
  }, 60_000);

  it('share legacy-key lookups: one backend lookup for three replicas', async () => {
    const before = calls('resolveLegacyKey');
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${nginx.url}/rpc/createReport`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dl-api-version': '1', authorization: 'Bearer legacy-client' },
        body: JSON.stringify({ key: 'reports/marketing/q3', config: { i } }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { key?: string }).key).toBe('reports/marketing/q3');
    }
    expect(calls('resolveLegacyKey') - before).toBe(1);
  }, 30_000);

  it('answer correctly while Redis is down, stay ready, count it, and share again once Redis is back', async () => {
    const order = shuffled(PAGES, 3);
    const down = await readAll('outage-client', order, async (done) => {
      if (done === 6) await redis.stop();
    });
    expect(down.seen.size).toBe(ENTRIES);
    for (const r of replicas) {
      expect((await fetch(`${r.url}/readyz`)).status).toBe(200);
      expect(await gaugeOf(r)).toBe(0);
    }
    expect(await cacheErrors()).toBeGreaterThan(0);

    await redis.start();
    await allConnected();
    const first = await readAll('after-outage-client', shuffled(PAGES, 4));
    expect(first.calls).toBeLessThanOrEqual(SHARED_BOUND);
    const second = await readAll('after-outage-client', shuffled(PAGES, 5));
    expect(second.calls).toBe(PAGES);
  }, 60_000);
});

describe('the same replicas with in-memory caches (Redis removed from the config)', () => {
  it('answer every page correctly, at the cost of more backend calls', async () => {
    await reloadAll(withoutRedis());
    const first = await readAll('memory-client', shuffled(PAGES, 1));
    expect(first.seen.size).toBe(ENTRIES);
    const second = await readAll('memory-client', shuffled(PAGES, 2));
    figures.memoryFirst = first.calls;
    figures.memorySecond = second.calls;
    console.info(`backend getEntries calls for ${PAGES} pages read twice in random order: Redis ${figures.redisFirst} + ${figures.redisSecond}, in-memory ${figures.memoryFirst} + ${figures.memorySecond}`);
    // Each replica walks its own way up: the first reading costs more than with shared tokens.
    expect(first.calls).toBeGreaterThan(figures.redisFirst ?? 0);
    expect(first.calls + second.calls).toBeGreaterThan((figures.redisFirst ?? 0) + (figures.redisSecond ?? 0));

    const before = calls('resolveLegacyKey');
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${nginx.url}/rpc/createReport`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dl-api-version': '1', authorization: 'Bearer legacy-memory-client' },
        body: JSON.stringify({ key: 'reports/marketing/q3', config: { i } }),
      });
      expect(res.status).toBe(200);
    }
    expect(calls('resolveLegacyKey') - before).toBe(3);
  }, 60_000);
});

describe('a replica killed mid-run (Redis back in the config)', () => {
  it('never gives a wrong answer: clients see 200s, or nginx\'s own 502 for requests in flight on the dead replica', async () => {
    await reloadAll(withRedis());
    await allConnected();
    const client = 'kill-client';
    const pending = new Set(shuffled(PAGES, 6));
    const refusals: Answer[] = [];
    const seen = new Set<string>();
    let killed = false;
    for (let round = 0; pending.size > 0 && round < 12; round++) {
      // Four pages at a time, so that some are in flight on the replica when it dies.
      const batch = [...pending].slice(0, 4);
      const answers = batch.map((page) => v1Page(nginx.url, client, page));
      if (!killed && round === 1) {
        killed = true;
        replicas[1]!.child.kill('SIGKILL');
      }
      for (const [i, answer] of (await Promise.all(answers)).entries()) {
        const page = batch[i] as number;
        if (answer.status === 200) {
          expect(answer.body, `page ${page}`).toEqual(reference[page]);
          for (const e of answer.body.entries as { entryId: string }[]) seen.add(e.entryId);
          pending.delete(page);
        } else {
          refusals.push(answer);
        }
      }
    }
    await replicas[1]!.exited;
    expect(pending.size).toBe(0);
    expect(seen.size).toBe(ENTRIES);
    for (const r of refusals) {
      expect(r.status).toBe(502);
      expect(r.contentType).toMatch(/text\/html/);
    }
    console.info(`replica killed mid-run: ${refusals.length} answer(s) from nginx other than 200 (${refusals.map((r) => r.status).join(', ') || 'none'})`);
  }, 60_000);
});
