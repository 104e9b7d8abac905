// The DataLens public API v1 method catalogue: version 1 of the gateway's shipped contract.
//
// Method names: github.com/datalens-tech/datalens-ui, src/server/components/public-api/config/v1.ts
// (`getPublicApiActionsV1`, as of commit 4292c0af707e827aa58c597affa7e819723d01a0, the newest stored copy).
// Argument top-level shapes: the action schemas that file resolves to, in the same repository:
//   src/shared/schema/us/actions/{collections,workbooks,entries}/*.ts and src/shared/schema/us/schemas/**,
//   src/shared/schema/bi/schemas/{connections,datasets}.ts,
//   src/shared/schema/mix/schemas/dash/*-v1.ts and src/shared/schema/mix/actions/{ql,wizard}/*.ts,
//   src/shared/schema/meta-manager/schemas/{export,import}/*.ts.
// The schemas below are ours and deliberately shallow: only top-level keys are typed, nested payloads stay open,
// unknown keys pass, and only the identifiers the backend needs are required, so the gateway never rejects a body
// the backend would accept. Where the upstream shape moved over time (e.g. updateDataset: `data` wrapper vs flat
// `dataset`/`multisource`), both spellings are allowed.
//
// Left out on purpose: getEntries (navigation) and the report methods, which the contract author defines
// separately because they are translated between versions.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract/types.js';

// ── Building blocks ──────────────────────────────────────────────────────────

type Shape = Parameters<typeof z.looseObject>[0];

/** A required identifier. */
const id = z.string().min(1);
/** An identifier that may be absent or null ("the root collection", "not in a workbook"). */
const maybeId = z.string().nullish();
/** A list of identifiers. */
const ids = z.array(id);
const text = z.string().optional();
const flag = z.boolean().optional();
const count = z.number().optional();
/** Page numbers and page tokens: upstream used both over time. */
const page = z.union([z.number(), z.string()]).nullish();
/** A nested object, left open. */
const record = z.record(z.string(), z.unknown());
const optRecord = record.optional();
const list = z.array(z.unknown());

/** Any JSON object. */
const open = z.looseObject({});
/** A response with a few known top-level fields, every one optional, unknown keys kept. */
const reply = (shape: Shape) => z.looseObject(shape).partial();
/** A response that is a bare array of objects. */
const arrayOfObjects = z.array(open);

/** One method: a one-sentence description, the top-level request keys, and the (shallow) response. */
const shallow = (description: string, request: Shape, response: z.ZodType = open): MethodSpec => ({
  description,
  request: z.looseObject(request),
  response,
});

// ── Shared response shapes ───────────────────────────────────────────────────

const collection = reply({
  collectionId: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  parentId: z.string().nullable(),
  meta: z.unknown(),
  permissions: z.unknown(),
  operation: z.unknown(),
});
const collections = reply({ collections: list });

const workbook = reply({
  workbookId: z.string(),
  collectionId: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  meta: z.unknown(),
  permissions: z.unknown(),
  operation: z.unknown(),
});
const workbooks = reply({ workbooks: list });

/** A United Storage entry as the chart methods return it. */
const entry = reply({
  entryId: z.string(),
  key: z.string().nullable(),
  scope: z.string(),
  type: z.string(),
  revId: z.string(),
  savedId: z.string().nullable(),
  publishedId: z.string().nullable(),
  workbookId: z.string().nullable(),
  data: z.unknown(),
  meta: z.unknown(),
});

/** The dashboard methods wrap the entry: `{ entry, … }`. */
const dashboard = reply({ entry: z.unknown(), isFavorite: z.boolean(), permissions: z.unknown() });

const dataset = reply({ id: z.string(), dataset: z.unknown(), options: z.unknown() });

const processStatus = {
  status: z.string(),
  progress: z.number(),
  notifications: z.array(z.unknown()).nullable(),
};

// ── Request shapes shared by several methods ─────────────────────────────────

/** getQLChart / getWizardChart. */
const getChartArgs: Shape = {
  chartId: id,
  workbookId: maybeId,
  revId: text,
  includePermissions: flag,
  includeLinks: flag,
  includeFavorite: flag,
  branch: text, // 'saved' | 'published'
};

/** createQLChart / createWizardChart: `key`, or `workbookId` plus `name`. */
const createChartArgs: Shape = {
  template: text, // 'ql' | 'datalens'
  key: text,
  workbookId: maybeId,
  name: text,
  type: text,
  data: record,
  meta: optRecord,
  mode: text, // 'save' | 'publish'
  annotation: optRecord,
};

