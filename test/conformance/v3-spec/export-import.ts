// Workbook export and import (tags WorkbookExport, WorkbookImport): the scenario's workbook exported (its status
// read until it finishes), imported as a new workbook, and a second export cancelled.
// Components: StartWorkbookExportArgs/Result, GetWorkbookExportStatusArgs/Result, GetWorkbookExportResultArgs/Result,
// CancelWorkbookExportArgs/Result, StartWorkbookImportArgs/Result, GetWorkbookImportStatusArgs/Result,
// WorkbookTransferProcessStatus, WorkbookTransferNotification.

import { z } from 'zod';
import { WorkbookTransferNotification, WorkbookTransferProcessStatus, loose, record, str } from './components.js';
import type { Family } from './types.js';

const exportStatus = loose({ exportId: str, status: WorkbookTransferProcessStatus, progress: z.number(), notifications: z.array(WorkbookTransferNotification).nullable().optional() });
const importStatus = loose({ importId: str, workbookId: str, status: WorkbookTransferProcessStatus, progress: z.number(), notifications: z.array(WorkbookTransferNotification).nullable() });


export const exportImportSteps: Family = [
  {
    method: 'startWorkbookExport',
    request: 'StartWorkbookExportArgs',
    response: 'StartWorkbookExportResult',
    body: (made) => ({ workbookId: made.workbook }),
    answer: loose({ exportId: str }),
    keep: (a, made) => {
      made.export = a.exportId;
    },
  },
  // Polled twice: an export reports its progress before it finishes.
  ...[1, 2].map(() => ({
    method: 'getWorkbookExportStatus',
    request: 'GetWorkbookExportStatusArgs',
    response: 'GetWorkbookExportStatusResult',
    body: (made: Record<string, string>) => ({ exportId: made.export }),
    answer: exportStatus,
  })),
  {
    method: 'getWorkbookExportResult',
    request: 'GetWorkbookExportResultArgs',
    response: 'GetWorkbookExportResultResult',
    body: (made) => ({ exportId: made.export }),
    answer: loose({ exportId: str, status: WorkbookTransferProcessStatus, data: loose({ export: record, hash: str }) }),
    keep: (a, made) => {
      made.exportData = JSON.stringify(a.data);
    },
  },
  {
    method: 'startWorkbookImport',
    request: 'StartWorkbookImportArgs',
    response: 'StartWorkbookImportResult',
    body: (made) => ({ data: JSON.parse(made.exportData ?? '{}'), title: 'Conformance sales (imported)', description: 'Imported by the scenario', collectionId: made.collection }),
    answer: loose({ importId: str, workbookId: str }),
    keep: (a, made) => {
      made.import = a.importId;
      made.importedWorkbook = a.workbookId;
    },
  },
  {
    method: 'getWorkbookImportStatus',
    request: 'GetWorkbookImportStatusArgs',
    response: 'GetWorkbookImportStatusResult',
    body: (made) => ({ importId: made.import }),
    answer: importStatus,
  },
  {
    method: 'startWorkbookExport',
    request: 'StartWorkbookExportArgs',
    response: 'StartWorkbookExportResult',
    body: (made) => ({ workbookId: made.workbook }),
    answer: loose({ exportId: str }),
    keep: (a, made) => {
      made.cancelledExport = a.exportId;
    },
  },
  {
    method: 'cancelWorkbookExport',
    request: 'CancelWorkbookExportArgs',
    response: 'CancelWorkbookExportResult',
    body: (made) => ({ exportId: made.cancelledExport }),
    answer: loose({ exportId: str }),
  },
];

