import { describe, expect, it } from 'vitest';
import { shippedContract } from '../../../src/contract/index.js';
import { MAX_PAGE_WALK } from '../../../src/contract/v2/entries-page-token.js';
import { loadContract } from '../../../src/core/contract/load.js';
import type { Json, MigrationContext } from '../../../src/core/contract/types.js';
import { GatewayError } from '../../../src/core/errors.js';
import { translateRequest } from '../../../src/core/translate/engine.js';
import { buildPlan } from '../../../src/core/translate/plan.js';
import { memoryServices } from '../../helpers/services.js';

// A v1 `page: n` is served by walking page tokens; the walk and the look-back for a cached token are
// both bounded, whatever n is (an unbounded look-back once hung the translator fuzz on a huge page).
const services = memoryServices();
const plan = buildPlan(loadContract(shippedContract), 1, 'getEntries')!;

/** A backend of endless pages that counts its calls. */
function endless(principal: string) {
  let calls = 0;
  const ctx: MigrationContext = {
    clientVersion: 1,
    principal,
    state: new Map(),
    services,
    callBackend: async (_method, body: Json) => {
      calls++;
      const at = typeof body.pageToken === 'string' ? Number(body.pageToken.slice(1)) : 0;
      return { entries: [], nextPageToken: `p${at + 1}` };
    },
  };
  return { ctx, calls: () => calls };
}

const refusal = async (body: Json, principal: string) => {
  const backend = endless(principal);
  const error = await translateRequest(plan, body, backend.ctx).catch((e: unknown) => e);
  return { error, calls: backend.calls() };
};

describe('v1 getEntries page walks', () => {
  it('refuse a page further than the walk allows, without calling the backend', async () => {
    for (const page of [MAX_PAGE_WALK + 1, 100_000, Number.MAX_SAFE_INTEGER]) {
      const { error, calls } = await refusal({ page }, `far-${page}`);
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).code).toBe('VERSION_TRANSLATION_FAILED');
      expect((error as GatewayError).details).toMatchObject({ field: 'page', maxJump: MAX_PAGE_WALK });
      expect(calls).toBe(0);
    }
  });

  it('refuse pages that are not non-negative integers (unvalidated input) instead of looping', async () => {
    for (const page of [1e300, Number.POSITIVE_INFINITY, -1, 1.5]) {
      const { error } = await refusal({ page }, `odd-${page}`);
      expect((error as GatewayError).code).toBe('VERSION_TRANSLATION_FAILED');
    }
  });

  it('walk at most MAX_PAGE_WALK pages from the first page, one backend call per page', async () => {
    const backend = endless('walk');
    const body = await translateRequest(plan, { page: MAX_PAGE_WALK }, backend.ctx);
    expect(body).toEqual({ pageToken: `p${MAX_PAGE_WALK}` });
    expect(backend.calls()).toBe(MAX_PAGE_WALK);
  });

  it('start from the nearest cached page: paging on costs nothing before the page itself', async () => {
    const first = endless('cached');
    await translateRequest(plan, { page: 5 }, first.ctx);
    const next = endless('cached');
    expect(await translateRequest(plan, { page: 5 + MAX_PAGE_WALK }, next.ctx)).toEqual({ pageToken: `p${5 + MAX_PAGE_WALK}` });
    expect(next.calls()).toBe(MAX_PAGE_WALK);
  });
});
