// Where each DataLens method's answer holds versioned objects (each carries the API version it was saved under), so the
// gateway refuses an older client's read of a newer object (409) and migrates older objects down.
// Listing rows (`listing`) are served whatever version their object was saved under; only rows carrying the
// object's content are refused. Why: docs/reference/object-versions.md.
// Answer shapes: see src/reference-backend/methods/views.ts (sources cited there).

import type { MethodSpec, ObjectLocation, RequestObjectLocation } from '../../core/contract-model/types.js';

const one = (type: string, idField: string, path = '', versionField?: string): readonly ObjectLocation[] => [
  { type, path, idField, ...(versionField !== undefined && { versionField }) },
];
const rows = (type: string, idField: string, path: string, content?: string): readonly ObjectLocation[] => [
  { type, path, idField, listing: content === undefined ? {} : { content } },
];

const collection = one('collection', 'collectionId');
const workbook = one('workbook', 'workbookId');
/**
 * Where an object's real answer already has a `version` meaning something else (dashboards' and Editor charts'
 * format version, literal 1), the stamp is `apiVersion` (docs/reference/object-versions.md).
 */
export const API_VERSION_FIELD = 'apiVersion';

const dashboard = one('dashboard', 'entryId', 'entry', API_VERSION_FIELD);
/** A listing's dashboard rows (`scope` "dash"): served as references, refused when they carry the dashboard's `data`. */
const dashboardRows: ObjectLocation = { type: 'dashboard', path: 'entries.*[scope=dash]', idField: 'entryId', listing: { content: 'data' } };
const chart = one('chart', 'entryId');
const dataset = one('dataset', 'id');
const connection = one('connection', 'id');

/**
 * Method → the object locations in its head-shaped answer. Methods without versioned objects are absent, and so are
 * methods added at the head version (Editor charts, HTML pages): no older client can call them, so there is
 * nothing to guard until a later version exists.
 */
export const DATALENS_OBJECTS: Readonly<Record<string, readonly ObjectLocation[]>> = {
  createCollection: collection,
  getCollection: collection,
  updateCollection: collection,
  moveCollection: collection,
  getCollectionsByIds: one('collection', 'collectionId', '*'),
  getCollectionBreadcrumbs: one('collection', 'collectionId', '*'),
  moveCollections: one('collection', 'collectionId', 'collections.*'),
  deleteCollection: one('collection', 'collectionId', 'collections.*'),
  deleteCollections: one('collection', 'collectionId', 'collections.*'),
  // Collections and workbooks, told apart by `entity`: one location type covers both kinds of row.
  getCollectionContent: rows('collectionItem', 'collectionId', 'items.*'),

  createWorkbook: workbook,
  getWorkbook: workbook,
  updateWorkbook: workbook,
  moveWorkbook: workbook,
  deleteWorkbook: workbook,
  getWorkbooksByIds: one('workbook', 'workbookId', '*'),
  moveWorkbooks: one('workbook', 'workbookId', 'workbooks.*'),
  deleteWorkbooks: one('workbook', 'workbookId', 'workbooks.*'),
  getWorkbooksList: rows('workbook', 'workbookId', 'workbooks.*'),
  getWorkbookEntries: [...rows('entry', 'entryId', 'entries.*'), dashboardRows],

  getEntriesRelations: rows('entry', 'entryId', 'relations.*'),

  getDashboard: dashboard,
  createDashboard: dashboard,
  updateDashboard: dashboard,

  getWizardChart: chart,
  createWizardChart: chart,
  updateWizardChart: chart,
  getQLChart: chart,
  createQLChart: chart,
  updateQLChart: chart,

  getDataset: dataset,
  createDataset: dataset,
  updateDataset: dataset,
  validateDataset: dataset,

  getConnection: connection,
};

/**
 * Method → where its request carries an object of a kind (migrated up by the kind's changes: one `object(kind)`
 * change covers what clients send and what they read).
 */
export const DATALENS_REQUEST_OBJECTS: Readonly<Record<string, readonly RequestObjectLocation[]>> = {
  createDashboard: [{ type: 'dashboard', path: 'entry' }],
  updateDashboard: [{ type: 'dashboard', path: 'entry' }],
};

/** getEntries rows: references, unless they carry the entry's content (includeData); dashboards' rows also as dashboards. */
export const ENTRIES_LIST_OBJECTS: readonly ObjectLocation[] = [...rows('entry', 'entryId', 'entries.*', 'data'), dashboardRows];

/** `methods` with their object locations attached (a method the tables do not name is returned as it was). */
export function withObjects(methods: Readonly<Record<string, MethodSpec>>): Record<string, MethodSpec> {
  return Object.fromEntries(
    Object.entries(methods).map(([name, spec]) => {
      const objects = Object.hasOwn(DATALENS_OBJECTS, name) ? DATALENS_OBJECTS[name] : undefined;
      const requestObjects = Object.hasOwn(DATALENS_REQUEST_OBJECTS, name) ? DATALENS_REQUEST_OBJECTS[name] : undefined;
      return [name, { ...spec, ...(objects && { objects }), ...(requestObjects && { requestObjects }) }];
    }),
  );
}
