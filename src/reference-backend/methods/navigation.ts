// Entries and folders (version 2): renameEntry, createFolder, listDirectory, getEntriesPermissions,
// getPermissionsBulk, on the entry and folder stores. A folder is a key prefix ending with "/" of entries outside
// workbooks, made explicitly (createFolder) or implied by an entry's key. Full rights everywhere (no access control).
// Shapes: the real spec's components (src/contract/v2/navigation.ts).

import { assertWritableBy, restamp, type Entry, type Store } from '../stores/index.js';
import { nameOf } from '../stores/entries.js';
import { implicitFolderId } from '../stores/folders.js';
import { COLLECTION_PERMISSIONS, ENTRY_PERMISSIONS, WORKBOOK_PERMISSIONS, actorOf, fromContract, type Args, type MethodHandler } from './context.js';
import { invalid } from './paging.js';

/** SharedEntryPermissions: every right (this backend enforces none). */
const SHARED_ENTRY_PERMISSIONS = Object.fromEntries(
  ['listAccessBindings', 'updateAccessBindings', 'limitedView', 'view', 'update', 'copy', 'move', 'delete', 'createEntryBinding', 'createLimitedEntryBinding'].map((k) => [k, true]),
);

/** "a/b" and "a/b/" both name the folder "a/b/"; "" and "/" the root. */
const asFolder = (path: string): string => (path === '' || path === '/' ? '' : path.endsWith('/') ? path : `${path}/`);
const parentOf = (key: string): string => key.slice(0, key.lastIndexOf('/', key.length - 2) + 1);

/** Every folder under the root, explicit or implied by a key outside workbooks, with its oldest and newest times. */
function foldersOf(store: Store): Map<string, { entryId: string; createdAt: string; createdBy: string; updatedAt: string; updatedBy: string; revId: string }> {
  const out = new Map<string, { entryId: string; createdAt: string; createdBy: string; updatedAt: string; updatedBy: string; revId: string }>();
  for (const f of store.folders.all()) out.set(f.key, { entryId: f.entryId, createdAt: f.createdAt, createdBy: f.createdBy, updatedAt: f.createdAt, updatedBy: f.createdBy, revId: f.revId });
  for (const e of store.entries.list((x) => x.workbookId === null)) {
    for (let at = e.key.indexOf('/'); at >= 0; at = e.key.indexOf('/', at + 1)) {
      const key = e.key.slice(0, at + 1);
      if (!out.has(key)) out.set(key, { entryId: implicitFolderId(key), createdAt: e.createdAt, createdBy: e.createdBy, updatedAt: e.createdAt, updatedBy: e.createdBy, revId: implicitFolderId(key) });
    }
  }
  return out;
}

type Row = Record<string, unknown> & { name: string; createdAt: string; createdBy: string; folder: boolean };

