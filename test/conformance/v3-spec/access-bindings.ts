// Access bindings (tags Collection, Workbook, SharedEntry): listed and changed on the scenario's collection and
// workbook, listed on its connection. Components: ListCollectionAccessBindingsArgs, ListWorkbookAccessBindingsArgs,
// ListSharedEntryAccessBindingsArgs, ListIamAccessBindingsResult, UpdateCollectionAccessBindingsArgs,
// UpdateWorkbookAccessBindingsArgs, USAccessBindingDelta, DatalensOperation.

import { DatalensOperation, ListIamAccessBindingsResult } from './components.js';
import type { Family } from './types.js';

const delta = (action: 'ADD' | 'REMOVE', roleId: string, id: string, type: string) => ({ action, accessBinding: { roleId, subject: { id, type } } });

export const accessBindingSteps: Family = [
  {
    method: 'updateCollectionAccessBindings',
    request: 'UpdateCollectionAccessBindingsArgs',
    response: 'DatalensOperation',
    body: (made) => ({
      collectionId: made.collection,
      deltas: [delta('ADD', 'datalens.collections.viewer', 'alice@example.com', 'userAccount'), delta('ADD', 'datalens.collections.editor', 'analysts', 'group')],
    }),
    answer: DatalensOperation,
  },
  {
    method: 'listCollectionAccessBindings',
    request: 'ListCollectionAccessBindingsArgs',
    response: 'ListIamAccessBindingsResult',
    body: (made) => ({ collectionId: made.collection, getInheritedBindings: true, pageSize: 50 }),
    answer: ListIamAccessBindingsResult,
  },
  {
    method: 'updateWorkbookAccessBindings',
    request: 'UpdateWorkbookAccessBindingsArgs',
    response: 'DatalensOperation',
    body: (made) => ({
      workbookId: made.workbook,
      deltas: [delta('ADD', 'datalens.workbooks.editor', 'bob@example.com', 'userAccount'), delta('REMOVE', 'datalens.workbooks.viewer', 'ci-bot', 'serviceAccount')],
    }),
    answer: DatalensOperation,
  },
  {
    method: 'listWorkbookAccessBindings',
    request: 'ListWorkbookAccessBindingsArgs',
    response: 'ListIamAccessBindingsResult',
    body: (made) => ({ workbookId: made.workbook, getInheritedBindings: false, pageSize: 50 }),
    answer: ListIamAccessBindingsResult,
  },
  {
    method: 'listSharedEntryAccessBindings',
    request: 'ListSharedEntryAccessBindingsArgs',
    response: 'ListIamAccessBindingsResult',
    body: (made) => ({ entryId: made.connection, getInheritedBindings: true, pageSize: 50 }),
    answer: ListIamAccessBindingsResult,
  },
];
