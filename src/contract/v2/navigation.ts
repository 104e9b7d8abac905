// Version 2, entries and folders: rename an entry, create a folder, list a folder, and read permissions in bulk.
// Source: the real spec (spec-source.ts), components RenameEntryArgs, RenameEntryResult, RenameEntryResultEntry,
// CreateFolderArgs (strict), DlsInitialPermissions, DlsInitialPermissionItem, CreateFolderResult, ListDirectoryArgs,
// ListDirectoryResult, ListDirectoryEntry, ListDirectoryBreadCrumb, GetEntriesPermissionsArgs (strict),
// GetEntriesPermissionsResult, GetPermissionsBulkArgs (strict), GetPermissionsBulkResult, SharedEntryPermissions,
// CollectionPermissions, WorkbookPermissions, EntryPermissions.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, entriesOrderBy, method, open, permissions, record, strict } from '../datalens/common.js';
import { permissionsByEntry } from './audit.js';

/** DlsInitialPermissions: per access level, who gets it when the folder is made. */
const initialItems = z.array(strict({ comment: z.string(), subject: z.string() })).optional();
const initialPermissions = open({ acl_adm: initialItems, acl_edit: initialItems, acl_execute: initialItems, acl_view: initialItems });

/** CreateFolderResult: a United Storage folder entry. */
const folderEntry = answer({
  entryId: z.string(),
  scope: z.enum(['folder']),
  type: z.enum(['']),
  key: z.string(),
  unversionedData: record,
  createdBy: z.string(),
  createdAt: z.string(),
  updatedBy: z.string(),
  updatedAt: z.string(),
  savedId: z.string(),
  revId: z.string(),
  publishedId: z.string().nullable(),
  tenantId: z.string(),
  data: record,
  meta: record,
  annotation: z.null(),
  hidden: z.boolean(),
  mirrored: z.boolean(),
  public: z.boolean(),
  workbookId: z.null(),
  collectionId: z.null(),
  version: z.null(),
  sourceVersion: z.null(),
  links: z.null(),
});

/** ListDirectoryEntry. */
const directoryEntry = answer({
  entryId: z.string(),
  key: z.string(),
  name: z.string(),
  scope: z.string(),
  type: z.string(),
  meta: record.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string(),
  updatedBy: z.string(),
  savedId: z.string(),
  publishedId: z.string().nullable(),
  hidden: z.boolean(),
  // Required but typed "string" in the component while folder entries have none: null is read as "not in one".
  workbookId: z.string().nullable(),
  collectionId: z.string().nullable(),
  isFavorite: z.boolean(),
  isLocked: z.boolean(),
  permissions: permissions.optional(),
});

/** ListDirectoryBreadCrumb. */
const breadCrumb = answer({ title: z.string(), path: z.string(), entryId: z.string(), isLocked: z.boolean(), permissions });

const flags = z.record(z.string(), z.boolean());
const notFound = answer({ error: z.enum(['NOT_FOUND']) });
const bulkIds = z.array(z.string()).min(1).max(1000).optional();

export const navigationMethods: Record<string, MethodSpec> = {
  renameEntry: method(
    'Renames an entry (the last segment of its key); answers the entries whose key changed.',
    open({ entryId: z.string(), name: z.string() }),
    z.array(answer({ entryId: z.string(), key: z.string(), scope: z.string(), type: z.string(), updatedAt: z.string(), updatedBy: z.string() })),
  ),
  createFolder: method('Creates a folder (a key ending with "/").', strict({ key: z.string(), initialPermissions: initialPermissions.optional() }), folderEntry),
  listDirectory: method(
    'Lists one folder’s entries (filtered, ordered, one numbered page at a time) with the breadcrumbs to it.',
    open({
      path: z.string().optional(),
      createdBy: z.union([z.string(), z.array(z.string())]).optional(),
      filters: open({ name: z.string().optional() }).optional(),
      orderBy: entriesOrderBy.optional(),
      page: z.number().optional(),
      pageSize: z.number().optional(),
      includePermissionsInfo: z.boolean().optional(),
    }),
    answer({ hasNextPage: z.boolean(), breadCrumbs: z.array(breadCrumb), entries: z.array(directoryEntry) }),
    { emptyBody: true },
  ),
  getEntriesPermissions: method('Returns the caller’s permissions on each of the given entries.', strict({ entryIds: z.array(z.string()) }), permissionsByEntry),
  getPermissionsBulk: method(
    'Returns the caller’s permissions on entries, workbooks and collections, by id.',
    strict({ entryIds: bulkIds, workbookIds: bulkIds, collectionIds: bulkIds }),
    answer({
      entries: z.record(z.string(), z.union([answer({ permissions: permissions.optional(), fullPermissions: flags.optional() }), notFound])),
      workbooks: z.record(z.string(), z.union([answer({ permissions: flags.optional() }), notFound])),
      collections: z.record(z.string(), z.union([answer({ permissions: flags.optional() }), notFound])),
    }),
    { emptyBody: true },
  ),
};
