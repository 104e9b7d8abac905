// Version 3, dashboards: the changes from the v1 dashboard format to DashboardV2, declared on the dashboard kind
// (each one migrates what a client sends up and what it reads down, wherever a dashboard appears).
//
// Source: github.com/yandex-cloud/docs ru/datalens/release-notes/api-changelog.md, "Версия 3" (08.09.2026): the removed
// fields, the selectors' fieldType, at least one tab, and the migrations real DataLens runs when a v3 client reads an
// object saved earlier (description, colours, widgetTabIds); and what the real v3 document (datalens-sdk
// spec/yacloud.json, DashTabItemV2, DashControlV2, DashControlElementV2, DashGroupControlItemV2) lets out that the
// real v1 document (datalens-ui f581b7c, /1/json/) requires. docs/reference/object-versions.md ("Dashboards at
// version 3") states each rule that is not one to one.

import { custom, fieldConverted, fieldRemoved, object, response } from '../../core/contract-model/builders.js';
import type { Change, Json, ValueConversion } from '../../core/contract-model/types.js';
import { DATASET_DATA_TYPES } from './dashboards.js';

const dashboard = object('dashboard');
const items = 'data.tabs.*.items.*';
const globalItems = 'data.tabs.*.globalItems.*';

/** What a v1/v2 client's scheme version reads (DASH_CURRENT_SCHEME_VERSION, datalens-ui src/shared/constants/dash.ts). */
export const DASH_SCHEME_VERSION = 8;

/** One colour ↔ the themed pair: the same colour for both themes; back, the light theme's (what v1/v2 rendered). */
export const themedColour: ValueConversion = {
  up: (colour, existing) => existing ?? { light: colour, dark: colour },
  down: (pair) => {
    if (typeof pair === 'string') return pair; // controls may hold one HEX string already
    const p = (pair ?? {}) as Json;
    return p.light ?? p.dark;
  },
};

/** `widgetTabId` ↔ `widgetTabIds`: a one-item list unless the list is already there; back, its first item. */
export const widgetTabIds: ValueConversion = {
  up: (tabId, existing) => existing ?? [tabId],
  down: (ids) => (Array.isArray(ids) ? ids[0] : undefined),
};

/** A dataset selector's fieldType keeps a dataset data type; any other value is left out. */
const datasetFieldType: ValueConversion = {
  up: (t) => ((DATASET_DATA_TYPES as readonly unknown[]).includes(t) ? t : undefined),
  down: (t) => t,
};

/** The format version in `entry.version`: 1 for the v1 format, 2 for DashboardV2 (dash-v1.ts; DashboardV2.version). */
const formatVersion: ValueConversion = { up: () => 2, down: () => 1 };

/** The fieldType rules for the selectors `at` reaches (`at(sourceType)` is the path of one kind of selector). */
const selectorFieldType = (where: string, at: (sourceType: string) => string): Change[] => [
  fieldConverted(dashboard, `${at('dataset')}.source.fieldType`, `${at('dataset')}.source.fieldType`, datasetFieldType,
    `Dashboards (${where}): a dataset selector's \`fieldType\` takes only dataset data types; another value is left out.`),
  fieldRemoved(dashboard, `${at('manual')}.source[elementType=select|input|checkbox].fieldType`,
    `Dashboards (${where}): a manual selector keeps \`fieldType\` only when it selects dates; older versions read "string".`,
    { downDefault: 'string' }),
];

/**
 * Going down, the description moved to `data.description` is also kept in `annotation.description`: the real
 * version-1 API answers a dashboard's annotation (the recorded answers of datalens-ui f581b7c), so a v1 client
 * reads it in both places.
 */
function keepAnnotation(entry: Json): Json {
  const data = entry.data as Json | undefined;
  const description = data?.description;
  if (typeof description !== 'string') return entry;
  const annotation = (entry.annotation ?? {}) as Json;
  return typeof annotation.description === 'string' ? entry : { ...entry, annotation: { ...annotation, description } };
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const objectsIn = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObj) : []);
/** Sets `key` to `value` where the object has no such key. */
const orDefault = (o: Json, key: string, value: unknown) => {
  if (!(key in o)) o[key] = value;
};

