// Version 3, Wizard charts: the method specs of get/create/updateWizardChart, which take and answer the Wizard document
// format (the chart config becomes `sources` + `visualization`, answers wrap the entry in `entry`, update names the
// chart `chartId`); the change from version 2 is wizard-change.ts.
//
// Source: datalens-tech/datalens-sdk spec/yacloud.json at 021501bb6ccd3165eaa128155d91f67e01525fe9 (the real v3 OpenAPI
// document); each schema below names its component. Deep parts the spec models as long unions (WizardFieldSchema, the
// visualization variants of WizardV1ConfigSchema) stay open objects here: unknown fields pass to the backend.
// How old configs map to the document and back: wizard-config.ts and docs/reference/object-versions.md ("Wizard charts at version 3").

import { z } from 'zod';
import type { MethodSpec, ObjectLocation } from '../../core/contract-model/types.js';
import { API_VERSION_FIELD } from '../datalens/objects.js';
import { answer, apiVersionStamp, branch, flag, id, method, nullableId, open, permissions, record, storedEntry, text, updateMode } from '../datalens/common.js';
import { wizardChartMethods } from '../datalens/charts.js';

export { wizardChartChangesV3, wizardDocumentFormat } from './wizard-change.js';
export { WIZARD_DOCUMENT_VERSION } from './wizard-config.js';

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
const wizardEntry = storedEntry.extend({
  scope: z.literal('widget'),
  type: z.enum(['graph_wizard_node', 'table_wizard_node', 'ymap_wizard_node', 'metric_wizard_node', 'markup_wizard_node', 'timeseries_wizard_node', 'd3_wizard_node']).optional(),
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
