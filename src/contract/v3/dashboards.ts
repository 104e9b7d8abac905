// The dashboard methods of the DataLens public API v3: the "V2" dashboard contract (entry `DashboardV2`).
//
// Source: the real v3 OpenAPI document, github.com/datalens-tech/datalens-sdk spec/yacloud.json (commit
// 021501bb6ccd3165eaa128155d91f67e01525fe9), components CreateDashboardV2Args, DashboardV2, DashDataV2, DashTabV2,
// DashTabItemV2, DashTabControlItemV2, DashTabGroupControlItemV2, DashControlV2, DashGroupControlV2,
// DashGroupControlItemV2, DashControlElementV2, DashControlSourceDatasetV2, DashControlSourceManualV2,
// DashControlSourceExternalV2, DashStringDefaultValueV2, DashColorByThemeV2, DashLayoutItemV2, DashMetaV2; and the changelog, github.com/yandex-cloud/docs
// ru/datalens/release-notes/api-changelog.md, "Версия 3" (08.09.2026); UpdateDashboardV2Args and GetDashboardV2Args of
// the same document. Modelled field by field, checked against test/conformance/v3-request-schemas.json: the items per
// kind, the selectors' elements and sources, the settings (five required keys), with what v3 changes (item colours,
// the insight item's tabs, selectors' fieldType, at least one tab, no schemeVersion).

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { itemConnection, layoutItem } from '../datalens/dashboards.js';
import { annotation, answer, apiVersionStamp, branch, empty, flag, id, method, open, permissions, storedEntry, strict, text, updateMode } from '../datalens/common.js';

/** DashColorByThemeV2: a colour per theme, in HEX. */
const themedColor = open({ light: z.string().optional(), dark: z.string().optional() });
/** Item `backgroundSettings` (DashTabItemV2 members): the themed pair only. */
const itemBackground = open({ color: themedColor.optional() });
/** Selector, group and dashboard `backgroundSettings` (DashControlV2, DashGroupControlV2, DashDataV2.settings): the pair or one HEX string. */
const backgroundSettings = open({ color: z.union([themedColor, z.string()]).optional() });
/** A title's `textSettings` (DashTabItemV2, the title member). */
const textSettings = open({ color: themedColor.optional() });

/** The dataset data types a dataset selector's `fieldType` takes (DashControlSourceDatasetV2.fieldType). */
export const DATASET_DATA_TYPES = [
  'date', 'genericdatetime', 'datetimetz', 'integer', 'uinteger', 'string', 'float', 'boolean', 'geopoint', 'geopolygon',
  'markup', 'heatmap', 'array_int', 'array_float', 'array_str', 'unsupported', 'hierarchy', 'tree_str', 'tree_int', 'tree_float',
] as const;
const dataType = z.enum(DATASET_DATA_TYPES);

/** Every item's own fields (DashTabItemV2 members); only selectors take `defaults` (DashTabControlItemV2). */
const itemBase = {
  id: z.string().min(1),
  namespace: z.literal('default'),
  orderId: z.number().optional(),
  defaultOrderId: z.number().optional(),
};
/** The look of text, title, widget, image and insight items (DashTabItemV2 members). */
const look = { backgroundSettings: itemBackground.optional(), borderRadius: z.number().optional() };
/** The look of selectors and selector groups (DashControlV2, DashGroupControlV2). */
const controlLook = { backgroundSettings: backgroundSettings.optional(), borderRadius: z.number().optional() };

const textItem = open({ ...itemBase, type: z.literal('text'), data: open({ text: z.string(), autoHeight: flag, ...look }) });
const titleItem = open({
  ...itemBase,
  type: z.literal('title'),
  data: open({
    text: z.string(),
    size: z.union([z.enum(['xl', 'l', 'm', 's', 'xs']), open({ fontSize: z.number(), lineHeight: z.number().optional() })]),
    showInTOC: flag,
    autoHeight: flag,
    // Marked experimental in the v3 document.
    internalMarginsEnabled: flag,
    hint: open({ enabled: flag, text }).optional(),
    textSettings: textSettings.optional(),
    ...look,
  }),
});
const widgetTab = open({
  id: z.string().min(1),
  title: z.string().min(1),
  chartId: z.string().min(1),
  params: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  description: text,
  isDefault: flag,
  autoHeight: flag,
  enableActionParams: flag,
  enableDescription: flag,
  enableHint: flag,
  hint: text,
});
const widgetItem = open({ ...itemBase, type: z.literal('widget'), data: open({ hideTitle: z.boolean(), tabs: z.array(widgetTab), ...look }) });
const imageItem = open({ ...itemBase, type: z.literal('image'), data: open({ src: z.string(), alt: text, preserveAspectRatio: flag, ...look }) });
/**
 * The insight item. The spec snapshot requires `widgetTabId`; the changelog replaces it with `widgetTabIds` (a list):
 * either is taken, one of them required (the backend turns `widgetTabId` into the list).
 */
