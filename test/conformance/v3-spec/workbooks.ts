// The workbook methods (tag Workbook): two workbooks in the scenario's collection, read, listed, updated, moved.
// Components: CreateWorkbookArgs/Result, GetWorkbookArgs/Result, GetWorkbooksByIdsArgs, GetWorkbooksListArgs/Result,
// GetWorkbookEntriesArgs/Result, UpdateWorkbookArgs, MoveWorkbookArgs, MoveWorkbooksArgs, DeleteWorkbookArgs,
// DeleteWorkbooksArgs, Workbook, WorkbookPermissions, GetWorkbookEntriesEntry, DatalensOperation.

import { z } from 'zod';
import { DatalensOperation, GetWorkbookEntriesEntry, Workbook, WorkbookPermissions, loose } from './components.js';
import type { Family } from './types.js';

export const workbookSteps: Family = [
  {
    method: 'createWorkbook',
    request: 'CreateWorkbookArgs',
    response: 'CreateWorkbookResult',
    body: (made) => ({ title: 'Conformance sales', description: 'Made by the v3 conformance scenario', collectionId: made.collection }),
    // CreateWorkbookResult: a Workbook with a required operation.
    answer: Workbook.extend({ operation: DatalensOperation }),
    keep: (a, made) => {
      made.workbook = a.workbookId;
    },
  },
  {
    method: 'createWorkbook',
    request: 'CreateWorkbookArgs',
    response: 'CreateWorkbookResult',
    body: () => ({ title: 'Conformance scratch', collectionId: null }),
    answer: Workbook.extend({ operation: DatalensOperation }),
    keep: (a, made) => {
      made.scratchWorkbook = a.workbookId;
    },
  },
  {
    method: 'getWorkbook',
    request: 'GetWorkbookArgs',
    response: 'GetWorkbookResult',
    body: (made) => ({ workbookId: made.workbook, includePermissionsInfo: true }),
    // GetWorkbookResult: a Workbook with required permissions.
    answer: Workbook.extend({ permissions: WorkbookPermissions }),
  },
  {
    method: 'getWorkbooksByIds',
    request: 'GetWorkbooksByIdsArgs',
    response: 'Workbook[]',
    body: (made) => ({ workbookIds: [made.workbook, made.scratchWorkbook] }),
    answer: z.array(Workbook).length(2),
  },
  {
    method: 'getWorkbooksList',
    request: 'GetWorkbooksListArgs',
    response: 'GetWorkbooksListResult',
    body: (made) => ({
      collectionId: made.collection,
      filterString: 'Conformance',
      orderField: 'createdAt',
      orderDirection: 'desc',
      onlyMy: false,
      page: 0,
      pageSize: 10,
      includePermissionsInfo: true,
    }),
    answer: loose({ workbooks: z.array(Workbook.extend({ permissions: WorkbookPermissions.optional() })), nextPageToken: z.string().optional() }),
  },
  {
    method: 'updateWorkbook',
    request: 'UpdateWorkbookArgs',
    response: 'Workbook',
    body: (made) => ({ workbookId: made.workbook, title: 'Conformance sales (renamed)', description: 'Updated by the scenario' }),
    answer: Workbook,
  },
  {
    method: 'moveWorkbook',
    request: 'MoveWorkbookArgs',
    response: 'Workbook',
    body: (made) => ({ workbookId: made.scratchWorkbook, collectionId: made.collection, title: 'Conformance scratch (moved)' }),
    answer: Workbook,
  },
  {
    method: 'moveWorkbooks',
    request: 'MoveWorkbooksArgs',
    response: '{workbooks: Workbook[]}',
    body: (made) => ({ workbookIds: [made.scratchWorkbook], collectionId: null }),
    answer: loose({ workbooks: z.array(Workbook) }),
  },
];

/** After the entries are made: the workbook's listing. */
export const workbookEntriesSteps: Family = [
  {
    method: 'getWorkbookEntries',
    request: 'GetWorkbookEntriesArgs',
    response: 'GetWorkbookEntriesResult',
    body: (made) => ({
      workbookId: made.workbook,
      scope: ['widget', 'dataset', 'connection'],
      filters: { name: 'Conformance' },
      orderBy: { field: 'name', direction: 'asc' },
      createdBy: 'api',
      page: 0,
      pageSize: 50,
      includePermissionsInfo: true,
    }),
    answer: loose({ entries: z.array(GetWorkbookEntriesEntry), nextPageToken: z.string().optional() }),
  },
];

export const workbookTeardown: Family = [
  {
    method: 'deleteWorkbook',
    request: 'DeleteWorkbookArgs',
    response: 'Workbook',
    body: (made) => ({ workbookId: made.scratchWorkbook }),
    answer: Workbook,
  },
  {
    method: 'deleteWorkbooks',
    request: 'DeleteWorkbooksArgs',
    response: '{workbooks: Workbook[]}',
    body: (made) => ({ workbookIds: [made.workbook, made.importedWorkbook] }),
    answer: loose({ workbooks: z.array(Workbook) }),
  },
];
