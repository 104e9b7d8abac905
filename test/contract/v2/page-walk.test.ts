import { describe, expect, it } from 'vitest';
import { createPageTokenCache } from '../../../src/adapters/page-token-cache.js';
import { shippedContract } from '../../../src/contract/index.js';
import { DEFAULT_PAGE_SIZE, LARGEST_PAGE_SIZE } from '../../../src/contract/v2/entries-page-token.js';
import { loadContract } from '../../../src/core/contract-model/load.js';
import type { Json, MigrationContext } from '../../../src/core/contract-model/types.js';
import { GatewayError } from '../../../src/core/errors.js';
import { translateRequest, translateResponse } from '../../../src/core/translate/engine.js';
import { buildPlan } from '../../../src/core/translate/plan.js';
import { memoryServices } from '../../helpers/services.js';

// A v1 `page: n` of `pageSize: s` starts at entry n*s: the gateway walks there in steps of the backend's largest
// page from the nearest token it knows, spending at most `paging.maxWalkCalls` backend calls.
const MAX_WALK_CALLS = 8;
const services = { ...memoryServices(), pageTokens: createPageTokenCache({ size: 1000, ttlMs: 60_000, maxWalkCalls: MAX_WALK_CALLS }) };
const plan = buildPlan(loadContract(shippedContract), 1, 'getEntries')!;

/** A backend whose listing has `total` entries (saved under version 1); tokens are `p<offset>`. Records the page sizes it was asked for. */
function listing(principal: string, total = Number.MAX_SAFE_INTEGER) {
  const sizes: number[] = [];
  const ctx: MigrationContext = {
    clientVersion: 1,
    principal,
    state: new Map(),
    services,
    callBackend: async (_method, body: Json) => {
      const at = typeof body.pageToken === 'string' ? Number(body.pageToken.slice(1)) : 0;
      const size = body.pageSize as number;
      sizes.push(size);
      const end = at + size;
      const entries = Array.from({ length: Math.max(0, Math.min(end, total) - at) }, (_, i) => ({ entryId: `e${at + i}`, version: 1 }));
      return { entries, ...(end < total && { nextPageToken: `p${end}` }) };
    },
  };
  return { ctx, sizes };
}