const insightItem = open({
  ...itemBase,
  type: z.literal('neuro_widget'),
  data: open({
    prompt: z.string().min(1),
    hideTitle: z.boolean(),
    widgetTabId: z.string().min(1).optional(),
    widgetTabIds: z.array(z.string().min(1)).min(1).optional(),
    title: text,
    hideActions: flag,
    ...look,
  }).refine((d) => d.widgetTabId !== undefined || d.widgetTabIds !== undefined, { message: 'widgetTabId or widgetTabIds is required', path: ['widgetTabIds'] }),
});

/** A parameter value: one string or several (DashStringDefaultValueV2). */
const stringOrList = z.union([z.string(), z.array(z.string())]);
const selectorDefaults = z.record(z.string(), stringOrList);
/** The filtering operations a selector applies (DashControlElementV2.operation). */
const OPERATIONS = [
  'IN', 'NIN', 'EQ', 'NE', 'GT', 'LT', 'GTE', 'LTE', 'ISNULL', 'ISNOTNULL', 'ISTARTSWITH', 'STARTSWITH', 'IENDSWITH', 'ENDSWITH',
  'ICONTAINS', 'CONTAINS', 'NOTICONTAINS', 'NOTCONTAINS', 'BETWEEN', 'LENEQ', 'LENGT', 'LENGTE', 'LENLT', 'LENLTE', 'NO_SELECTED_VALUES',
] as const;
/** What every element has (DashControlElementV2, each member). */
const elementCommon = {
  accentType: z.enum(['info']).nullable().optional(),
  hint: text,
  innerTitle: text,
  operation: z.enum(OPERATIONS).optional(),
  required: flag,
  showHint: flag,
  showInnerTitle: flag,
  showTitle: flag,
  titlePlacement: z.enum(['hide', 'left', 'top']).optional(),
};
/**
 * A selector's source (DashControlElementV2 with the source's own fields, `extra`), by `elementType`; a date element
 * takes `fieldType` (`dateExtra`), the dataset source takes it on every element.
 */
const controlElement = (extra: Record<string, z.ZodType>, dateExtra: Record<string, z.ZodType> = {}) => {
  const common = { ...elementCommon, ...extra };
  return z.discriminatedUnion('elementType', [
    open({ ...common, elementType: z.literal('select'), defaultValue: stringOrList.optional(), multiselectable: flag }),
    open({ ...common, elementType: z.literal('date'), defaultValue: text, isRange: flag, ...dateExtra }),
    open({ ...common, elementType: z.literal('input'), defaultValue: text }),
    open({ ...common, elementType: z.literal('checkbox'), defaultValue: z.string() }),
  ]);
};
/** DashControlSourceDatasetV2. */
const datasetSource = controlElement({
  datasetId: z.string().min(1),
  datasetFieldId: z.string().min(1),
  datasetFieldType: z.enum(['DIMENSION', 'MEASURE', 'PSEUDO', 'PARAMETER']).optional(),
  fieldType: dataType.optional(),
});
/** A manual selector's values: a list of {value, title} or a {from, to} range (DashControlSourceManualV2). */
const acceptableValues = z.union([z.array(open({ value: z.string(), title: z.string() })), open({ from: z.string(), to: z.string() })]);
/** DashControlSourceManualV2: `fieldType` only on a date element. */
const manualSource = controlElement({ fieldName: z.string().min(1), acceptableValues: acceptableValues.optional() }, { fieldType: dataType.optional() });
/** DashControlSourceExternalV2. */
const externalSource = open({ chartId: z.string().min(1) });
const impact = (types: readonly [string, ...string[]]) => ({ impactType: z.enum(types).optional(), impactTabsIds: z.array(z.string()).nullable().optional() });
const IMPACT_TYPES = ['allTabs', 'currentTab', 'selectedTabs'] as const;
const selectorBase = { title: z.string().min(1), autoHeight: flag, ...controlLook, ...impact([...IMPACT_TYPES, 'asGroup']) };
/** DashControlV2: by `sourceType`. */
const controlData = z.discriminatedUnion('sourceType', [
  open({ ...selectorBase, sourceType: z.literal('dataset'), source: datasetSource }),
  open({ ...selectorBase, sourceType: z.literal('manual'), source: manualSource }),
  open({ ...selectorBase, sourceType: z.literal('external'), source: externalSource }),
]);
/** DashTabControlItemV2. */
const controlItem = open({ ...itemBase, type: z.literal('control'), data: controlData, defaults: selectorDefaults });
/** DashGroupControlItemV2: a selector inside a group, by `sourceType`. */
const groupMember = {
  id: z.string().min(1),
  title: z.string().min(1),
  namespace: z.literal('default'),
  defaults: selectorDefaults.optional(),
  placementMode: z.enum(['auto', '%', 'px']).optional(),
  width: text,
  ...impact([...IMPACT_TYPES, 'asGroup']),
};
const groupControl = z.discriminatedUnion('sourceType', [
  open({ ...groupMember, sourceType: z.literal('dataset'), source: datasetSource }),
  open({ ...groupMember, sourceType: z.literal('manual'), source: manualSource }),
]);
/** DashTabGroupControlItemV2 with DashGroupControlV2. */
const groupControlItem = open({
  ...itemBase,
  type: z.literal('group_control'),
  data: open({
    group: z.array(groupControl),
    autoHeight: z.boolean(),
    buttonApply: z.boolean(),
    buttonReset: z.boolean(),
    showGroupName: z.boolean(),
    groupName: text,
    updateControlsOnChange: flag,
    ...impact(IMPACT_TYPES),
    ...controlLook,
  }),
});