export const navigationMethods: Record<string, MethodHandler> = {
  renameEntry: fromContract('renameEntry', (args: Args, ctx) => {
    const entry = ctx.store.entries.require(args.entryId);
    const name = String(args.name);
    if (name === '' || name.includes('/')) throw invalid('name', 'name must be non-empty and hold no "/".');
    const key = `${entry.key.slice(0, entry.key.lastIndexOf('/') + 1)}${name}`;
    if (key !== entry.key && ctx.store.entries.list((e) => e.key === key && e.workbookId === entry.workbookId).length > 0) {
      throw invalid('name', `An entry named "${name}" already exists there.`);
    }
    assertWritableBy(entry, entry.entryId, ctx.access);
    ctx.store.locks.assertWritable(entry.entryId, undefined);
    entry.key = key;
    restamp(entry, actorOf(ctx), ctx.clientVersion);
    return [{ entryId: entry.entryId, key: entry.key, scope: entry.scope, type: entry.type, updatedAt: entry.updatedAt, updatedBy: entry.updatedBy }];
  }),

  createFolder: fromContract('createFolder', (args: Args, ctx) => {
    const key = asFolder(String(args.key));
    if (key === '') throw invalid('key', 'key must name a folder.');
    if (foldersOf(ctx.store).has(key)) throw invalid('key', `Folder ${key} already exists.`);
    const f = ctx.store.folders.create(key, actorOf(ctx), (args.initialPermissions as Record<string, unknown> | undefined) ?? {});
    return {
      entryId: f.entryId,
      scope: 'folder',
      type: '',
      key: f.key,
      unversionedData: {},
      createdBy: f.createdBy,
      createdAt: f.createdAt,
      updatedBy: f.createdBy,
      updatedAt: f.createdAt,
      savedId: f.revId,
      revId: f.revId,
      publishedId: null,
      tenantId: 'tenant_reference',
      data: {},
      meta: {},
      annotation: null,
      hidden: false,
      mirrored: false,
      public: false,
      workbookId: null,
      collectionId: null,
      version: null,
      sourceVersion: null,
      links: null,
    };
  }),

  listDirectory: fromContract('listDirectory', (args: Args, { store }) => {
    const path = asFolder(typeof args.path === 'string' ? args.path : '');
    const folders = foldersOf(store);
    const perms = args.includePermissionsInfo === true ? { permissions: { ...ENTRY_PERMISSIONS } } : {};
    const common = { hidden: false, workbookId: null, collectionId: null, isFavorite: false, ...perms };
    const folderRows: Row[] = [...folders].filter(([key]) => parentOf(key) === path).map(([key, f]) => ({
      entryId: f.entryId, key, name: nameOf(key.slice(0, -1)), scope: 'folder', type: '', meta: {}, createdAt: f.createdAt, updatedAt: f.updatedAt,
      createdBy: f.createdBy, updatedBy: f.updatedBy, savedId: f.revId, publishedId: null, isLocked: false, folder: true, ...common,
    }));
    const entryRows: Row[] = store.entries.list((e: Entry) => e.workbookId === null && e.key.startsWith(path) && !e.key.slice(path.length).includes('/')).map((e) => ({
      entryId: e.entryId, key: e.key, name: nameOf(e.key), scope: e.scope, type: e.type, meta: e.meta, createdAt: e.createdAt, updatedAt: e.updatedAt,
      createdBy: e.createdBy, updatedBy: e.updatedBy, savedId: e.savedId, publishedId: e.publishedId, isLocked: store.locks.get(e.entryId) !== undefined, folder: false, ...common, hidden: e.hidden,
    }));
    const authors = args.createdBy === undefined ? undefined : new Set<string>([args.createdBy].flat());
    const name = typeof args.filters?.name === 'string' ? args.filters.name.toLowerCase() : undefined;
    const rows = [...folderRows, ...entryRows].filter((r) => (authors === undefined || authors.has(r.createdBy)) && (name === undefined || r.name.toLowerCase().includes(name)));
    // Folders first, then by the asked field (default: name, ascending).
    const field = args.orderBy?.field === 'createdAt' ? 'createdAt' : 'name';
    const sign = args.orderBy?.direction === 'desc' ? -1 : 1;
    rows.sort((a, b) => Number(b.folder) - Number(a.folder) || sign * a[field].localeCompare(b[field]));
    const size = typeof args.pageSize === 'number' && args.pageSize >= 1 ? Math.floor(args.pageSize) : 100;
    const start = (typeof args.page === 'number' && args.page >= 0 ? Math.floor(args.page) : 0) * size;
    const crumbs = path === '' ? [] : path.slice(0, -1).split('/').map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`);
    return {
      hasNextPage: start + size < rows.length,
      breadCrumbs: crumbs.map((key) => ({ title: nameOf(key.slice(0, -1)), path: key, entryId: folders.get(key)?.entryId ?? implicitFolderId(key), isLocked: false, permissions: { ...ENTRY_PERMISSIONS } })),
      entries: rows.slice(start, start + size).map(({ folder: _, ...row }) => row),
    };
  }),

  getEntriesPermissions: fromContract('getEntriesPermissions', (args: Args, { store }) =>
    Object.fromEntries((args.entryIds as string[]).map((id) => [id, store.entries.has(id) ? { permissions: { ...ENTRY_PERMISSIONS } } : { error: 'NOT_FOUND' }])),
  ),

  getPermissionsBulk: fromContract('getPermissionsBulk', (args: Args, { store }) => {
    const each = (ids: unknown, exists: (id: string) => boolean, found: () => Record<string, unknown>) =>
      Object.fromEntries(((ids as string[] | undefined) ?? []).map((id) => [id, exists(id) ? found() : { error: 'NOT_FOUND' }]));
    return {
      entries: each(args.entryIds, (id) => store.entries.has(id), () => ({ permissions: { ...ENTRY_PERMISSIONS }, fullPermissions: { ...SHARED_ENTRY_PERMISSIONS } })),
      workbooks: each(args.workbookIds, (id) => store.workbooks.has(id), () => ({ permissions: { ...WORKBOOK_PERMISSIONS } })),
      collections: each(args.collectionIds, (id) => store.collections.has(id), () => ({ permissions: { ...COLLECTION_PERMISSIONS } })),
    };
  }),
};
