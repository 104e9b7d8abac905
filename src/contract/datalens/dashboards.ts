// The dashboard methods of the DataLens public API v1 (the v1 dashboard format).
//
// Sources: github.com/datalens-tech/datalens-ui (commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8),
//   src/shared/schema/mix/schemas/dash/{get-dashboard-v1,create-dashboard-v1,update-dashboard-v1,delete-dashboard,dash-v1}.ts,
//   the dashboard data in src/shared/zod-schemas/dash.ts (tabs and aliases strict, the rest not),
//   the key-or-workbook rule in src/shared/zod-schemas/entry.ts, DASH_CURRENT_SCHEME_VERSION in src/shared/constants/dash.ts.
// Tab items and global items are typed per kind as the real /1/json/ of the same commit has them.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { annotation, answer, apiVersionStamp, branch, empty, flag, id, method, open, permissions, record, storedEntry, strict, text, updateMode } from './common.js';

const DASH_SCHEME_VERSION = 8;

// The items per kind, as the real /1/json/ of datalens-ui f581b7c types them (types and required lists).

/** A parameter value: one string or several. */
const stringOrList = z.union([z.string(), z.array(z.string())]);
/** Default parameter values of a selector. */
const selectorDefaults = z.record(z.string(), stringOrList);
const IMPACT_TYPES = ['allTabs', 'currentTab', 'selectedTabs'] as const;
/** Which tabs a selector shows on (impactType) and, for selectedTabs, which ones. */
const impact = (types: readonly [string, ...string[]]) => ({ impactType: z.enum(types).optional(), impactTabsIds: z.array(z.string()).nullable().optional() });

/** A selector's element, by `elementType`, with the source's own fields (`extra`). */
const selectorSource = (extra: Record<string, z.ZodType>) => {
  // fieldType: the field's data type, which the web UI stores (datalens-ui dash.ts) though the document does not list it.
  const common = { required: flag, showHint: flag, showTitle: z.boolean(), fieldType: text, ...extra };
  return z.discriminatedUnion('elementType', [
    open({ ...common, elementType: z.literal('select'), defaultValue: stringOrList.optional(), multiselectable: z.boolean() }),
    open({ ...common, elementType: z.literal('date'), defaultValue: text, isRange: z.boolean() }),
    open({ ...common, elementType: z.literal('input'), defaultValue: text }),
    open({ ...common, elementType: z.literal('checkbox'), defaultValue: z.string() }),
  ]);
};
const datasetSource = selectorSource({ datasetId: z.string().min(1), datasetFieldId: z.string().min(1) });
/** A manual selector's values: a list of {value, title} or a {from, to} range. */
const acceptableValues = z.union([z.array(open({ value: z.string(), title: z.string() })), open({ from: z.string(), to: z.string() })]);
const manualSource = selectorSource({ fieldName: z.string().min(1), acceptableValues: acceptableValues.optional() });
const externalSource = open({ chartId: z.string().min(1), text, autoHeight: flag });

/** A selector's data, by `sourceType`. */
const selectorHead = { title: z.string().min(1), ...impact(IMPACT_TYPES) };
const controlData = z.discriminatedUnion('sourceType', [
  open({ ...selectorHead, sourceType: z.literal('dataset'), source: datasetSource }),
  open({ ...selectorHead, sourceType: z.literal('manual'), source: manualSource }),
  open({ ...selectorHead, sourceType: z.literal('external'), source: externalSource }),
]);
/** A selector inside a group: its own id, defaults, width and placement; it may show as the group does (asGroup). */
const groupMemberHead = {
  id: z.string().min(1),
  title: z.string().min(1),
  namespace: z.literal('default'),
  defaults: selectorDefaults,
  placementMode: z.enum(['auto', '%', 'px']).optional(),
  width: text,
  ...impact([...IMPACT_TYPES, 'asGroup']),
};
const groupMember = z.discriminatedUnion('sourceType', [
  open({ ...groupMemberHead, sourceType: z.literal('dataset'), source: datasetSource }),
  open({ ...groupMemberHead, sourceType: z.literal('manual'), source: manualSource }),
]);
const groupControlData = open({
  group: z.array(groupMember),
  autoHeight: z.boolean(),
  buttonApply: z.boolean(),
  buttonReset: z.boolean(),
  showGroupName: z.boolean(),
  updateControlsOnChange: flag,
});

const widgetTab = open({
  id: z.string().min(1),
  title: z.string().min(1),
  description: z.string(),
  chartId: z.string().min(1),
  isDefault: z.boolean(),
  params: record,
  autoHeight: flag,
});

