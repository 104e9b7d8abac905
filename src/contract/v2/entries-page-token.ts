// Version 2, getEntries (the real DataLens v2 change): `ids` and `createdBy` are arrays only, and the
// numbered `page` is replaced by an opaque `pageToken`. A v1 `page: n` of `pageSize: s` starts at entry n*s: the
// gateway walks there with the largest pages the backend serves, from the nearest token it knows (tokens are
// cached per caller, query and offset in the cache store, so replicas sharing Redis share them), and a walk
// spends at most `paging.maxWalkCalls` backend calls. Paging forward costs no walk: each answer's next token is
// remembered for the next page. A v1 page has `hasNextPage` exactly when a token leads past it, so a page ending the
// listing, exactly full or not, says false, and a page past the end is `{hasNextPage: false, entries: []}`.

import { hash } from 'node:crypto';
import { z } from 'zod';
import { custom, request } from '../../core/contract-model/builders.js';
import { GatewayError } from '../../core/errors.js';
import type { CustomChange, Json, MethodSpec, MigrationContext } from '../../core/contract-model/types.js';
import { open } from '../datalens/common.js';
import { entriesAnswer, getEntriesArgs } from '../v1/entries.js';

/** The largest page the backend serves (v2 getEntries `pageSize`): walks take steps of this size. */
export const LARGEST_PAGE_SIZE = 200;
/** The backend's page size when a request names none; a v1 page without `pageSize` is sent with it explicitly. */
export const DEFAULT_PAGE_SIZE = 100;

export const getEntriesV2: MethodSpec = {
  description: 'Lists entries, filtered by ids, author, scope, type or name, one page at a time (follow nextPageToken).',
  // The real v2 arguments: v1's, with ids and createdBy as arrays, pageToken for page, and (datalens-additions.ts)
  // ignoreSharedEntries and type.
  request: open({
    ...getEntriesArgs,
    ids: z.array(z.string()).max(1000).optional(),
    // At most 1000 creators, as ids (GetEntriesV2Args, datalens-sdk spec/yacloud.json@021501bb).
    createdBy: z.array(z.string()).max(1000).optional(),
    pageToken: z.string().optional(),
    pageSize: z.number().int().min(1).max(LARGEST_PAGE_SIZE).optional(),
    ignoreSharedEntries: z.boolean().optional(),
    type: z.string().optional(),
  }),
  response: entriesAnswer,
};

const asArray = (v: unknown) => (v === undefined || Array.isArray(v) ? v : [v]);
const STATE = 'getEntries.page';

interface PageState {
  readonly query: Json;
  readonly queryKey: string;
  /** Where the requested page starts and ends (entry offsets). */
  readonly offset: number;
  readonly end: number;
  readonly beyondEnd: boolean;
}

const tokenKey = (queryKey: string, offset: number) => `${queryKey}@${offset}`;

/** One backend page of the listing. */
async function listPage(query: Json, pageSize: number, token: unknown, ctx: MigrationContext): Promise<Json & { entries: unknown[] }> {
  const answer = await ctx.callBackend('getEntries', { ...query, pageSize, ...(typeof token === 'string' && { pageToken: token }) });
  if (!Array.isArray(answer.entries)) {
    throw new GatewayError('UPSTREAM_UNAVAILABLE', 'the backend answered getEntries without an entries list', { reason: 'getEntries answer without entries' });
  }
  return answer as Json & { entries: unknown[] };
}

/**
 * The token of the entry at `offset` (undefined for 0), walking from the nearest known token: the exact offset
 * (a page served before) or a step of the walk (multiples of LARGEST_PAGE_SIZE), looked up in one store call.
 */
async function tokenFor(query: Json, queryKey: string, offset: number, size: number, page: number, ctx: MigrationContext) {
  // A v1 page larger than the backend's largest is filled with further calls: they count as well.
  const budget = ctx.services.pageTokens.maxWalkCalls - (Math.ceil(size / LARGEST_PAGE_SIZE) - 1);
  const steps = Math.floor(offset / LARGEST_PAGE_SIZE);
  const known: number[] = [];
  if (offset > 0 && offset % LARGEST_PAGE_SIZE !== 0) known.push(offset);
  for (let step = steps; step >= 1 && steps - step <= budget; step--) known.push(step * LARGEST_PAGE_SIZE);
  const cached = known.length ? await ctx.services.pageTokens.getMany(known.map((at) => tokenKey(queryKey, at))) : [];
  const nearest = cached.findIndex((t) => t !== undefined);
  let at = nearest >= 0 ? (known[nearest] as number) : 0;
  let token = nearest >= 0 ? cached[nearest] : undefined;
  if (Math.ceil((offset - at) / LARGEST_PAGE_SIZE) > Math.max(0, budget)) {
    throw new GatewayError(
      'VERSION_TRANSLATION_FAILED',
      `page ${page} starts at entry ${offset}, past the ${budget} backend calls of ${LARGEST_PAGE_SIZE} entries that paging.maxWalkCalls allows one request to walk; page forward from a nearer page or use version 2 page tokens`,
      { field: 'page', page, offset, setting: 'paging.maxWalkCalls', maxWalkCalls: budget },
    );
  }
  while (at < offset) {
    const step = Math.min(LARGEST_PAGE_SIZE, offset - at);
    const next = (await listPage(query, step, token, ctx)).nextPageToken;
    if (typeof next !== 'string' || !next) return { token, beyondEnd: true };
    token = next;
    at += step;
    // Stored as the walk goes, so that a replica serving this client's next page finds it.
    await ctx.services.pageTokens.set(tokenKey(queryKey, at), token);
  }
  return { token, beyondEnd: false };
}