/** What the v1 format requires of a selector's source, where version 3 lets it out. */
function fillSource(sourceType: unknown, source: unknown): void {
  if (sourceType === 'external' || !isObj(source)) return;
  orDefault(source, 'showTitle', source.titlePlacement !== 'hide');
  if (source.elementType === 'select') orDefault(source, 'multiselectable', false);
  if (source.elementType === 'date') orDefault(source, 'isRange', false);
}

function fillItem(item: Json): void {
  const data = item.data;
  if (!isObj(data)) return;
  switch (item.type) {
    case 'title':
      if (typeof data.size !== 'string') data.size = OLDER_TITLE_SIZE;
      orDefault(data, 'showInTOC', false);
      return;
    case 'widget':
      for (const tab of objectsIn(data.tabs)) {
        orDefault(tab, 'description', '');
        orDefault(tab, 'isDefault', false);
      }
      return;
    case 'control':
      if (data.impactType === 'asGroup') delete data.impactType;
      fillSource(data.sourceType, data.source);
      return;
    case 'group_control':
      for (const member of objectsIn(data.group)) {
        orDefault(member, 'defaults', {});
        fillSource(member.sourceType, member.source);
      }
      return;
    default:
  }
}

/** Going down, the settings keys the v1 format requires and DashDataV2 lets out: `hideTabs` false where it is missing. */
export function olderSettings(entry: Json): Json {
  const settings = isObj(entry.data) ? entry.data.settings : undefined;
  if (isObj(settings)) orDefault(settings, 'hideTabs', false);
  return entry;
}

/** The named title size older versions read where version 3 holds a font size (`{fontSize, lineHeight}`). */
export const OLDER_TITLE_SIZE = 'm';

/**
 * Going down, the fields the v1 format requires (the real v1 document, datalens-ui f581b7c /1/json/) and version 3
 * lets out get the defaults docs/reference/object-versions.md lists; a single selector's impactType "asGroup" (a
 * v3 value) is left out.
 */
export function olderItemFields(entry: Json): Json {
  const data = entry.data;
  if (!isObj(data)) return entry;
  for (const tab of objectsIn(data.tabs)) for (const item of [...objectsIn(tab.items), ...objectsIn(tab.globalItems)]) fillItem(item);
  return entry;
}

/** The places version 3's item schemas describe more loosely than the v1 format (each under items and global items). */
const LOOSER = [
  'data.size', 'data.showInTOC', 'data.tabs.*.description', 'data.tabs.*.isDefault', 'data.impactType',
  'data.source.showTitle', 'data.source.multiselectable', 'data.source.isRange', 'data.source.text', 'data.source.autoHeight',
  'data.group.*.defaults', 'data.group.*.source.showTitle', 'data.group.*.source.multiselectable', 'data.group.*.source.isRange',
];

