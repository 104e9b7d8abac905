// Version 2, getEntries (the real DataLens v2 change): `ids` and `createdBy` are arrays only, and the
// numbered `page` is replaced by an opaque `pageToken`. A v1 `page: n` is served by following tokens;
// tokens are cached per caller and query, so paging forward costs one backend call per page.

import { createHash } from 'node:crypto';
import { z } from 'zod';
import { custom, request } from '../../core/contract/builders.js';
import { GatewayError } from '../../core/errors.js';
import type { CustomChange, Json, MethodSpec, MigrationContext } from '../../core/contract/types.js';
import type { ContractDeps } from '../deps.js';
import { entryObject } from '../v1/entries.js';

/** Backend calls one v1 request may spend walking to a page whose token is not cached. */
export const MAX_PAGE_WALK = 20;

export const getEntriesV2: MethodSpec = {
  description: 'Lists entries, filtered by ids, author and scope, one page at a time (follow nextPageToken).',
  request: z.object({
    ids: z.array(z.string().min(1)).optional(),
    createdBy: z.array(z.string().min(1)).optional(),
    scope: z.string().optional(),
    pageToken: z.string().optional(),
    pageSize: z.number().int().min(1).max(1000).optional(),
  }),
  response: z.looseObject({ entries: z.array(entryObject), nextPageToken: z.string().optional() }),
};

const asArray = (v: unknown) => (v === undefined || Array.isArray(v) ? v : [v]);
const STATE = 'getEntries.page';

interface PageState {
  readonly queryKey: string;
  readonly page: number;
  readonly beyondEnd: boolean;
}

export function entriesPageToken(deps: ContractDeps): CustomChange {
  const tokenKey = (queryKey: string, page: number) => `${queryKey}#${page}`;

  /** The token of `page` (undefined for the first page), walking forward from the nearest cached page. */
  async function tokenFor(query: Json, queryKey: string, page: number, ctx: MigrationContext) {
    let from = page;
    let token: string | undefined;
    // Look back for the nearest cached token, at most MAX_PAGE_WALK pages: bounded whatever `page` is.
    const tooFar = () =>
      new GatewayError(
        'VERSION_TRANSLATION_FAILED',
        `page ${page} is more than ${MAX_PAGE_WALK} pages past the last page this client visited; page forward sequentially or use version 2 page tokens`,
        { field: 'page', page, maxJump: MAX_PAGE_WALK },
      );
    for (; from > 0; from--) {
      if (page - from > MAX_PAGE_WALK) throw tooFar();
      if ((token = deps.pageTokens.get(tokenKey(queryKey, from))) !== undefined) break;
    }
    if (page - from > MAX_PAGE_WALK) throw tooFar();
    for (let at = from; at < page; at++) {
      const answer = await ctx.callBackend('getEntries', { ...query, ...(token && { pageToken: token }) });
      const next = answer.nextPageToken;
      if (typeof next !== 'string' || !next) return { token, beyondEnd: true };
      token = next;
      deps.pageTokens.set(tokenKey(queryKey, at + 1), token);
    }
    return { token, beyondEnd: false };
  }

  return custom({
    description:
      'getEntries: `ids` and `createdBy` take arrays only; `page` is replaced by `pageToken` (pass the previous answer\'s `nextPageToken`).',
    compatible: false,
    covers: [
      { target: request('getEntries'), path: 'ids' },
      { target: request('getEntries'), path: 'createdBy' },
      { target: request('getEntries'), path: 'page' },
      { target: request('getEntries'), path: 'pageToken' },
    ],
    request: {
      getEntries: async (body, ctx) => {
        const { page, ...rest } = body;
        const query: Json = { ...rest };
        for (const field of ['ids', 'createdBy'] as const) {
          const value = asArray(query[field]);
          if (value !== undefined) query[field] = value;
        }
        // No page is page 0; its answer's nextPageToken is remembered as page 1's token all the same.
        const pageNumber = typeof page === 'number' ? page : 0;
        if (!Number.isSafeInteger(pageNumber) || pageNumber < 0) {
          throw new GatewayError('VERSION_TRANSLATION_FAILED', 'page must be a non-negative integer', { field: 'page', page });
        }
        const queryKey = `${ctx.principal}:${createHash('sha256').update(JSON.stringify(query)).digest('base64url').slice(0, 22)}`;
        const { token, beyondEnd } = await tokenFor(query, queryKey, pageNumber, ctx);
        const state: PageState = { queryKey, page: pageNumber, beyondEnd };
        ctx.state.set(STATE, state);
        return { ...query, ...(token && { pageToken: token }) };
      },
    },
    response: {
      getEntries: (body, ctx) => {
        const state = ctx.state.get(STATE) as PageState | undefined;
        if (!state) return body;
        // Past the last page, a numbered v1 listing is simply empty.
        if (state.beyondEnd) return { ...body, entries: [], nextPageToken: undefined };
        if (typeof body.nextPageToken === 'string') deps.pageTokens.set(tokenKey(state.queryKey, state.page + 1), body.nextPageToken);
        return body;
      },
    },
  });
}
