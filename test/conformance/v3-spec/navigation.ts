// Entry listings and entry-level methods (tags Navigation, Entries): getEntries, getEntriesRelations,
// getEntriesPermissions, listDirectory, renameEntry. Components: GetEntriesV2Args/Result, GetEntriesEntry,
// GetEntriesLockedEntry, GetEntriesRelationsArgs/Result, GetEntriesPermissionsArgs/Result, ListDirectoryArgs/Result,
// ListDirectoryEntry, ListDirectoryBreadCrumb, RenameEntryArgs, RenameEntryResult, EntryPermissions.

import { z } from 'zod';
import { EntryPermissions, GetEntriesEntry, GetEntriesLockedEntry, GetEntriesRelationsEntry, RenameEntryResultEntry, loose, nstr, str } from './components.js';
import type { Family } from './types.js';

const named = { name: str };
/** A per-id answer: the permissions, or NOT_FOUND. */
const permissionsOrMissing = z.record(z.string(), z.union([loose({ permissions: EntryPermissions }), loose({ error: z.literal('NOT_FOUND') })]));

/** ListDirectoryEntry */
const ListDirectoryEntry = loose({
  entryId: str,
  key: str,
  scope: str,
  type: str,
  meta: z.record(z.string(), z.unknown()).nullable(),
  createdAt: str,
  updatedAt: str,
  createdBy: str,
  updatedBy: str,
  savedId: str,
  publishedId: nstr,
  hidden: z.boolean(),
  // ListDirectoryEntry says string, but the directory lists entries outside workbooks: their workbookId is null, as
  // on every other entry answer (GetEntriesEntry, datalens-us's own entry model). A deliberate difference.
  workbookId: nstr,
  collectionId: nstr,
  isFavorite: z.boolean(),
  isLocked: z.boolean(),
  name: str,
  permissions: EntryPermissions.optional(),
  collectionTitle: nstr.optional(),
  workbookTitle: nstr.optional(),
});

export const navigationSteps: Family = [
  {
    method: 'getEntries',
    request: 'GetEntriesV2Args',
    response: 'GetEntriesV2Result',
    body: (made) => ({
      ids: [made.connection, made.dataset, made.editorChart],
      scope: 'widget',
      type: 'table_node',
      filters: { name: 'Conformance' },
      orderBy: { field: 'createdAt', direction: 'desc' },
      createdBy: ['api'],
      ignoreWorkbookEntries: false,
      ignoreSharedEntries: false,
      includeData: false,
      includeLinks: true,
      includePermissionsInfo: true,
      excludeLocked: false,
      pageSize: 20,
    }),
    answer: loose({ entries: z.array(z.union([GetEntriesLockedEntry.extend(named), GetEntriesEntry.extend(named)])), nextPageToken: z.string().optional() }),
  },
  {
    method: 'getEntriesRelations',
    request: 'GetEntriesRelationsArgs',
    response: 'GetEntriesRelationsResult',
    body: (made) => ({ entryIds: [made.dataset], linkDirection: 'from', scope: 'connection', includePermissionsInfo: true, limit: 50 }),
    answer: loose({ relations: z.array(GetEntriesRelationsEntry), nextPageToken: z.string().optional() }),
  },
  {
    method: 'getEntriesPermissions',
    request: 'GetEntriesPermissionsArgs',
    response: 'GetEntriesPermissionsResult',
    body: (made) => ({ entryIds: [made.dataset, made.editorChart, 'no-such-entry'] }),
    answer: permissionsOrMissing,
  },
  {
    method: 'listDirectory',
    request: 'ListDirectoryArgs',
    response: 'ListDirectoryResult',
    body: (made) => ({
      path: made.folderKey,
      createdBy: 'api',
      filters: { name: 'Orders' },
      orderBy: { field: 'name', direction: 'asc' },
      page: 0,
      pageSize: 50,
      includePermissionsInfo: true,
    }),
    answer: loose({
      hasNextPage: z.boolean(),
      breadCrumbs: z.array(loose({ title: str, path: str, entryId: str, isLocked: z.boolean(), permissions: EntryPermissions })),
      entries: z.array(ListDirectoryEntry),
    }),
  },
  {
    method: 'renameEntry',
    request: 'RenameEntryArgs',
    response: 'RenameEntryResult',
    body: (made) => ({ entryId: made.qlChart, name: 'Revenue by day' }),
    answer: z.array(RenameEntryResultEntry),
  },
];