/** updateQLChart / updateWizardChart. */
const updateChartArgs: Shape = {
  entryId: id,
  revId: text,
  template: text,
  data: record,
  meta: optRecord,
  mode: text,
  annotation: optRecord,
};

// ── The catalogue ────────────────────────────────────────────────────────────

/** DataLens public API v1 methods, shallow: top-level argument keys typed, everything nested left open. */
export const datalensV1Methods: Readonly<Record<string, MethodSpec>> = Object.freeze({
  // Collections
  createCollection: shallow(
    'Creates a collection, at the root when parentId is null.',
    { title: z.string(), description: text, parentId: maybeId },
    collection,
  ),
  deleteCollection: shallow('Deletes a collection with its contents.', { collectionId: id }, collections),
  deleteCollections: shallow('Deletes several collections at once.', { collectionIds: ids }, collections),
  getCollectionBreadcrumbs: shallow(
    'Returns the chain of parent collections of a collection.',
    { collectionId: id, includePermissionsInfo: flag },
    arrayOfObjects,
  ),
  getCollection: shallow('Returns one collection.', { collectionId: id, includePermissionsInfo: flag }, collection),
  getCollectionsByIds: shallow('Returns the collections with the given ids.', { collectionIds: ids }, arrayOfObjects),
  getCollectionContent: shallow(
    'Lists the collections, workbooks and shared entries inside a collection, one page at a time.',
    {
      collectionId: maybeId,
      includePermissionsInfo: flag,
      filterString: text,
      page,
      pageSize: count,
      orderField: text,
      orderDirection: text,
      onlyMy: flag,
      mode: text,
    },
    reply({ items: list, nextPageToken: z.string().nullable() }),
  ),
  getRootCollectionPermissions: shallow(
    'Returns what the caller may create at the root level.',
    {},
    reply({ createCollectionInRoot: z.boolean(), createWorkbookInRoot: z.boolean() }),
  ),
  moveCollection: shallow(
    'Moves a collection under another parent, optionally renaming it.',
    { collectionId: id, parentId: maybeId, title: text },
    collection,
  ),
  moveCollections: shallow(
    'Moves several collections under another parent.',
    { collectionIds: ids, parentId: maybeId },
    collections,
  ),
  updateCollection: shallow(
    "Changes a collection's title or description.",
    { collectionId: id, title: text, description: text },
    collection,
  ),

  // Connections
  getConnection: shallow(
    'Returns a connection.',
    { connectionId: id, workbookId: maybeId, rev_id: text },
    reply({ id: z.string(), type: z.string(), name: z.string() }),
  ),
  createConnection: shallow(
    'Creates a connection; the body is the connector-specific connection object.',
    { type: text, name: text, workbook_id: maybeId, dir_path: text },
    reply({ id: z.string() }),
  ),
  updateConnection: shallow('Replaces the settings of a connection.', { connectionId: id, data: optRecord }),
  deleteConnection: shallow('Deletes a connection.', { connectionId: id }),

  // Dashboards
  getDashboard: shallow(
    'Returns a dashboard in the v1 dashboard format.',
    {
      dashboardId: id,
      revId: text,
      includePermissions: flag,
      includeLinks: flag,
      includeFavorite: flag,
      branch: text,
      workbookId: maybeId,
    },
    dashboard,
  ),
  createDashboard: shallow('Creates a dashboard from an entry object.', { entry: record, mode: text }, dashboard),
  updateDashboard: shallow('Saves or publishes a new revision of a dashboard.', { entry: record, mode: text }, dashboard),
  deleteDashboard: shallow('Deletes a dashboard.', { dashboardId: id, lockToken: text }),

  // Datasets
  getDataset: shallow(
    'Returns a dataset (its draft version).',
    { datasetId: id, version: text, workbookId: maybeId, rev_id: text },
    dataset,
  ),
  createDataset: shallow(
    'Creates a dataset in a folder or a workbook.',
    {
      name: text,
      dataset: optRecord,
      multisource: flag,
      created_via: text,
      dir_path: text,
      workbook_id: maybeId,
    },
    dataset,
  ),
  updateDataset: shallow(
    'Replaces the draft of a dataset.',
    { datasetId: id, version: text, data: optRecord, dataset: optRecord, multisource: flag },
    dataset,
  ),
  deleteDataset: shallow('Deletes a dataset.', { datasetId: id }),
  validateDataset: shallow(
    'Validates a dataset with pending updates and returns the resulting dataset and errors.',
    {
      datasetId: id,
      version: text,
      workbookId: maybeId,
      data: optRecord,
      dataset: optRecord,
      updates: list.optional(),
    },
    reply({ dataset: z.unknown(), options: z.unknown(), dataset_errors: list }),
  ),

  // Entries
  getEntriesRelations: shallow(
    'Returns the entries linked to the given entries, in either direction.',
    {
      entryIds: ids,
      linkDirection: text, // 'from' | 'to'
      includePermissionsInfo: flag,
      limit: count,
      pageToken: text,
      scope: text,
    },
    reply({ relations: list, nextPageToken: z.string().nullable() }),
  ),

  // QL charts
  getQLChart: shallow('Returns a QL chart.', getChartArgs, entry),
  createQLChart: shallow('Creates a QL chart.', createChartArgs, entry),
  updateQLChart: shallow('Saves or publishes a new revision of a QL chart.', updateChartArgs, entry),
  deleteQLChart: shallow('Deletes a QL chart.', { chartId: id }),

  // Wizard charts
  getWizardChart: shallow('Returns a wizard chart.', getChartArgs, entry),
  createWizardChart: shallow('Creates a wizard chart.', createChartArgs, entry),
  updateWizardChart: shallow('Saves or publishes a new revision of a wizard chart.', updateChartArgs, entry),
  deleteWizardChart: shallow('Deletes a wizard chart.', { chartId: id }),

  // Workbooks
  createWorkbook: shallow(
    'Creates a workbook, at the root when collectionId is null.',
    { collectionId: maybeId, title: z.string(), description: text },
    workbook,
  ),
  deleteWorkbook: shallow('Deletes a workbook with its entries.', { workbookId: id }, workbook),
  deleteWorkbooks: shallow('Deletes several workbooks at once.', { workbookIds: ids }, workbooks),
  getWorkbook: shallow('Returns one workbook.', { workbookId: id, includePermissionsInfo: flag }, workbook),
  getWorkbooksList: shallow(
    'Lists the workbooks of a collection, one page at a time.',
    {
      collectionId: maybeId,
      includePermissionsInfo: flag,
      filterString: text,
      page,
      pageSize: count,
      orderField: text,
      orderDirection: text,
      onlyMy: flag,
    },
    reply({ workbooks: list, nextPageToken: z.string().nullable() }),
  ),
  getWorkbooksByIds: shallow('Returns the workbooks with the given ids.', { workbookIds: ids }, arrayOfObjects),
  moveWorkbook: shallow(
    'Moves a workbook to another collection, optionally renaming it.',
    { workbookId: id, collectionId: maybeId, title: text },
    workbook,
  ),
  moveWorkbooks: shallow(
    'Moves several workbooks to another collection.',
    { workbookIds: ids, collectionId: maybeId },
    workbooks,
  ),
  updateWorkbook: shallow(
    "Changes a workbook's title or description.",
    { workbookId: id, title: text, description: text },
    workbook,
  ),
  getWorkbookEntries: shallow(
    'Lists the entries of a workbook, one page at a time.',
    {
      workbookId: id,
      includePermissionsInfo: flag,
      page,
      pageSize: count,
      createdBy: text,
      onlyMy: flag,
      scope: z.union([z.string(), z.array(z.string())]).optional(),
      orderBy: optRecord,
      filters: optRecord,
    },
    reply({ entries: list, nextPageToken: z.string().nullable() }),
  ),

  // Workbook export
  startWorkbookExport: shallow(
    'Starts exporting a workbook to a file; returns the export id.',
    { workbookId: id },
    reply({ exportId: z.string() }),
  ),
  getWorkbookExportStatus: shallow(
    'Returns the progress of a workbook export.',
    { exportId: id },
    reply({ exportId: z.string(), ...processStatus }),
  ),
  getWorkbookExportResult: shallow(
    'Returns the exported workbook data of a finished export.',
    { exportId: id },
    reply({ exportId: z.string(), status: z.string(), data: z.unknown() }),
  ),
  cancelWorkbookExport: shallow('Cancels a running workbook export.', { exportId: id }, reply({ exportId: z.string() })),

  // Workbook import
  startWorkbookImport: shallow(
    'Starts importing exported workbook data as a new workbook; returns the import and workbook ids.',
    { data: record, title: z.string(), description: text, collectionId: maybeId },
    reply({ importId: z.string(), workbookId: z.string() }),
  ),
  getWorkbookImportStatus: shallow(
    'Returns the progress of a workbook import.',
    { importId: id },
    reply({ importId: z.string(), workbookId: z.string(), ...processStatus }),
  ),
});