/** The page tokens the gateway mints for a version 1 backend: the offset of the page they lead to. */
const MINTED = /^p1:(0|[1-9][0-9]{0,8})$/;
const DOWN_STATE = 'getEntries.pageDown';

/**
 * A version 2 request → version 1, for a backend that pages by number: the token (one this gateway minted in an
 * earlier answer) names the offset, which the page size divides into a page number; any other token is refused.
 */
function pageTokenDown(body: Json, ctx: MigrationContext): Json {
  const { pageToken, ...rest } = body;
  const size = typeof body.pageSize === 'number' ? body.pageSize : DEFAULT_PAGE_SIZE;
  let offset = 0;
  if (pageToken !== undefined) {
    const m = typeof pageToken === 'string' ? MINTED.exec(pageToken) : null;
    offset = m ? Number(m[1]) : -1;
    if (offset < 0 || offset % size !== 0) {
      throw new GatewayError('VERSION_TRANSLATION_FAILED', 'this pageToken does not lead to a numbered page of this pageSize: the backend speaks API version 1, which pages by number; pass the nextPageToken of the previous answer, with the same pageSize', {
        field: 'pageToken',
        fields: ['pageToken'],
        reason: m ? 'the page size changed while paging' : 'not a page token this gateway minted',
      });
    }
  }
  ctx.state.set(DOWN_STATE, { offset, size });
  return offset > 0 ? { ...rest, page: offset / size } : rest;
}

/** A version 1 answer → version 2: `hasNextPage` becomes the token of the next page. */
function pageTokenUp(body: Json, ctx: MigrationContext): Json {
  const at = ctx.state.get(DOWN_STATE) as { offset: number; size: number } | undefined;
  if (!at || body.hasNextPage !== true) return body;
  return { ...body, nextPageToken: `p1:${at.offset + at.size}` };
}

export const entriesPageToken: CustomChange = custom({
  description:
    'getEntries: `ids` and `createdBy` take arrays only; `page` is replaced by `pageToken` (pass the previous answer\'s `nextPageToken`).',
  compatible: false,
  covers: [
    { target: request('getEntries'), path: 'ids' },
    { target: request('getEntries'), path: 'createdBy' },
    { target: request('getEntries'), path: 'page' },
    { target: request('getEntries'), path: 'pageToken' },
    // A v1 page larger than the backend's largest is asked in parts; an absent size is sent explicitly.
    { target: request('getEntries'), path: 'pageSize' },
  ],
  request: {
    getEntries: async (body, ctx) => {
      const { page, pageSize, ...query } = body;
      for (const field of ['ids', 'createdBy'] as const) {
        const value = asArray(query[field]);
        if (value !== undefined) query[field] = value;
      }
      // No page is page 0.
      const pageNumber = typeof page === 'number' ? page : 0;
      const size = typeof pageSize === 'number' ? pageSize : DEFAULT_PAGE_SIZE;
      const offset = pageNumber * size;
      if (!Number.isSafeInteger(pageNumber) || pageNumber < 0 || !Number.isSafeInteger(offset)) {
        throw new GatewayError('VERSION_TRANSLATION_FAILED', 'page must be a non-negative integer', { field: 'page', page });
      }
      // Tokens mark positions in one query's listing, whatever the page size: the key leaves it out.
      const queryKey = `${ctx.principal}:${hash('sha256', JSON.stringify(query), 'base64url').slice(0, 22)}`;
      const { token, beyondEnd } = await tokenFor(query, queryKey, offset, size, pageNumber, ctx);
      const state: PageState = { query, queryKey, offset, end: offset + size, beyondEnd };
      ctx.state.set(STATE, state);
      return { ...query, pageSize: Math.min(size, LARGEST_PAGE_SIZE), ...(token && { pageToken: token }) };
    },
  },
  // The way down, for a version 1 backend: a page token the gateway minted (`p1:<offset>`) becomes a numbered page.
  requestDown: { getEntries: pageTokenDown },
  responseUp: { getEntries: pageTokenUp },
  response: {
    getEntries: async (body, ctx) => {
      const state = ctx.state.get(STATE) as PageState | undefined;
      if (!state) return body;
      // Past the last page, a numbered v1 listing is simply empty, with no page after it.
      if (state.beyondEnd) return { ...body, hasNextPage: false, entries: [], nextPageToken: undefined };
      let page = body;
      // A v1 page larger than the backend's largest: the rest comes from the pages that follow.
      if (Array.isArray(body.entries) && state.end - state.offset > LARGEST_PAGE_SIZE) {
        const entries = [...body.entries];
        let next = body.nextPageToken;
        while (typeof next === 'string' && next && state.offset + entries.length < state.end) {
          const more = await listPage(state.query, Math.min(LARGEST_PAGE_SIZE, state.end - state.offset - entries.length), next, ctx);
          entries.push(...more.entries);
          next = more.nextPageToken;
        }
        page = { ...body, entries, nextPageToken: next };
      }
      // A next page exists exactly when there is a token to reach it: the first backend page's hasNextPage does not
      // speak for a filled page's end, and a page that ends the listing exactly must stop a client looping on it.
      const next = typeof page.nextPageToken === 'string' && page.nextPageToken !== '' ? page.nextPageToken : undefined;
      // Stored before the answer leaves, so that whichever replica serves the next page knows its token.
      if (next !== undefined) await ctx.services.pageTokens.set(tokenKey(state.queryKey, state.end), next);
      return { ...page, hasNextPage: next !== undefined, nextPageToken: next };
    },
  },
});
