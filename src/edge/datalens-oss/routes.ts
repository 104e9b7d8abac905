// The route table of `upstream.kind: datalens-oss`: for each public method open-source DataLens can serve, the
// internal route of its UI server that serves it and what the gateway does around it. One row per method; data only.
//
// Source: datalens-tech/datalens-ui f581b7c, src/server/components/public-api/config/v1.ts (which gateway action each
// public version-1 method resolves to), src/server/modes/opensource/routes.ts (the charts engine's routes),
// src/shared/schema/us/actions/entries/index.ts and src/shared/schema/mix/actions/{editor,entries}.ts (the entry
// actions behind the rows above version 1); measured on a build of that commit (docs/operations.md, "In front of a
// self-hosted DataLens").

import type { DatalensOssService } from '../../config/schema.js';

/** The chart families whose scope and type the public controller checks: Wizard and QL. */
export type ChartFamily = 'wizard' | 'ql';

export type OssRoute =
  /** `POST /gateway/root/<service>/<action>` with the arguments as the body. */
  | { readonly via: 'action'; readonly service: 'us' | 'mix' | 'bi' | 'metaManager'; readonly action: string }
  /** `POST /api/charts/v1/charts`: the charts engine creates a Wizard or QL chart from the arguments. */
  | { readonly via: 'chart-create' }
  /** `POST /api/charts/v1/charts/<entryId>`, after `us.getEntry` showed the entry is a chart of `family` (else 404). */
  | { readonly via: 'chart-update'; readonly family: ChartFamily }
  /** `GET /api/charts/v1/charts/<chartId>`, its answer reshaped into the public one (chart-reads.ts). */
  | { readonly via: 'chart-read'; readonly family: ChartFamily }
  /** A method above version 1 served by United Storage's entry actions, its arguments and answer reshaped (entry-calls.ts). */
  | { readonly via: 'entry'; readonly op: EntryOp };

/** The entry operations of entry-calls.ts: folders and Editor charts. */
export type EntryOp = 'create-folder' | 'delete-folder' | 'read-editor' | 'create-editor' | 'update-editor' | 'delete-editor';

export interface OssRow {
  readonly route: OssRoute;
  /**
   * The public API version whose arguments and answer the row takes and gives: 1 unless set. A method added above
   * version 1 is served in its own version's shape; clients above that version are translated down to it.
   */
  readonly since?: number;
  /** A service the UI server calls for this method besides United Storage, when the deployment must run it. */
  readonly needs?: DatalensOssService;
}

const us = (action: string): OssRow => ({ route: { via: 'action', service: 'us', action } });
const mix = (action: string): OssRow => ({ route: { via: 'action', service: 'mix', action } });
const bi = (action: string): OssRow => ({ route: { via: 'action', service: 'bi', action }, needs: 'bi' });
const metaManager = (action: string): OssRow => ({ route: { via: 'action', service: 'metaManager', action }, needs: 'meta-manager' });

const entry = (op: EntryOp): OssRow => ({ route: { via: 'entry', op }, since: 2 });

