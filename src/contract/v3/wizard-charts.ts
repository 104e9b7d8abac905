// Version 3, Wizard charts: get/create/updateWizardChart take and answer the Wizard document format (the chart config
// becomes `sources` + `visualization`, answers wrap the entry in `entry`, update names the chart `chartId`).
//
// Source: datalens-tech/datalens-sdk spec/yacloud.json at 021501bb6ccd3165eaa128155d91f67e01525fe9 (the real v3 OpenAPI
// document); each schema below names its component. Deep parts the spec models as long unions (WizardFieldSchema, the
// visualization variants of WizardV1ConfigSchema) stay open objects here: unknown fields pass to the backend.
// How old configs map to the document and back: wizard-config.ts and docs/reference/wizard-v3.md.

import { z } from 'zod';
import { custom, object, omit, request } from '../../core/contract/builders.js';
import { GatewayError } from '../../core/errors.js';
import type { Change, CustomChange, Json, MethodSpec, ObjectLocation, Target } from '../../core/contract/types.js';
import { API_VERSION_FIELD } from '../datalens/objects.js';
import { answer, apiVersionStamp, branch, flag, id, method, nullableId, open, permissions, record, text, updateMode } from '../datalens/common.js';
import { wizardChartMethods } from '../datalens/charts.js';
import { configDown, configUp, isWizardDocument } from './wizard-config.js';

/** The version that introduced the Wizard document format (the backend answers LEGACY_CONFIG only below it). */
export const WIZARD_DOCUMENT_VERSION = 3;

/** EntryAnnotationArg. */
const annotationArg = open({ description: z.string() });

/** WizardFieldSchema (a union of dataset fields, pseudo-fields and Measure Values): `guid`/`datasetId` or `title`/`type`. */
const field = open({});
/** A visualization section (WizardV1ConfigSchema.visualization.*: `x`, `y`, `colors`, …): fields and their settings. */
const section = open({ items: z.array(field), settings: record.optional() });

/** WizardV1FiltersItemSchema. */
const filterItem = open({
  guid: z.string(),
  datasetId: z.string(),
  fakeTitle: text,
  filter: open({ operation: open({ code: z.string() }), value: z.union([z.string(), z.array(z.string())]).optional() }),
});

/** WizardV1ConfigSchema.sources. */
const sources = open({
  datasetsIds: z.array(z.string()),
  filters: z.array(filterItem).optional(),
  hierarchies: z.array(open({ guid: z.string(), title: z.string(), fields: z.array(open({ guid: z.string(), datasetId: z.string() })) })).optional(),
  links: z
    .array(open({ id: z.string(), fields: z.record(z.string(), open({ field: open({ guid: z.string(), title: z.string() }), dataset: open({ id: z.string(), realName: z.string() }) })) }))
    .optional(),
  updates: z
    .array(open({ action: z.enum(['add_field', 'add', 'update_field', 'update', 'delete', 'delete_field']), debug_info: text, field: open({ guid: z.string() }) }))
    .optional(),
});

/**
 * WizardV1ConfigSchema.visualization: a oneOf by `type` (line, area, column, bar, pie, scatter, tables, metric, maps,
 * `pivotTable`, `geolayer` with WizardV1GeolayerLayerSchema layers, `combined-chart` with WizardV1CombinedChartLayerSchema
 * layers); the sections every variant shares are named, the rest stay open.
 */
const visualization = open({
  type: z.string().min(1),
  chartSettings: record.optional(),
  colors: section.optional(),
  shapes: section.optional(),
  labels: section.optional(),
  sort: open({ items: z.array(field) }).optional(),
  layers: z.array(open({ type: z.string().optional(), layerSettings: open({ id: z.string(), name: z.string() }).optional() })).optional(),
  selectedLayerId: text,
});

/** WizardV1ConfigSchema: the chart's data sources and its visualization. */
export const wizardDocument = open({ sources, visualization });

/** WizardV1: the stored chart; `version` is the entry format (literal 1), the API version stamp is `apiVersion`. */
const wizardEntry = answer({
  entryId: z.string(),
  key: z.string().nullable(),
  scope: z.literal('widget'),
  type: z.enum(['graph_wizard_node', 'table_wizard_node', 'ymap_wizard_node', 'metric_wizard_node', 'markup_wizard_node', 'timeseries_wizard_node', 'd3_wizard_node']).optional(),
  revId: z.string(),
  savedId: z.string(),
  publishedId: z.string().nullable(),
  workbookId: z.string().nullable(),
  tenantId: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  hidden: z.boolean(),
  public: z.boolean(),
  meta: record.nullable(),
  links: z.record(z.string(), z.string()).nullable().optional(),
  annotation: answer({ description: z.string().optional() }).nullable().optional(),
  data: wizardDocument,
  version: z.literal(1),
  apiVersion: apiVersionStamp,
});

/** Where the v3 answers hold the chart: in `entry`, stamped in `apiVersion` (its `version` is the format version). */
const located: readonly ObjectLocation[] = [{ type: 'chart', path: 'entry', idField: 'entryId', versionField: API_VERSION_FIELD }];

