// The DataLens public API v1 catalogue (without getEntries and the report methods, which src/contract/v1 defines).
//
// Method list: github.com/datalens-tech/datalens-ui, src/server/components/public-api/config/v1.ts
// (getPublicApiActionsV1, commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8); each family file cites its schemas.

import type { MethodSpec } from '../../core/contract-model/types.js';
import { qlChartMethods, wizardChartMethods } from './charts.js';
import { collectionMethods } from './collections.js';
import { connectionMethods } from './connections.js';
import { dashboardMethods } from './dashboards.js';
import { datasetMethods } from './datasets.js';
import { entryMethods } from './entries.js';
import { exportImportMethods } from './export-import.js';
import { workbookMethods } from './workbooks.js';

export const datalensV1Methods: Readonly<Record<string, MethodSpec>> = Object.freeze({
  ...collectionMethods,
  ...connectionMethods,
  ...dashboardMethods,
  ...datasetMethods,
  ...entryMethods,
  ...qlChartMethods,
  ...wizardChartMethods,
  ...workbookMethods,
  ...exportImportMethods,
});
