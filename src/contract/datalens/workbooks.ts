// The workbook methods of the DataLens public API v1.
//
// Each method's source: github.com/datalens-tech/datalens-ui (commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8),
// src/shared/schema/us/actions/workbooks/<file> as named above it (or the schema file it imports); none is strict.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import {
  answer,
  flag,
  id,
  ids,
  method,
  nullableId,
  open,
  operation,
  orderDirection,
  orderField,
  permissions,
  record,
  text,
  workbook,
} from './common.js';

const workbooks = answer({ workbooks: z.array(workbook) });

/** An entry of a workbook (src/shared/schema/us/schemas/workbooks/get-workbook-entries.ts). */
const workbookEntry = answer({
  entryId: z.string(),
  scope: z.string(),
  type: z.string(),
  key: z.string().nullable(),
  displayKey: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedBy: z.string(),
  updatedAt: z.string(),
  savedId: z.string().nullable(),
  publishedId: z.string().nullable(),
  revId: z.string(),
  meta: record.nullable(),
  hidden: z.boolean().nullable(),
  workbookId: z.string().nullable(),
  collectionId: z.string().nullable(),
  tenantId: z.string().nullable(),
  isFavorite: z.boolean(),
  isLocked: z.boolean(),
  permissions: permissions.optional(),
  mirrored: z.boolean().nullable(),
});

export const workbookMethods: Record<string, MethodSpec> = {
  // create-workbook.ts
  createWorkbook: method(
    'Creates a workbook; collectionId null (or absent) creates it at the root.',
    open({ collectionId: nullableId.optional(), title: z.string(), description: text }),
    workbook.extend({ operation }),
  ),
  // delete-workbook.ts
  deleteWorkbook: method('Deletes a workbook with its entries.', open({ workbookId: id }), workbook),
  // delete-workbooks.ts
  deleteWorkbooks: method('Deletes several workbooks at once.', open({ workbookIds: ids }), workbooks),
  // get-workbook.ts
  getWorkbook: method('Returns one workbook.', open({ workbookId: id, includePermissionsInfo: flag }), workbook),
  // get-workbooks-list.ts: the arguments object itself is optional.
  getWorkbooksList: method(
    'Lists the workbooks of a collection (null or absent: the root), one page at a time.',
    open({
      collectionId: nullableId.optional(),
      includePermissionsInfo: flag,
      filterString: text,
      page: z.number().optional(),
      pageSize: z.number().optional(),
      orderField: orderField.optional(),
      orderDirection: orderDirection.optional(),
      onlyMy: flag,
    }),
    answer({ workbooks: z.array(workbook), nextPageToken: z.string().optional() }),
    { emptyBody: true },
  ),
  // get-workbooks-by-ids.ts (schema: src/shared/schema/us/schemas/workbooks/get-workbooks-by-ids.ts)
  getWorkbooksByIds: method(
    'Returns the workbooks with the given ids (1 to 1000).',
    open({ workbookIds: z.array(z.string()).min(1).max(1000) }),
    z.array(workbook),
  ),
  // move-workbook.ts
  moveWorkbook: method(
    'Moves a workbook to another collection (null: the root), optionally renaming it.',
    open({ workbookId: id, collectionId: nullableId, title: text }),
    workbook,
  ),
  // move-workbooks.ts
  moveWorkbooks: method(
    'Moves several workbooks to another collection (null: the root).',
    open({ workbookIds: ids, collectionId: nullableId }),
    workbooks,
  ),
  // update-workbook.ts
  updateWorkbook: method(
    "Changes a workbook's title or description.",
    open({ workbookId: id, title: text, description: text }),
    workbook,
  ),
  // get-workbook-entries.ts (schema: src/shared/schema/us/schemas/workbooks/get-workbook-entries.ts)
  getWorkbookEntries: method(
    'Lists the entries of a workbook, one numbered page at a time.',
    open({
      workbookId: id,
      includePermissionsInfo: flag,
      page: z.number().optional(),
      pageSize: z.number().optional(),
      createdBy: text,
      scope: z.union([z.string(), z.array(z.string())]).optional(),
      orderBy: open({ field: z.enum(['name', 'createdAt']), direction: orderDirection }).optional(),
      filters: open({ name: z.string() }).optional(),
    }),
    answer({ entries: z.array(workbookEntry), nextPageToken: z.string().optional() }),
  ),
};
