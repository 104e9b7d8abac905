import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGEST_PAGE_SIZE } from '../../../src/contract/v2/entries-page-token.js';
import { DEMO_WORKBOOKS, createReferenceBackend, type ReferenceBackend, type SeedEntry } from '../../../src/reference-backend/index.js';
import { startRedis, type TestRedis } from '../../helpers/redis.js';
import { waitFor } from '../../helpers/serve-process.js';
import { rpc, startStack, type Stack } from '../../helpers/stack.js';

// Issue 33, item 3: a v1 client pages `getEntries` by number and loops while `hasNextPage`. It must stop after the
// last page, whatever the listing's length and the page size (a last page exactly full included), read every entry
// exactly once, and a page past the last must answer `{"hasNextPage": false, "entries": []}` (real DataLens v1's
// shape) for a bounded number of backend calls: with one gateway, and with two sharing their page tokens in Redis.

/** Listings by author (the v1 `createdBy` filter): none, one entry, a short one, and some about the backend's largest page. */
const LISTINGS = [0, 1, 6, LARGEST_PAGE_SIZE, 2 * LARGEST_PAGE_SIZE, 2 * LARGEST_PAGE_SIZE + 1, 650];
/** v1 page sizes (undefined: the default, 100), below, at and above the backend's largest page. */
const PAGE_SIZES = [1, 2, 3, 6, 7, undefined, LARGEST_PAGE_SIZE, 250, 2 * LARGEST_PAGE_SIZE, 1000];
const DEFAULT_V1_PAGE_SIZE = 100;
/** Loops longer than this are left out, to keep the file quick; the short listings still meet page size 1. */
const MAX_PAGES = 60;

const author = (n: number) => `author-of-${n}@example.com`;
const entryIds = (n: number) => Array.from({ length: n }, (_, i) => `e${n}_${String(i).padStart(4, '0')}`);
const seed: SeedEntry[] = LISTINGS.flatMap((n) =>
  entryIds(n).map((entryId, i) => ({ entryId, key: `paging/${n}/entry-${i}`, scope: 'dash' as const, workbookId: 'wb_demo_marketing', createdBy: author(n), version: 1 })),
);

const cases = LISTINGS.flatMap((total) =>
  PAGE_SIZES.map((pageSize) => ({ total, pageSize, size: pageSize ?? DEFAULT_V1_PAGE_SIZE, label: pageSize ?? `the default ${DEFAULT_V1_PAGE_SIZE}` })).filter((c) => Math.ceil(c.total / c.size) <= MAX_PAGES),
);

let backend: ReferenceBackend;
let backendUrl: string;
let backendCalls = 0;
let redis: TestRedis;
let single: Stack;
let shared: Stack[] = [];

beforeAll(async () => {
  backend = createReferenceBackend({ seed: { workbooks: [...DEMO_WORKBOOKS], entries: seed } });
  backend.server.on('request', (req) => {
    if (req.url === '/rpc/getEntries') backendCalls++;
  });
  backendUrl = await backend.listen(0, '127.0.0.1');
  single = await startStack({ upstreamUrl: backendUrl });
  redis = await startRedis();
  // A slow Redis answer on a busy machine must not fall back to the memory cache: the test is about sharing.
  const config = { cache: { redis: { url: redis.url, timeoutMs: 1_000 } } };
  shared = await Promise.all([0, 1].map(() => startStack({ upstreamUrl: backendUrl, config })));
  const connected = async (s: Stack) => (await s.metrics.registry.getSingleMetric('dlgw_cache_redis_connected')?.get())?.values[0]?.value === 1;
  await waitFor(async () => (await Promise.all(shared.map(connected))).every(Boolean), 'both gateways to connect to Redis');
}, 30_000);

afterAll(async () => {
  await Promise.all([single, ...shared].map((s) => s?.close()));
  await redis?.dispose();
  await backend?.close();
});

interface V1Page {
  readonly hasNextPage: boolean;
  readonly entries: { entryId: string }[];
}

/** One v1 page through `gateway`, as `client`; answers the body and the backend getEntries calls it cost. */
async function v1Page(gateway: Stack, client: string, total: number, page: number, pageSize: number | undefined) {
  const before = backendCalls;
  const body = { createdBy: author(total), page, ...(pageSize !== undefined && { pageSize }) };
  const res = await rpc(gateway.url, 'getEntries', body, '1', { authorization: `Bearer ${client}` });
  expect(res.status, `page ${page}: ${JSON.stringify(res.body)}`).toBe(200);
  return { body: res.body as V1Page, calls: backendCalls - before };
}

/**
 * A v1 client's loop: pages from 0 while hasNextPage, each page on the next gateway of `gateways` in turn (a
 * round-robin balancer). Stops on its own after one page more than the listing can hold, so a bug fails instead of hanging.
 */
async function readAll(gateways: Stack[], client: string, total: number, pageSize: number | undefined) {
  const size = pageSize ?? DEFAULT_V1_PAGE_SIZE;
  const pages: V1Page[] = [];
  let calls = 0;
  for (let page = 0; page <= Math.ceil(total / size); page++) {
    const answer = await v1Page(gateways[page % gateways.length] as Stack, client, total, page, pageSize);
    pages.push(answer.body);
    calls += answer.calls;
    if (!answer.body.hasNextPage) break;
  }
  return { pages, calls, ids: pages.flatMap((p) => p.entries.map((e) => e.entryId)) };
}

const setups = [
  { name: 'one gateway', gateways: () => [single] },
  { name: 'two gateways sharing page tokens in Redis, pages alternating', gateways: () => shared },
];

describe.each(setups)('a v1 client paging getEntries on hasNextPage, $name', ({ name, gateways }) => {
  it.each(cases)('reads a listing of $total entries by pages of $label exactly once and stops after its last page', async ({ total, pageSize, size }) => {
    const client = `${name}:${total}:${String(pageSize)}`;
    const read = await readAll(gateways(), client, total, pageSize);
    // Every entry once, in order: none missing, none twice.
    expect(read.ids).toEqual(entryIds(total));
    // As many requests as the listing has pages (an empty listing: one empty page), the last saying there is no next.
    const expectedPages = Math.max(1, Math.ceil(total / size));
    expect(read.pages.map((p) => p.hasNextPage)).toEqual(Array.from({ length: expectedPages }, (_, i) => i < expectedPages - 1));
    // The last page has real DataLens v1's shape: nothing but hasNextPage and the entries.
    expect(Object.keys(read.pages.at(-1) as V1Page).sort()).toEqual(['entries', 'hasNextPage']);
    // Paging forward never walks: each page costs the backend pages that fill it, no more.
    expect(read.calls).toBeLessThanOrEqual(expectedPages * Math.ceil(size / LARGEST_PAGE_SIZE));

    // Pages past the last one: empty, no next page, and a walk no longer than the listing itself.
    const last = expectedPages - 1;
    for (const [i, page] of [last + 1, last + 2, last + 10].entries()) {
      const gateway = gateways()[i % gateways().length] as Stack;
      const beyond = await v1Page(gateway, client, total, page, pageSize);
      expect(beyond.body, `page ${page}`).toEqual({ hasNextPage: false, entries: [] });
      expect(beyond.calls, `page ${page}`).toBeLessThanOrEqual(Math.max(1, Math.ceil(total / LARGEST_PAGE_SIZE)) + 1);
    }
  });
});

describe('the Redis-shared walk', () => {
  it('keeps the page tokens in Redis, where the other gateway finds them', async () => {
    expect(Number(await redis.command(['DBSIZE']))).toBeGreaterThan(0);
  });
});