/** A tab item (dash.ts tabItemSchema): its id, namespace, kind (DashTabItemType, src/shared/types/dash.ts) and data. */
const itemBase = { id: z.string().min(1), namespace: z.literal('default'), defaults: record.optional(), orderId: z.number().optional(), defaultOrderId: z.number().optional() };
const itemOf = (type: string, data: z.ZodType, extra: Record<string, z.ZodType> = {}) => open({ ...itemBase, type: z.literal(type), data, ...extra });
const controlItem = itemOf('control', controlData, { defaults: selectorDefaults });
const groupControlItem = itemOf('group_control', groupControlData);
const tabItem = z.discriminatedUnion('type', [
  itemOf('text', open({ text: z.string() })),
  itemOf('title', open({ text: z.string(), size: z.enum(['xl', 'l', 'm', 's', 'xs']), showInTOC: z.boolean() })),
  itemOf('widget', open({ hideTitle: z.boolean(), tabs: z.array(widgetTab) })),
  // The image and insight items are not in the real v1 document: their data stays open.
  itemOf('image', record),
  itemOf('neuro_widget', record),
  controlItem,
  groupControlItem,
]);
/** Global items (shown on several tabs) are selectors and selector groups (DashGlobalItemV2). */
const globalItem = z.discriminatedUnion('type', [controlItem, groupControlItem]);

/** A tab item's place on the grid (the real /1/json/ of datalens-ui f581b7c: i, h, w, x, y required, parent optional). */
export const layoutItem = open({ i: z.string().min(1), h: z.number(), w: z.number(), x: z.number(), y: z.number(), parent: text });
/** A pair of items whose selectors do not act on each other (the same document: kind is only "ignore"). */
export const itemConnection = open({ from: z.string().min(1), to: z.string().min(1), kind: z.enum(['ignore']) });

const tab = strict({
  id: z.string().min(1),
  title: z.string().min(1),
  items: z.array(tabItem),
  layout: z.array(layoutItem),
  connections: z.array(itemConnection),
  aliases: strict({ default: z.array(z.array(z.string().min(1)).min(2).max(2)).optional() }),
  globalItems: z.array(globalItem).optional(),
});

/** Dashboard settings (dash.ts settingsSchema); version 3 adds `backgroundSettings`. */
export const dashSettingsV1 = open({
  autoupdateInterval: z.number().min(30).nullable(),
  maxConcurrentRequests: z.number().min(1).nullable(),
  loadPriority: text,
  silentLoading: z.boolean(),
  dependentSelectors: z.boolean(),
  globalParams: record.optional(),
  hideTabs: z.boolean(),
  hideDashTitle: flag,
  expandTOC: z.boolean(),
  assistantEnabled: flag,
});

const dashData = {
  counter: z.number().int().min(1),
  salt: z.string().min(1),
  tabs: z.array(tab),
  settings: dashSettingsV1,
  supportDescription: text,
  accessDescription: text,
  // The dashboard's description, which version 3 moves to `annotation.description` (the API changelog, version 3).
  description: text,
};

/** A dashboard's meta: string or boolean values. */
const dashMeta = z.record(z.string(), z.union([z.string(), z.boolean()])).nullable();

const dashboard = storedEntry.extend({
  scope: z.literal('dash'),
  type: z.literal(''),
  // dash-v1.ts: `version: z.literal(DASH_VERSION_1)`, the format version; the API version stamp is apiVersion.
  version: z.literal(1),
  apiVersion: apiVersionStamp,
  data: open({ ...dashData, schemeVersion: z.number() }),
  meta: dashMeta,
});
const dashboardAnswer = answer({ entry: dashboard });

export const dashboardMethods: Record<string, MethodSpec> = {
  // get-dashboard-v1.ts: not strict.
  getDashboard: method(
    'Returns a dashboard in DataLens\'s first dashboard format (`entry.version` 1; not the API version).',
    open({
      dashboardId: id,
      revId: text,
      includePermissions: flag,
      includeLinks: flag,
      includeFavorite: flag,
      branch: branch.optional(),
      workbookId: text,
    }),
    answer({ entry: dashboard, isFavorite: flag, permissions: permissions.optional() }),
  ),
  // create-dashboard-v1.ts: not strict; the backend also requires either `key` alone or `workbookId` with `name`.
  createDashboard: method(
    'Creates a dashboard, in a folder (`entry.key`) or a workbook (`entry.workbookId` and `entry.name`).',
    open({
      entry: open({
        data: open(dashData),
        meta: z.record(z.string(), z.string()).nullable(),
        annotation: annotation.optional(),
        key: text,
        workbookId: text,
        name: text,
      }),
    }),
    dashboardAnswer,
  ),
  // update-dashboard-v1.ts: strict, and so is its entry.
  updateDashboard: method(
    'Saves or publishes a new revision of a dashboard.',
    strict({
      entry: strict({
        entryId: id,
        data: open({ ...dashData, schemeVersion: z.literal(DASH_SCHEME_VERSION) }),
        meta: dashMeta,
        revId: text,
        annotation: annotation.optional(),
      }),
      mode: updateMode,
    }),
    dashboardAnswer,
  ),
  // delete-dashboard.ts: strict.
  deleteDashboard: method('Deletes a dashboard.', strict({ dashboardId: id, lockToken: text }), empty),
};