/** Public method (its name at the row's version) → its row. A method not here has no route on open-source DataLens. */
export const OSS_ROUTES: Readonly<Record<string, OssRow>> = Object.freeze({
  createCollection: us('createCollection'),
  deleteCollection: us('deleteCollection'),
  deleteCollections: us('deleteCollections'),
  getCollection: us('getCollection'),
  getCollectionBreadcrumbs: us('getCollectionBreadcrumbs'),
  getCollectionContent: us('getStructureItems'),
  getCollectionsByIds: us('getCollectionsByIds'),
  getRootCollectionPermissions: us('getRootCollectionPermissions'),
  moveCollection: us('moveCollection'),
  moveCollections: us('moveCollections'),
  updateCollection: us('updateCollection'),

  createWorkbook: us('createWorkbook'),
  deleteWorkbook: us('deleteWorkbook'),
  deleteWorkbooks: us('deleteWorkbooks'),
  getWorkbook: us('getWorkbook'),
  getWorkbookEntries: us('getWorkbookEntries'),
  getWorkbooksByIds: us('getWorkbooksByIds'),
  getWorkbooksList: us('getWorkbooksList'),
  moveWorkbook: us('moveWorkbook'),
  moveWorkbooks: us('moveWorkbooks'),
  updateWorkbook: us('updateWorkbook'),

  getEntries: us('getEntries'),
  getEntriesRelations: us('getEntriesRelations'),

  createDashboard: mix('createDashboardV1'),
  deleteDashboard: mix('deleteDashboard'),
  getDashboard: mix('getDashboardV1'),
  updateDashboard: mix('updateDashboardV1'),

  createWizardChart: { route: { via: 'chart-create' } },
  deleteWizardChart: mix('deleteWizardChart'),
  getWizardChart: { route: { via: 'chart-read', family: 'wizard' } },
  updateWizardChart: { route: { via: 'chart-update', family: 'wizard' } },
  createQLChart: { route: { via: 'chart-create' } },
  deleteQLChart: mix('deleteQLChart'),
  getQLChart: { route: { via: 'chart-read', family: 'ql' } },
  updateQLChart: { route: { via: 'chart-update', family: 'ql' } },

  createConnection: bi('createConnection'),
  deleteConnection: bi('deleteConnection'),
  getConnection: bi('getConnection'),
  updateConnection: bi('updateConnection'),
  createDataset: bi('createDataset'),
  deleteDataset: bi('deleteDataset'),
  getDataset: bi('getDatasetByVersion'),
  updateDataset: bi('updateDataset'),
  validateDataset: bi('validateDataset'),

  // Added at version 2. United Storage has no route for listDirectory, moveFolderEntry, permissions, embeds or locks'
  // public shapes; HTML pages, licences, audit and access bindings do not exist in open-source DataLens.
  renameEntry: { ...us('renameEntry'), since: 2 },
  createFolder: entry('create-folder'),
  deleteFolder: entry('delete-folder'),
  getEditorChart: entry('read-editor'),
  createEditorChart: entry('create-editor'),
  updateEditorChart: entry('update-editor'),
  deleteEditorChart: entry('delete-editor'),

  cancelWorkbookExport: metaManager('cancelWorkbookExport'),
  getWorkbookExportResult: metaManager('getWorkbookExportResult'),
  getWorkbookExportStatus: metaManager('getWorkbookExportStatus'),
  getWorkbookImportStatus: metaManager('getWorkbookImportStatus'),
  startWorkbookExport: metaManager('startWorkbookExport'),
  startWorkbookImport: metaManager('startWorkbookImport'),
});

/** Entry types of each chart family (src/shared/constants/entry.ts `ENTRY_TYPES`, src/shared/types/widget.ts `WizardType`). */
export const CHART_TYPES: Readonly<Record<ChartFamily, ReadonlySet<string>>> = Object.freeze({
  wizard: new Set(['graph_wizard_node', 'table_wizard_node', 'ymap_wizard_node', 'metric_wizard_node', 'markup_wizard_node', 'timeseries_wizard_node', 'd3_wizard_node']),
  ql: new Set(['graph_ql_node', 'd3_ql_node', 'timeseries_ql_node', 'table_ql_node', 'ymap_ql_node', 'metric2_ql_node', 'markup_ql_node', 'graph_sql_node', 'table_sql_node', 'ymap_sql_node', 'metric2_sql_node']),
});

/** The methods served above version 1, each at the version whose shape its row takes (MethodPlan's servedAt). */
export const OSS_SERVED_ABOVE: ReadonlyMap<string, number> = new Map(
  Object.entries(OSS_ROUTES).flatMap(([name, row]) => (row.since !== undefined && row.since > 1 ? [[name, row.since] as const] : [])),
);

/** Editor chart types (src/shared/constants/entry.ts `EDITOR_TYPE`, which `ENTRY_TYPES.editor` lists). */
export const EDITOR_TYPES: ReadonlySet<string> = new Set([
  'module', 'graph_node', 'table_node', 'text_node', 'metric_node', 'map_node', 'ymap_node', 'control_node', 'markdown_node', 'markup_node',
  'timeseries_node', 'd3_node', 'advanced-chart_node', 'blank-chart_node',
]);

/**
 * Why this deployment cannot serve `method` (a version-1 name), or undefined when it can: no route at all, or the
 * route needs a service `services` does not list.
 */
export function unroutedReason(method: string, services: readonly DatalensOssService[]): string | undefined {
  const row = OSS_ROUTES[method];
  if (!row) return `open-source DataLens has no route that serves ${method}`;
  if (row.needs && !services.includes(row.needs)) {
    return `${method} needs the ${row.needs === 'bi' ? 'bi service (control-api)' : 'meta-manager service'}, which upstream.datalensOss.services does not list`;
  }
  return undefined;
}
