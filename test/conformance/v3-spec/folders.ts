// Folders and their permissions (tags Folder, Permissions): a folder made under the scenario's folder key, the QL
// chart (an entry in a folder) moved into it, its permissions read and changed, permissions checked in bulk,
// subjects suggested and listed.
// Components: CreateFolderArgs/Result, MoveEntryArgs/MoveEntryResult (moveFolderEntry's, read from the v2 index:
// its v3 path was not read), DeleteFolderArgs, DlsSuggestArgs/Result, DlsPermissionUnit, GetPermissionsArgs/Result,
// ModifyPermissionsArgs/Result, AccessExtBatchListMembersArgs/Result, AccessExtSubjectClaims,
// GetPermissionsBulkArgs/Result.

import { z } from 'zod';
import {
  AccessExtSubjectClaims,
  CollectionPermissions,
  DlsPermissionUnit,
  EntryPermissions,
  GetPermissionsResult,
  MoveEntryResultEntry,
  SharedEntryPermissions,
  WorkbookPermissions,
  loose,
  str,
} from './components.js';
import type { Family } from './types.js';

const missing = loose({ error: z.literal('NOT_FOUND') });
const byId = <T extends z.ZodType>(found: T) => z.record(z.string(), z.union([found, missing]));

/** CreateFolderResult: a folder entry; its workbook, collection, version and links are always null. */
const CreateFolderResult = loose({
  entryId: str,
  scope: z.literal('folder'),
  type: z.literal(''),
  key: str,
  unversionedData: loose({}),
  createdBy: str,
  createdAt: str,
  updatedBy: str,
  updatedAt: str,
  savedId: str,
  revId: str,
  publishedId: z.string().nullable(),
  tenantId: str,
  data: loose({}),
  meta: loose({}),
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

export const folderSteps: Family = [
  {
    method: 'createFolder',
    request: 'CreateFolderArgs',
    response: 'CreateFolderResult',
    body: (made) => ({
      key: `${made.folderKey}archive/`,
      initialPermissions: { acl_view: [{ subject: 'user:alice@example.com', comment: 'reads the archive' }], acl_adm: [{ subject: 'user:bob@example.com', comment: 'owns it' }] },
    }),
    answer: CreateFolderResult,
    keep: (a, made) => {
      made.folder = a.entryId;
    },
  },
  {
    method: 'moveFolderEntry',
    request: 'MoveEntryArgs',
    response: 'MoveEntryResult',
    body: (made) => ({ entryId: made.qlChart, destination: `${made.folderKey}archive/`, name: 'Orders by day (archived)' }),
    answer: z.array(MoveEntryResultEntry),
  },
  {
    method: 'dlsSuggest',
    request: 'DlsSuggestArgs',
    response: 'DlsSuggestResult',
    body: () => ({ searchText: 'ali' }),
    answer: z.array(DlsPermissionUnit),
  },
  {
    method: 'getPermissions',
    request: 'GetPermissionsArgs',
    response: 'GetPermissionsResult',
    body: (made) => ({ entryId: made.qlChart }),
    answer: GetPermissionsResult,
  },
  {
    method: 'modifyPermissions',
    request: 'ModifyPermissionsArgs',
    response: 'ModifyPermissionsResult',
    body: (made) => ({
      entryId: made.qlChart,
      checkType: 'straight',
      nested: true,
      body: {
        diff: {
          added: { acl_edit: [{ subject: 'user:carol@example.com', comment: 'edits the archive' }] },
          modified: { acl_view: [{ subject: 'user:alice@example.com', new: { grantType: 'acl_execute', subject: 'user:alice@example.com' }, comment: 'runs it' }] },
          removed: { acl_adm: [{ subject: 'user:bob@example.com' }] },
        },
      },
    }),
    answer: loose({ result: z.literal('ok'), nextPageToken: z.string().optional() }),
  },
  {
    method: 'batchListMembers',
    request: 'AccessExtBatchListMembersArgs',
    response: 'AccessExtBatchListMembersResult',
    body: () => ({ search: 'a', filter: '', tabId: 'USER_ACCOUNT', language: 'en', pageSize: 20 }),
    answer: loose({ members: z.array(AccessExtSubjectClaims), nextPageToken: str }),
  },
  {
    method: 'getPermissionsBulk',
    request: 'GetPermissionsBulkArgs',
    response: 'GetPermissionsBulkResult',
    body: (made) => ({ entryIds: [made.folder, made.dataset], workbookIds: [made.workbook], collectionIds: [made.collection] }),
    answer: loose({
      entries: byId(loose({ permissions: EntryPermissions.optional(), fullPermissions: SharedEntryPermissions.optional() })),
      workbooks: byId(loose({ permissions: WorkbookPermissions.optional() })),
      collections: byId(loose({ permissions: CollectionPermissions.optional() })),
    }),
  },
];

export const folderTeardown: Family = [
  {
    method: 'deleteFolder',
    request: 'DeleteFolderArgs',
    response: 'object',
    body: (made) => ({ folderId: made.folder }),
    answer: loose({}),
  },
];
