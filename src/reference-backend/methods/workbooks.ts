// Workbook methods: create, read, list, update, move and delete workbooks, and list a workbook's entries.
// Answer shapes: datalens-tech/datalens-ui src/shared/schema/us/actions/workbooks/*.ts (workbookSchema, with
// `operation` on create) and src/shared/schema/us/schemas/workbooks/get-workbook-entries.ts.

import { z } from 'zod';
import { assertWritableBy, restamp, type Store, type Workbook, type WriteAccess } from '../stores/index.js';
import { actorOf, define, fromContract, type CallContext, type MethodHandler } from './context.js';
import { matches, pageNumber, pageOf, pageSizeOf, sortBy } from './lists.js';
import { operationOf } from './operation.js';
import { workbookEntryRow, workbookView } from './views.js';

const byField = (field: string | undefined) =>
  field === 'title' || field === 'createdAt' || field === 'updatedAt' ? (w: Workbook) => w[field] : undefined;

/** Every object a workbook write touches (the workbook, its entries and reports), guarded before anything changes. */
export function guardWorkbookTree(store: Store, workbookId: string, access: WriteAccess): void {
  const workbook = store.workbooks.require(workbookId);
  assertWritableBy(workbook, workbookId, access);
  for (const e of store.entries.list((x) => x.workbookId === workbookId)) assertWritableBy(e, e.entryId, access);
  for (const r of store.reports.inWorkbook(workbookId)) assertWritableBy(r, r.id, access);
}

/** Deletes a workbook with its entries and reports (the caller has guarded the whole tree). */
export function deleteWorkbookTree(store: Store, workbookId: string): Workbook {
  const workbook = store.workbooks.require(workbookId);
  for (const e of store.entries.list((x) => x.workbookId === workbookId)) store.entries.delete(e.entryId);
  for (const r of store.reports.inWorkbook(workbookId)) store.reports.remove(r.id);
  store.workbooks.delete(workbookId);
  return workbook;
}

/** Moves workbooks after guarding them all: a refused move changes none. */
function moveWorkbooks(ids: readonly string[], collectionId: string | null, ctx: CallContext, title?: string): Workbook[] {
  const { store, clientVersion } = ctx;
  if (collectionId !== null) store.collections.require(collectionId);
  const workbooks = ids.map((id) => store.workbooks.require(id));
  for (const w of workbooks) assertWritableBy(w, w.workbookId, ctx.access);
  for (const w of workbooks) {
    w.collectionId = collectionId;
    if (title !== undefined) w.title = title;
    restamp(w, actorOf(ctx), clientVersion);
  }
  return workbooks;
}

export const workbookMethods: Record<string, MethodHandler> = {
  createWorkbook: fromContract('createWorkbook', (args, ctx) => {
    const collectionId = (args.collectionId as string | null | undefined) ?? null;
    if (collectionId !== null) ctx.store.collections.require(collectionId);
    const workbook = ctx.store.workbooks.create(
      { title: args.title, description: args.description, collectionId, legacyFolderKey: args.legacyFolderKey },
      actorOf(ctx),
      ctx.clientVersion,
    );
    return { ...workbookView(workbook), operation: operationOf(`create-workbook-${workbook.workbookId}`, actorOf(ctx)) };
  }),

  getWorkbook: fromContract('getWorkbook', (args, { store }) => workbookView(store.workbooks.require(args.workbookId), args.includePermissionsInfo === true)),

  getWorkbooksByIds: fromContract('getWorkbooksByIds', (args, { store }) =>
    (args.workbookIds as string[]).filter((id) => store.workbooks.has(id)).map((id) => workbookView(store.workbooks.require(id))),
  ),

  getWorkbooksList: fromContract('getWorkbooksList', (args, ctx) => {
    const collectionId = (args.collectionId as string | null | undefined) ?? null;
    if (collectionId !== null) ctx.store.collections.require(collectionId);
    const kept = ctx.store.workbooks
      .all()
      .filter((w) => w.collectionId === collectionId && matches(w.title, args.filterString) && (!args.onlyMy || w.createdBy === actorOf(ctx)));
    const sorted = sortBy(kept, byField(args.orderField), args.orderDirection);
    const page = pageOf(sorted, pageNumber(args.page), pageSizeOf(args.pageSize, 100));
    return {
      workbooks: page.items.map((w) => workbookView(w, args.includePermissionsInfo === true)),
      ...(page.next !== undefined && { nextPageToken: String(page.next) }),
    };
  }),

  updateWorkbook: fromContract('updateWorkbook', (args, ctx) => {
    const workbook = ctx.store.workbooks.require(args.workbookId);
    assertWritableBy(workbook, workbook.workbookId, ctx.access);
    if (typeof args.title === 'string') workbook.title = args.title;
    if (typeof args.description === 'string') workbook.description = args.description;
    restamp(workbook, actorOf(ctx), ctx.clientVersion);
    return workbookView(workbook);
  }),

  moveWorkbook: fromContract('moveWorkbook', (args, ctx) =>
    workbookView(moveWorkbooks([args.workbookId], args.collectionId ?? null, ctx, args.title)[0]!),
  ),

  moveWorkbooks: fromContract('moveWorkbooks', (args, ctx) => ({
    workbooks: moveWorkbooks(args.workbookIds, args.collectionId ?? null, ctx).map((w) => workbookView(w)),
  })),

  deleteWorkbook: fromContract('deleteWorkbook', (args, { store, access }) => {
    guardWorkbookTree(store, args.workbookId, access);
    return workbookView(deleteWorkbookTree(store, args.workbookId));
  }),

  deleteWorkbooks: fromContract('deleteWorkbooks', (args, { store, access }) => {
    const ids = [...new Set(args.workbookIds as string[])];
    for (const id of ids) guardWorkbookTree(store, id, access);
    return { workbooks: ids.map((id) => workbookView(deleteWorkbookTree(store, id))) };
  }),

  getWorkbookEntries: fromContract('getWorkbookEntries', (args, ctx) => {
    const { store } = ctx;
    store.workbooks.require(args.workbookId);
    const scopes = args.scope === undefined ? undefined : new Set<string>([args.scope].flat());
    const name = (args.filters as { name?: string } | undefined)?.name;
    const kept = store.entries.list(
      (e) =>
        e.workbookId === args.workbookId &&
        (scopes === undefined || scopes.has(e.scope)) &&
        (args.createdBy === undefined || e.createdBy === args.createdBy) &&
        (!args.onlyMy || e.createdBy === actorOf(ctx)) &&
        matches(e.key.slice(e.key.lastIndexOf('/') + 1), name),
    );
    const order = args.orderBy as { field?: string; direction?: string } | undefined;
    const field = order?.field === 'name' ? (e: (typeof kept)[number]) => e.key : order?.field === 'createdAt' ? (e: (typeof kept)[number]) => e.createdAt : undefined;
    const page = pageOf(sortBy(kept, field, order?.direction), pageNumber(args.page), pageSizeOf(args.pageSize, 100));
    return {
      entries: page.items.map((e) => workbookEntryRow(e, args.includePermissionsInfo === true)),
      ...(page.next !== undefined && { nextPageToken: String(page.next) }),
    };
  }),

  // Not a DataLens method: the gateway's fallback for v1 report keys (see src/contract/v2/reports-workbook-id.ts).
  resolveLegacyKey: define(z.object({ key: z.string().min(1) }), (args, { store }) => store.workbooks.resolveLegacyKey(args.key)),
};