describe('v1 getEntries page walks', () => {
  it('reach page n*s in steps of the largest page, then one step to the exact entry', async () => {
    const backend = listing('exact');
    const body = await translateRequest(plan, { page: 7, pageSize: 30 }, backend.ctx);
    expect(body).toEqual({ pageSize: 30, pageToken: 'p210' });
    expect(backend.sizes).toEqual([LARGEST_PAGE_SIZE, 10]);
  });

  it('send a v1 page without pageSize with the backend\'s default page size, so the offsets agree', async () => {
    const backend = listing('default');
    const body = await translateRequest(plan, { page: 3 }, backend.ctx);
    expect(body).toEqual({ pageSize: DEFAULT_PAGE_SIZE, pageToken: `p${3 * DEFAULT_PAGE_SIZE}` });
  });

  it('serve any page within paging.maxWalkCalls steps, from a standing start (a replica that never saw the client)', async () => {
    const page = (MAX_WALK_CALLS * LARGEST_PAGE_SIZE) / 100;
    const backend = listing('deep');
    expect(await translateRequest(plan, { page, pageSize: 100 }, backend.ctx)).toEqual({ pageSize: 100, pageToken: `p${page * 100}` });
    expect(backend.sizes).toHaveLength(MAX_WALK_CALLS);
  });

  it('refuse a page past the walk budget with a 422 that names the setting, without calling the backend', async () => {
    for (const page of [MAX_WALK_CALLS * 2 + 1, 100_000]) {
      const backend = listing(`far-${page}`);
      const error = await translateRequest(plan, { page, pageSize: 100 }, backend.ctx).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).code).toBe('VERSION_TRANSLATION_FAILED');
      expect((error as GatewayError).message).toContain('paging.maxWalkCalls');
      expect((error as GatewayError).details).toMatchObject({ field: 'page', page, setting: 'paging.maxWalkCalls', maxWalkCalls: MAX_WALK_CALLS });
      expect(backend.sizes).toEqual([]);
    }
  });

  it('refuse pages that are not non-negative integers (unvalidated input) instead of looping', async () => {
    for (const page of [1e300, Number.POSITIVE_INFINITY, -1, 1.5]) {
      const error = await translateRequest(plan, { page }, listing(`odd-${page}`).ctx).catch((e: unknown) => e);
      expect((error as GatewayError).code).toBe('VERSION_TRANSLATION_FAILED');
    }
  });

  it('start from the nearest known token: a page served before, or a step of an earlier walk', async () => {
    const principal = 'nearest';
    const first = listing(principal);
    await translateRequest(plan, { page: MAX_WALK_CALLS, pageSize: LARGEST_PAGE_SIZE }, first.ctx);
    expect(first.sizes).toHaveLength(MAX_WALK_CALLS);
    // The walk left tokens at every step: twice as deep now costs the budget again, not twice it.
    const deeper = listing(principal);
    await translateRequest(plan, { page: MAX_WALK_CALLS * 2, pageSize: LARGEST_PAGE_SIZE }, deeper.ctx);
    expect(deeper.sizes).toHaveLength(MAX_WALK_CALLS);
    // Paging on: the answer's next token is remembered, so the next page costs no walk, whatever its size.
    const served = listing(principal);
    const ctx = served.ctx;
    await translateRequest(plan, { page: 21, pageSize: 30 }, ctx);
    await translateResponse(plan, { entries: [], nextPageToken: 'p660' }, ctx);
    const next = listing(principal);
    expect(await translateRequest(plan, { page: 22, pageSize: 30 }, next.ctx)).toEqual({ pageSize: 30, pageToken: 'p660' });
    expect(next.sizes).toEqual([]);
  });

  it('fill a v1 page larger than the backend\'s largest from the pages that follow, within the budget', async () => {
    const backend = listing('large', 1300);
    const ctx = backend.ctx;
    const up = await translateRequest(plan, { page: 1, pageSize: 500 }, ctx);
    expect(up).toEqual({ pageSize: LARGEST_PAGE_SIZE, pageToken: 'p500' });
    const first = await ctx.callBackend('getEntries', up);
    const down = (await translateResponse(plan, first, ctx)) as { entries: { entryId: string }[]; nextPageToken?: string };
    expect(down.entries.map((e) => e.entryId)).toEqual(Array.from({ length: 500 }, (_, i) => `e${500 + i}`));
    expect(down.nextPageToken).toBe('p1000');
    expect(down).toMatchObject({ hasNextPage: true });
    // The last page is short: filled as far as the listing goes.
    const last = listing('large', 1300);
    const upLast = await translateRequest(plan, { page: 2, pageSize: 500 }, last.ctx);
    expect(upLast).toEqual({ pageSize: LARGEST_PAGE_SIZE, pageToken: 'p1000' });
    const downLast = (await translateResponse(plan, await last.ctx.callBackend('getEntries', upLast), last.ctx)) as { entries: unknown[]; nextPageToken?: string };
    expect(downLast.entries).toHaveLength(300);
    expect(downLast.nextPageToken).toBeUndefined();
    expect(downLast).toMatchObject({ hasNextPage: false });
  });

  it('say there is no next page on a filled page that ends the listing exactly, whatever the first backend page said', async () => {
    const backend = listing('exactly-full', 1000);
    const up = await translateRequest(plan, { page: 1, pageSize: 500 }, backend.ctx);
    const first = { ...(await backend.ctx.callBackend('getEntries', up)), hasNextPage: true };
    const down = (await translateResponse(plan, first, backend.ctx)) as { entries: unknown[]; hasNextPage: boolean; nextPageToken?: string };
    expect(down.entries).toHaveLength(500);
    expect(down.hasNextPage).toBe(false);
    expect(down.nextPageToken).toBeUndefined();
  });

  it('answer an empty page past the end of the listing', async () => {
    const backend = listing('short', 250);
    const ctx = backend.ctx;
    await translateRequest(plan, { page: 3, pageSize: 100 }, ctx);
    const down = await translateResponse(plan, { hasNextPage: true, entries: [{ entryId: 'x', version: 1 }], nextPageToken: 'p400' }, ctx);
    expect(JSON.parse(JSON.stringify(down))).toEqual({ hasNextPage: false, entries: [] });
  });
});