/** DashTabItemV2, told apart by `type`. */
const tabItem = z.discriminatedUnion('type', [textItem, titleItem, widgetItem, imageItem, insightItem, controlItem, groupControlItem]);
/** DashGlobalItemV2: selectors and selector groups. */
const globalItem = z.discriminatedUnion('type', [controlItem, groupControlItem]);

/** DashTabV2 (additionalProperties false). */
const tab = strict({
  id: z.string().min(1),
  title: z.string().min(1),
  items: z.array(tabItem),
  // The same grid places and connections as version 1's (src/contract/datalens/dashboards.ts).
  layout: z.array(layoutItem),
  connections: z.array(itemConnection),
  aliases: strict({ default: z.array(z.array(z.string().min(1)).min(2)).optional() }),
  globalItems: z.array(globalItem).optional(),
  hidden: flag,
  settings: open({ fixedHeaderCollapsedDefault: flag, isGoldenset: flag }).optional(),
});

/** One parameter value or several, by name (DashDataV2.settings globalParams and signedGlobalParams). */
const paramValues = z.record(z.string(), stringOrList);
/** DashDataV2.settings: five required keys, the rest optional; open. */
const settings = open({
  autoupdateInterval: z.number().min(30).nullable(),
  maxConcurrentRequests: z.number().min(1).nullable(),
  silentLoading: z.boolean(),
  dependentSelectors: z.boolean(),
  expandTOC: z.boolean(),
  aiChatHistoryEnabled: flag,
  backgroundSettings: backgroundSettings.optional(),
  enableAssistant: flag,
  globalParams: paramValues.optional(),
  hideDashTitle: flag,
  hideTabs: flag,
  loadOnlyVisibleCharts: flag,
  loadPriority: z.enum(['charts', 'selectors']).optional(),
  margins: z.tuple([z.number(), z.number()]).optional(),
  signedGlobalParams: paramValues.optional(),
  widgetsSettings: open({ backgroundSettings: backgroundSettings.optional(), borderRadius: z.number().optional() }).optional(),
});

/** DashDataV2: no `schemeVersion`, no `description` (annotation.description), at least one tab (changelog). */
const dashData = open({
  counter: z.number().int().min(1),
  salt: z.string().min(1),
  tabs: z.array(tab).min(1),
  settings,
  supportDescription: text,
  accessDescription: text,
});

/** DashMetaV2. */
const dashMeta = z.record(z.string(), z.union([z.string(), z.boolean()])).nullable();

/** DashboardV2: `version` is the format version, 2 here (the API version stamp is `apiVersion`). */
const dashboard = storedEntry.extend({
  scope: z.literal('dash'),
  type: z.literal(''),
  version: z.literal(2),
  apiVersion: apiVersionStamp,
  data: dashData,
  meta: dashMeta,
});
const dashboardAnswer = answer({ entry: dashboard });

const where = { objects: [{ type: 'dashboard', path: 'entry', idField: 'entryId', versionField: 'apiVersion' }] } as const;
const carries = { requestObjects: [{ type: 'dashboard', path: 'entry' }] } as const;

export const dashboardMethodsV3: Record<string, MethodSpec> = {
  // GetDashboardV2Args / GetDashboardV2Result.
  getDashboard: {
    ...method(
      'Returns a dashboard (DashboardV2).',
      open({ dashboardId: id, revId: text, includePermissions: flag, includeLinks: flag, includeFavorite: flag, branch: branch.optional(), workbookId: text }),
      answer({ entry: dashboard, isFavorite: flag, permissions: permissions.optional() }),
    ),
    ...where,
  },
  // CreateDashboardV2Args: entry = {data, meta, annotation?} and EntryLocationIdentifiers; not strict.
  createDashboard: {
    ...method(
      'Creates a dashboard (DashboardV2), in a folder (`entry.key`) or a workbook (`entry.workbookId` and `entry.name`).',
      open({ entry: open({ data: dashData, meta: dashMeta, annotation: annotation.optional(), key: text, workbookId: text, name: text }) }),
      dashboardAnswer,
    ),
    ...where,
    ...carries,
  },
  // UpdateDashboardV2Args: as v1's update (strict), with the v3 data.
  updateDashboard: {
    ...method(
      'Saves or publishes a new revision of a dashboard (DashboardV2).',
      strict({ entry: strict({ entryId: id, data: dashData, meta: dashMeta, revId: text, annotation: annotation.optional() }), mode: updateMode, lockToken: text }),
      dashboardAnswer,
    ),
    ...where,
    ...carries,
  },
  // DeleteDashboardArgs: unchanged.
  deleteDashboard: method('Deletes a dashboard.', strict({ dashboardId: id, lockToken: text }), empty),
};