export const wizardChartMethodsV3: Record<string, MethodSpec> = {
  getWizardChart: {
    // GetWizardChartV1Args (not closed, unlike version 2's) → GetWizardChartV1Result.
    ...method(
      'Returns a Wizard chart in the Wizard document format.',
      open({ chartId: id, workbookId: nullableId.optional(), revId: text, includePermissions: flag, includeLinks: flag, includeFavorite: flag, branch: branch.optional() }),
      answer({ entry: wizardEntry, isFavorite: flag, permissions: permissions.optional() }),
    ),
    objects: located,
  },
  createWizardChart: {
    // CreateWizardChartV1Args (with EntryLocationIdentifiers: `key`, or `workbookId` and `name`) → CreateWizardChartV1Result.
    ...method(
      'Creates a Wizard chart from a Wizard document, in a folder (`key`) or a workbook (`workbookId` and `name`).',
      open({ annotation: annotationArg.optional(), data: wizardDocument, key: text, workbookId: text, name: text }),
      answer({ entry: wizardEntry }),
    ),
    objects: located,
  },
  updateWizardChart: {
    // UpdateWizardV1Args → UpdateWizardV1Result.
    ...method(
      'Saves or publishes a new revision of a Wizard chart from a Wizard document.',
      open({ chartId: id, mode: updateMode, data: wizardDocument, annotation: annotationArg.optional(), revId: text }),
      answer({ entry: wizardEntry }),
    ),
    objects: located,
  },
  // DeleteWizardChartArgs: unchanged.
  deleteWizardChart: wizardChartMethods.deleteWizardChart as MethodSpec,
};

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An old config → the v3 document; 422 where the config has no visualization id (the document requires `visualization.type`). */
function documentOf(data: unknown): Json {
  const doc = configUp(isObj(data) ? data : {});
  if (typeof (doc.visualization as Json).type !== 'string') {
    throw new GatewayError('VERSION_TRANSLATION_FAILED', 'a Wizard chart needs `data.visualization.id` from version 3 on (its document requires `visualization.type`)', {
      field: 'data.visualization.id',
      reason: 'the version 3 Wizard document requires a visualization type',
    });
  }
  return doc;
}

/** A body with `data` replaced by its document; everything else passes unchanged (`template` is implied from v3 on). */
function withDocument(body: Json): Json {
  const out = omit(body, 'template', 'data');
  out.data = documentOf(body.data);
  return out;
}

/** updateWizardChart: `entryId` is named `chartId`, and `data` becomes the document. */
function updateUp(body: Json): Json {
  const out = omit(withDocument(body), 'entryId');
  out.chartId = body.entryId;
  return out;
}

/** A v3 answer (`{entry, isFavorite?, permissions?}`) → the flat v1/v2 entry, stamped in `version`, with its old config. */
function flatEntry(body: Json): Json {
  const entry = body.entry;
  if (!isObj(entry)) return body;
  const out = omit(entry, API_VERSION_FIELD);
  out.version = entry[API_VERSION_FIELD];
  if (isWizardDocument(entry.data)) out.data = configDown(entry.data);
  if (body.permissions !== undefined) out.permissions = body.permissions;
  return out;
}

/** A listing row carrying a Wizard chart's content (getEntries with includeData) → its old config. */
function rowDown(row: Json): Json {
  if (typeof row.type !== 'string' || !row.type.endsWith('_wizard_node') || !isWizardDocument(row.data)) return row;
  return { ...row, data: configDown(row.data) };
}

const all = (target: (m: string) => Target, methods: readonly string[], paths: readonly string[]) =>
  methods.flatMap((m) => paths.map((path) => ({ target: target(m), path })));
const response = (m: string): Target => ({ response: m });
const ENTRY_FIELDS = ['entryId', 'key', 'scope', 'type', 'revId', 'savedId', 'publishedId', 'workbookId', 'tenantId', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy', 'hidden', 'public', 'meta', 'links', 'annotation', 'data'];

export const wizardDocumentFormat: CustomChange = custom({
  description:
    'Wizard charts: get/create/updateWizardChart take and answer the Wizard document format. `data` becomes `{sources, visualization}` (datasets, filters, hierarchies, links and field updates under `sources`; placeholders, colors, shapes, labels, sort and extraSettings as visualization sections), answers wrap the chart in `entry` (stamped in `entry.apiVersion`), updateWizardChart names the chart `chartId`, and `template` is gone. Charts written by version 1 and 2 clients read back exactly as written.',
  compatible: false,
  covers: [
    ...all(request, ['createWizardChart', 'updateWizardChart'], ['template', 'data']),
    { target: request('updateWizardChart'), path: 'entryId' },
    { target: request('updateWizardChart'), path: 'chartId' },
    { target: request('updateWizardChart'), path: 'revId' },
    // GetWizardChartV1Args is not closed: unknown fields now reach the backend instead of a 400.
    { target: request('getWizardChart'), path: '' },
    // The flat v2 entry's fields move under `entry`.
    ...all(response, ['getWizardChart', 'createWizardChart', 'updateWizardChart'], ['entry', ...ENTRY_FIELDS]),
    ...all(response, ['getWizardChart'], ['isFavorite', 'permissions']),
    { target: object('entry'), path: 'data' },
  ],
  request: { createWizardChart: withDocument, updateWizardChart: updateUp },
  response: { getWizardChart: flatEntry, createWizardChart: flatEntry, updateWizardChart: flatEntry },
  object: { entry: rowDown },
});

export const wizardChartChangesV3: readonly Change[] = [wizardDocumentFormat];
