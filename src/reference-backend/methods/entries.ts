// Entry methods: getEntries (the backend's own strict schema, so an untranslated v1 field is refused), entry
// relations, and createEntry (not a DataLens method: tests and the seed's tools add plain entries with it).
// Arguments and rows: datalens-tech/datalens-ui src/shared/schema/us/schemas/entries/get-entries.ts and
// src/shared/schema/us/actions/entries/get-entries-relations.ts.

import { z } from 'zod';
import { BackendError, notFound } from '../shared/errors.js';
import { decodePageToken, encodePageToken, filtersHash } from '../shared/page-token.js';
import { ENTRY_SCOPES, type Entry } from '../stores/index.js';
import { nameOf } from '../stores/entries.js';
import { actorOf, define, fromContract, type MethodHandler } from './context.js';
import { entryRow, entryView, relationRow } from './views.js';
import { wizardRow } from './wizard-charts.js';

const id = z.string().min(1);

const getEntriesArgs = z.strictObject({
  ids: z.array(id).max(1000).optional(),
  createdBy: z.array(z.string()).max(1000).optional(),
  scope: z.enum(ENTRY_SCOPES).optional(),
  type: z.string().optional(),
  filters: z.strictObject({ name: z.string().optional() }).optional(),
  orderBy: z.strictObject({ field: z.enum(['createdAt', 'name']), direction: z.enum(['asc', 'desc']) }).optional(),
  excludeLocked: z.boolean().optional(),
  includeData: z.boolean().optional(),
  includeLinks: z.boolean().optional(),
  includePermissionsInfo: z.boolean().optional(),
  ignoreWorkbookEntries: z.boolean().optional(),
  ignoreSharedEntries: z.boolean().optional(),
  pageSize: z.int().min(1).max(1000).default(100),
  pageToken: z.string().min(1).optional(),
});

const invalidToken = (reason: string) =>
  new BackendError('VALIDATION_ERROR', `Invalid pageToken: ${reason}.`, { issues: [{ path: 'pageToken', message: reason }] });

export const entryMethods: Record<string, MethodHandler> = {
  getEntries: define(getEntriesArgs, (args, ctx) => {
    const { store } = ctx;
    const hash = filtersHash(args);
    let offset = 0;
    if (args.pageToken !== undefined) {
      const decoded = decodePageToken(args.pageToken, hash);
      if (!decoded.ok) throw invalidToken(decoded.reason);
      offset = decoded.offset;
    }
    const ids = args.ids && args.ids.length > 0 ? new Set(args.ids) : undefined;
    const createdBy = args.createdBy && args.createdBy.length > 0 ? new Set(args.createdBy) : undefined;
    const name = args.filters?.name?.toLowerCase();
    const matching = store.entries.list(
      (e: Entry) =>
        (ids === undefined || ids.has(e.entryId)) &&
        (createdBy === undefined || createdBy.has(e.createdBy)) &&
        (args.scope === undefined || e.scope === args.scope) &&
        (args.type === undefined || e.type === args.type) &&
        (name === undefined || nameOf(e.key).toLowerCase().includes(name)) &&
        !(args.ignoreWorkbookEntries && e.workbookId !== null) &&
        !(args.ignoreSharedEntries && e.workbookId === null && e.collectionId !== null) &&
        !(args.excludeLocked && store.locks.get(e.entryId) !== undefined),
    );
    if (args.orderBy) {
      const sign = args.orderBy.direction === 'desc' ? -1 : 1;
      const key = args.orderBy.field === 'name' ? (e: Entry) => nameOf(e.key) : (e: Entry) => e.createdAt;
      matching.sort((a, b) => sign * key(a).localeCompare(key(b)));
    }
    const end = offset + args.pageSize;
    const options = { data: args.includeData === true, links: args.includeLinks === true, permissions: args.includePermissionsInfo === true };
    const titleOf = (e: Entry) => (e.workbookId !== null && store.workbooks.has(e.workbookId) ? store.workbooks.require(e.workbookId).title : null);
    const collectionTitleOf = (e: Entry) => (e.collectionId !== null && store.collections.has(e.collectionId) ? store.collections.require(e.collectionId).title : null);
    const result: { hasNextPage: boolean; entries: Record<string, unknown>[]; nextPageToken?: string } = {
      // Real US answers hasNextPage beside the rows (datalens-us 91ff69b, the recorded getEntries answers).
      hasNextPage: end < matching.length,
      entries: matching
        .slice(offset, end)
        .map((e) => wizardRow(e, entryRow(e, titleOf(e), { ...options, collectionTitle: collectionTitleOf(e), locked: store.locks.get(e.entryId) !== undefined }), ctx)),
    };
    if (end < matching.length) result.nextPageToken = encodePageToken(end, hash);
    return result;
  }),

  getEntriesRelations: fromContract('getEntriesRelations', (args, { store }) => {
    const from = new Set(args.entryIds as string[]);
    // Real DataLens names every missing id at once (details.missingEntryIds).
    const missingEntryIds = [...from].filter((entryId) => !store.entries.has(entryId));
    if (missingEntryIds.length > 0) throw notFound('entry', `Entries ${missingEntryIds.join(', ')} not found.`, { entryId: missingEntryIds[0], missingEntryIds });
    // 'from' (the default): the entries these link to; 'to': the entries that link to these.
    const related =
      args.linkDirection === 'to'
        ? store.entries.list((e) => !from.has(e.entryId) && Object.values(e.links ?? {}).some((target) => from.has(target)))
        : [...new Set([...from].flatMap((entryId) => Object.values(store.entries.require(entryId).links ?? {})))]
            .filter((target) => store.entries.has(target))
            .map((target) => store.entries.require(target));
    const kept = related.filter((e) => args.scope === undefined || e.scope === args.scope);
    const offset = args.pageToken === undefined ? 0 : Number.parseInt(String(args.pageToken), 10);
    if (!Number.isSafeInteger(offset) || offset < 0) throw invalidToken('not a token this backend issued');
    const limit = typeof args.limit === 'number' && args.limit >= 1 ? Math.min(args.limit, 1000) : 100;
    return {
      relations: kept.slice(offset, offset + limit).map((e) => relationRow(e, args.includePermissionsInfo === true)),
      ...(offset + limit < kept.length && { nextPageToken: String(offset + limit) }),
    };
  }),

  createEntry: define(
    z.object({ key: z.string().min(1), scope: z.enum(ENTRY_SCOPES), type: z.string().optional(), workbookId: id.optional(), createdBy: z.string().min(1).optional() }),
    (args, ctx) => {
      if (args.workbookId !== undefined) ctx.store.workbooks.require(args.workbookId);
      const entry = ctx.store.entries.create(
        { key: args.key, scope: args.scope, type: args.type ?? '', workbookId: args.workbookId ?? null },
        args.createdBy ?? actorOf(ctx),
        ctx.clientVersion,
      );
      return entryView(entry);
    },
  ),
};
