// The workbook export and import methods of the DataLens public API v1.
//
// Sources: github.com/datalens-tech/datalens-ui (commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8),
//   src/shared/schema/meta-manager/schemas/{export,import,common}/*.ts (none strict) and the statuses in
//   src/shared/constants/meta-manager/index.ts.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, entryScope, id, method, nullableId, open, record, text } from './common.js';

const status = z.enum(['pending', 'success', 'error']);
const notification = answer({
  entryId: text,
  scope: entryScope.optional(),
  code: z.string(),
  message: text,
  level: z.enum(['info', 'warning', 'critical']),
  details: z.unknown().optional(),
});

export const exportImportMethods: Record<string, MethodSpec> = {
  startWorkbookExport: method('Starts exporting a workbook; returns the export id.', open({ workbookId: id }), answer({ exportId: z.string() })),
  getWorkbookExportStatus: method(
    'Returns the progress of a workbook export.',
    open({ exportId: id }),
    answer({ exportId: z.string(), status, progress: z.number(), notifications: z.array(notification).nullable().optional() }),
  ),
  getWorkbookExportResult: method(
    'Returns the exported data of a finished workbook export.',
    open({ exportId: id }),
    answer({ exportId: z.string(), data: answer({ export: record, hash: z.string() }), status }),
  ),
  cancelWorkbookExport: method('Cancels a running workbook export.', open({ exportId: id }), answer({ exportId: z.string() })),
  startWorkbookImport: method(
    'Starts importing exported data as a new workbook in a collection (null: the root); returns the import and workbook ids.',
    open({ data: record, title: z.string(), description: text, collectionId: nullableId }),
    answer({ importId: z.string(), workbookId: z.string() }),
  ),
  getWorkbookImportStatus: method(
    'Returns the progress of a workbook import.',
    open({ importId: id }),
    answer({ importId: z.string(), workbookId: z.string(), status, progress: z.number(), notifications: z.array(notification).nullable() }),
  ),
};
