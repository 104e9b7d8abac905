// Collection methods: create, read, breadcrumbs, content, update, move and delete collections.
// Answer shapes: datalens-tech/datalens-ui src/shared/schema/us/actions/collections/*.ts (collectionSchema,
// `operation` on create; getStructureItems for getCollectionContent, items tagged with `entity`).

import { assertWritableBy, restamp, type Collection, type Store, type WriteAccess } from '../stores/index.js';
import { actorOf, fromContract, type CallContext, type MethodHandler } from './context.js';
import { matches, pageNumber, pageOf, pageSizeOf, sortBy } from './lists.js';
import { operationOf } from './operation.js';
import { collectionView, workbookView } from './views.js';
import { deleteWorkbookTree, guardWorkbookTree } from './workbooks.js';

/** Guards a collection, everything below it and every workbook (with its entries) inside, before a delete. */
function guardCollectionTree(store: Store, collectionId: string, access: WriteAccess): Collection[] {
  const tree = store.collections.subtree(collectionId);
  for (const c of tree) {
    assertWritableBy(c, c.collectionId, access);
    for (const w of store.workbooks.all()) if (w.collectionId === c.collectionId) guardWorkbookTree(store, w.workbookId, access);
  }
  return tree;
}

function deleteCollectionTree(store: Store, tree: readonly Collection[]): void {
  for (const c of tree) {
    for (const w of store.workbooks.all()) if (w.collectionId === c.collectionId) deleteWorkbookTree(store, w.workbookId);
    store.collections.delete(c.collectionId);
  }
}

/** Moves collections after checking and guarding them all: a refused move changes none. */
function moveCollections(ids: readonly string[], parentId: string | null, ctx: CallContext, title?: string): Collection[] {
  const { store, clientVersion } = ctx;
  const collections = ids.map((id) => store.collections.require(id));
  for (const c of collections) {
    store.collections.assertMovable(c.collectionId, parentId);
    assertWritableBy(c, c.collectionId, ctx.access);
  }
  for (const c of collections) {
    c.parentId = parentId;
    if (title !== undefined) c.title = title;
    restamp(c, actorOf(ctx), clientVersion);
  }
  return collections;
}

const byField = (field: string | undefined) =>
  field === 'title' || field === 'createdAt' || field === 'updatedAt' ? (item: { [k: string]: unknown }) => String(item[field]) : undefined;

export const collectionMethods: Record<string, MethodHandler> = {
  createCollection: fromContract('createCollection', (args, ctx) => {
    const collection = ctx.store.collections.create(
      { title: args.title, description: args.description, parentId: args.parentId ?? null },
      actorOf(ctx),
      ctx.clientVersion,
    );
    return { ...collectionView(collection), operation: operationOf(`create-collection-${collection.collectionId}`, actorOf(ctx)) };
  }),

  getCollection: fromContract('getCollection', (args, { store }) => collectionView(store.collections.require(args.collectionId), args.includePermissionsInfo === true)),

  getCollectionsByIds: fromContract('getCollectionsByIds', (args, { store }) =>
    (args.collectionIds as string[]).filter((id) => store.collections.has(id)).map((id) => collectionView(store.collections.require(id))),
  ),

  getCollectionBreadcrumbs: fromContract('getCollectionBreadcrumbs', (args, { store }) =>
    store.collections.breadcrumbs(args.collectionId).map((c) => collectionView(c, args.includePermissionsInfo === true)),
  ),

  getCollectionContent: fromContract('getCollectionContent', (args, ctx) => {
    const { store } = ctx;
    const collectionId = (args.collectionId as string | null | undefined) ?? null;
    if (collectionId !== null) store.collections.require(collectionId);
    const mode = (args.mode as string | undefined) ?? 'all';
    const permissions = args.includePermissionsInfo === true;
    const mine = (createdBy: string) => !args.onlyMy || createdBy === actorOf(ctx);
    // Collections first, then workbooks, each sorted, as real US lists a collection's content (the recorded answers).
    const sorted = <T extends Record<string, unknown>>(items: T[]) => sortBy(items, byField(args.orderField), args.orderDirection);
    const items = [
      ...(mode === 'all' || mode === 'onlyCollections'
        ? sorted(store.collections.children(collectionId).filter((c) => matches(c.title, args.filterString) && mine(c.createdBy)).map((c) => ({ ...collectionView(c, permissions), entity: 'collection' })))
        : []),
      ...(mode === 'all' || mode === 'onlyWorkbooks'
        ? sorted(store.workbooks.all().filter((w) => w.collectionId === collectionId && matches(w.title, args.filterString) && mine(w.createdBy)).map((w) => ({ ...workbookView(w, permissions), entity: 'workbook' })))
        : []),
    ];
    const page = pageOf(items, pageNumber(args.page), pageSizeOf(args.pageSize, 100));
    return { items: page.items, nextPageToken: page.next === undefined ? null : String(page.next) };
  }),

  getRootCollectionPermissions: fromContract('getRootCollectionPermissions', () => ({ createCollectionInRoot: true, createWorkbookInRoot: true })),

  updateCollection: fromContract('updateCollection', (args, ctx) => {
    const collection = ctx.store.collections.require(args.collectionId);
    assertWritableBy(collection, collection.collectionId, ctx.access);
    if (typeof args.title === 'string') collection.title = args.title;
    if (typeof args.description === 'string') collection.description = args.description;
    restamp(collection, actorOf(ctx), ctx.clientVersion);
    return collectionView(collection);
  }),

  moveCollection: fromContract('moveCollection', (args, ctx) =>
    collectionView(moveCollections([args.collectionId], args.parentId ?? null, ctx, args.title)[0]!),
  ),

  moveCollections: fromContract('moveCollections', (args, ctx) => ({
    collections: moveCollections(args.collectionIds, args.parentId ?? null, ctx).map((c) => collectionView(c)),
  })),

  deleteCollection: fromContract('deleteCollection', (args, { store, access }) => {
    const tree = guardCollectionTree(store, args.collectionId, access);
    deleteCollectionTree(store, tree);
    return { collections: tree.map((c) => collectionView(c)) };
  }),

  deleteCollections: fromContract('deleteCollections', (args, { store, access }) => {
    const ids = [...new Set(args.collectionIds as string[])];
    // Guard every tree first (a nested id is covered by its parent's tree), then delete.
    const trees = ids.map((id) => guardCollectionTree(store, id, access));
    const deleted = new Map<string, Collection>();
    for (const tree of trees) for (const c of tree) deleted.set(c.collectionId, c);
    deleteCollectionTree(store, [...deleted.values()]);
    return { collections: [...deleted.values()].map((c) => collectionView(c)) };
  }),
};
