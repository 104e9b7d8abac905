// Version 2, getEntries (the real DataLens v2 change): `ids` and `createdBy` are arrays only, and the
// numbered `page` is replaced by an opaque `pageToken`. A v1 `page: n` is served by following tokens;
// tokens are cached per caller and query (in the cache store, so replicas sharing Redis share them),
// so paging forward costs one backend call per page.

import { createHash } from 'node:crypto';
import { z } from 'zod';
import { custom, request } from '../../core/contract/builders.js';
import { GatewayError } from '../../core/errors.js';
import type { CustomChange, Json, MethodSpec, MigrationContext } from '../../core/contract/types.js';
import type { ContractDeps } from '../deps.js';
import { open } from '../datalens/common.js';
import { entriesAnswer, getEntriesArgs } from '../v1/entries.js';

/** Backend calls one v1 request may spend walking to a page whose token is not cached. */
export const MAX_PAGE_WALK = 20;

export const getEntriesV2: MethodSpec = {
  description: 'Lists entries, filtered by ids, author, scope, type or name, one page at a time (follow nextPageToken).',
  // The real v2 arguments: v1's, with ids and createdBy as arrays, pageToken for page, and (datalens-additions.ts)
  // ignoreSharedEntries and type.
  request: open({
    ...getEntriesArgs,
    ids: z.array(z.string()).max(1000).optional(),
    createdBy: z.array(z.string()).optional(),
    pageToken: z.string().optional(),
    ignoreSharedEntries: z.boolean().optional(),
    type: z.string().optional(),
  }),
  response: entriesAnswer,
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
    const tooFar = () =>
      new GatewayError(
        'VERSION_TRANSLATION_FAILED',
        `page ${page} is more than ${MAX_PAGE_WALK} pages past the last page this client visited; page forward sequentially or use version 2 page tokens`,
        { field: 'page', page, maxJump: MAX_PAGE_WALK },
      );
    // Look back for the nearest cached token, at most MAX_PAGE_WALK pages, in one store call: bounded whatever `page` is.
    const keys: string[] = [];
    for (let at = page; at >= 1 && page - at <= MAX_PAGE_WALK; at--) keys.push(tokenKey(queryKey, at));
    const cached = keys.length ? await deps.pageTokens.getMany(keys) : [];
    let from = 0;
    let token: string | undefined;
    const nearest = cached.findIndex((t) => t !== undefined);
    if (nearest >= 0) {
      from = page - nearest;
      token = cached[nearest];
    }
    if (page - from > MAX_PAGE_WALK) throw tooFar();
    for (let at = from; at < page; at++) {
      const answer = await ctx.callBackend('getEntries', { ...query, ...(token && { pageToken: token }) });
      if (!Array.isArray(answer.entries)) {
        throw new GatewayError('UPSTREAM_UNAVAILABLE', 'the backend answered getEntries without an entries list', { reason: 'getEntries answer without entries' });
      }
      const next = answer.nextPageToken;
      if (typeof next !== 'string' || !next) return { token, beyondEnd: true };
      token = next;
      // Stored before going on, so that a replica serving this client's next page finds it.
      await deps.pageTokens.set(tokenKey(queryKey, at + 1), token);
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
      getEntries: async (body, ctx) => {
        const state = ctx.state.get(STATE) as PageState | undefined;
        if (!state) return body;
        // Past the last page, a numbered v1 listing is simply empty.
        if (state.beyondEnd) return { ...body, entries: [], nextPageToken: undefined };
        // Stored before the answer leaves, so that whichever replica serves the next page knows its token.
        if (typeof body.nextPageToken === 'string') await deps.pageTokens.set(tokenKey(state.queryKey, state.page + 1), body.nextPageToken);
        return body;
      },
    },
  });
}