export const dashboardChangesV3: readonly Change[] = [
  custom({
    description:
      'Dashboards: the items\' data is described per kind (text, title, widget, image, insight, selector, selector group), with new optional look fields (`backgroundSettings`, `borderRadius`, `autoHeight`); tabs take `hidden` and `settings`; the dashboard\'s settings take `backgroundSettings`.',
    compatible: true,
    covers: [
      { target: dashboard, path: `${items}.data` },
      { target: dashboard, path: `${globalItems}.data` },
      { target: dashboard, path: 'data.tabs.*.hidden' },
      { target: dashboard, path: 'data.tabs.*.settings' },
      { target: dashboard, path: 'data.settings.backgroundSettings' },
    ],
  }),
  custom({
    description:
      'Dashboards: the settings take the new optional fields DashDataV2 names (`aiChatHistoryEnabled`, `enableAssistant`, `loadOnlyVisibleCharts`, `margins`, `signedGlobalParams`, `widgetsSettings`); the meta a client creates a dashboard with takes booleans too (DashMetaV2).',
    compatible: true,
    covers: [
      ...['aiChatHistoryEnabled', 'enableAssistant', 'loadOnlyVisibleCharts', 'margins', 'signedGlobalParams', 'widgetsSettings'].map((key) => ({
        target: dashboard,
        path: `data.settings.${key}`,
      })),
      { target: dashboard, path: 'meta.*' },
    ],
  }),
  custom({
    description:
      'Dashboards: as DashDataV2 describes the settings, `hideTabs` is optional (older versions read false where it is missing), `loadPriority` is one of "charts" and "selectors", and `assistantEnabled` is no longer described (the backend keeps it as sent).',
    compatible: false,
    covers: ['hideTabs', 'loadPriority', 'assistantEnabled'].map((key) => ({ target: dashboard, path: `data.settings.${key}` })),
    object: { dashboard: olderSettings },
    // The way back (the guard's round trip): nothing to undo; a missing hideTabs comes back false.
    objectUp: { dashboard: (entry) => entry },
  }),
  // Declared first, so that going down it runs last, on the v1 shape the other changes have made.
  custom({
    description:
      'Dashboards: version 3 lets items and selectors leave out what older versions require (a title\'s `showInTOC`, a widget tab\'s `description` and `isDefault`, a selector\'s `showTitle`, `multiselectable` and `isRange`, a grouped selector\'s `defaults`), takes a font size as a title\'s `size`, lets a single selector\'s `impactType` be "asGroup", and no longer describes an external selector\'s `source.text` and `source.autoHeight`; older versions read defaults in their place (a title\'s size "m", no impactType).',
    compatible: false,
    covers: LOOSER.flatMap((path) => [
      { target: dashboard, path: `${items}.${path}` },
      { target: dashboard, path: `${globalItems}.${path}` },
    ]),
    object: { dashboard: olderItemFields },
    // The way back (the guard's round trip): none needed for a field the object has (the fill keeps it); a field it
    // lacks comes back filled, a font size comes back "m" and "asGroup" does not come back, so those are refused.
    objectUp: { dashboard: (entry) => entry },
  }),
  // Declared before the move below, so that going down it runs after it (down-migrations run in reverse order).
  custom({
    description:
      'Dashboards: older versions read the description in `annotation.description` too, where real DataLens version 1 answers it (the entry\'s annotation).',
    compatible: true,
    covers: [{ target: dashboard, path: 'data.description' }],
    object: { dashboard: keepAnnotation },
    // The way back (the guard's round trip): nothing to undo here; the move below takes `data.description` back into
    // the annotation, where the copy already is (the annotation's own description wins).
    objectUp: { dashboard: (entry) => entry },
  }),
  fieldConverted(dashboard, 'data.description', 'annotation.description', { up: (d, existing) => existing ?? d, down: (d) => d },
    'Dashboards: `data.description` moves to `annotation.description` (a description already in the annotation wins).'),
  fieldRemoved(dashboard, 'data.schemeVersion', 'Dashboards: `data.schemeVersion` is removed; older versions read 8.', { downDefault: DASH_SCHEME_VERSION }),
  fieldConverted(dashboard, `${items}.data.background.color`, `${items}.data.backgroundSettings.color`, themedColour,
    'Dashboard items: `background` becomes `backgroundSettings.color`, a `{light, dark}` pair in HEX.'),
  fieldConverted(dashboard, `${globalItems}.data.background.color`, `${globalItems}.data.backgroundSettings.color`, themedColour,
    'Dashboard global items: `background` becomes `backgroundSettings.color`, a `{light, dark}` pair in HEX.'),
  fieldConverted(dashboard, 'data.tabs.*.items.*[type=title].data.textColor', 'data.tabs.*.items.*[type=title].data.textSettings.color', themedColour,
    'Dashboard titles: `textColor` becomes `textSettings.color`, a `{light, dark}` pair in HEX.'),
  fieldConverted(dashboard, 'data.tabs.*.items.*[type=neuro_widget].data.widgetTabId', 'data.tabs.*.items.*[type=neuro_widget].data.widgetTabIds', widgetTabIds,
    'Dashboard insight items: `widgetTabId` becomes `widgetTabIds`, a list (one item, unless the list is already there).'),
  ...selectorFieldType('selectors', (t) => `data.tabs.*.items.*[type=control].data[sourceType=${t}]`),
  ...selectorFieldType('selector groups', (t) => `data.tabs.*.items.*[type=group_control].data.group.*[sourceType=${t}]`),
  ...selectorFieldType('global selectors', (t) => `data.tabs.*.globalItems.*[type=control].data[sourceType=${t}]`),
  ...selectorFieldType('global selector groups', (t) => `data.tabs.*.globalItems.*[type=group_control].data.group.*[sourceType=${t}]`),
  ...['getDashboard', 'createDashboard', 'updateDashboard'].map((m) =>
    fieldConverted(response(m), 'entry.version', 'entry.version', formatVersion, `${m} answers the DashboardV2 format: \`entry.version\` is 2 (1 before).`),
  ),
];
