// A real-shaped dashboard for the dashboard rows, built deterministically in the v1/v2 format (what a v2 client
// saves): many tabs, items of every kind (titles and texts with colours, widgets of several tabs, images, insight
// items with `widgetTabId`, dataset/manual/external selectors, selector groups), global selectors, a layout entry
// per item and connections between selectors and widgets. Shapes: src/contract/datalens/dashboards.ts (v1) and the
// v3 changes in src/contract/v3/dashboards-changes.ts; the demo seed's charts and datasets are referred to.

type Json = Record<string, unknown>;

/** The demo seed's Wizard charts (scope widget) and datasets, by id (demo-seed.ts: scopes cycle every 5 entries). */
const CHARTS = ['ent_demo_02', 'ent_demo_07', 'ent_demo_12', 'ent_demo_17', 'ent_demo_22', 'ent_demo_27'] as const;
const DATASETS = ['ent_demo_03', 'ent_demo_08', 'ent_demo_13', 'ent_demo_18', 'ent_demo_23', 'ent_demo_28'] as const;
const DATA_TYPES = ['string', 'integer', 'date', 'float', 'genericdatetime'] as const;

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;
/** A HEX colour from a number (deterministic). */
const colour = (n: number) => `#${((n * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6).toUpperCase()}`;
const words = (n: number, count: number) =>
  Array.from({ length: count }, (_, i) => pick(['revenue', 'orders', 'region', 'weekly', 'active', 'users', 'margin', 'forecast', 'channel', 'cohort'], n + i * 7)).join(' ');

/** One tab's items: 6 of each kind, in a fixed order; ids are unique across the dashboard. */
function tabItems(tab: number): Json[] {
  const items: Json[] = [];
  for (let k = 0; k < 6; k++) {
    const n = tab * 100 + k;
    const id = (kind: string) => `${kind}-${tab}-${k}`;
    items.push(
      { id: id('title'), namespace: 'default', type: 'title', data: { text: `Section ${n}: ${words(n, 3)}`, size: pick(['l', 'm', 's'], n), showInTOC: true, textColor: colour(n), background: { color: colour(n + 1) } } },
      { id: id('text'), namespace: 'default', type: 'text', data: { text: `**${words(n, 4)}**\n\n${words(n + 3, 40)}`, autoHeight: k % 2 === 0, background: { color: colour(n + 2) } } },
      {
        id: id('widget'),
        namespace: 'default',
        type: 'widget',
        data: {
          hideTitle: k % 3 === 0,
          background: { color: colour(n + 3) },
          tabs: Array.from({ length: 4 }, (_, t) => ({
            id: `${id('widget')}-t${t}`,
            title: `${words(n + t, 2)} (${t + 1})`,
            chartId: pick(CHARTS, n + t),
            isDefault: t === 0,
            params: { region: [pick(['EU', 'US', 'APAC'], n + t)], period: `P${(t + 1) * 7}D`, metric: words(n + t, 1) },
            autoHeight: t % 2 === 1,
            description: words(n + t, 12),
            enableActionParams: t === 0,
          })),
        },
      },
      { id: id('image'), namespace: 'default', type: 'image', data: { src: `https://storage.example.com/dash/${tab}/${k}.png`, alt: words(n, 3), preserveAspectRatio: true, background: { color: colour(n + 4) } } },
      {
        id: id('insight'),
        namespace: 'default',
        type: 'neuro_widget',
        data: { prompt: `Explain the change in ${words(n, 3)} over the last quarter`, hideTitle: false, widgetTabId: `${id('widget')}-t0`, title: words(n, 2), background: { color: colour(n + 5) } },
      },
      control(id('control'), n, k),
      groupControl(id('group'), n),
    );
  }
  return items;
}

/** A selector: by dataset, manual (select or date) or external, in turn. */
function control(id: string, n: number, k: number): Json {
  const look = { title: `Filter ${words(n, 2)}`, autoHeight: false, background: { color: colour(n + 6) } };
  const kind = k % 3;
  const data =
    kind === 0
      ? { ...look, id, sourceType: 'dataset', source: { datasetId: pick(DATASETS, n), datasetFieldId: `field-${n}`, fieldType: pick(DATA_TYPES, n), elementType: 'select', multiselectable: true, showTitle: true, defaultValue: ['EU'] } }
      : kind === 1
        ? { ...look, id, sourceType: 'manual', source: { fieldName: `manual_${n}`, elementType: 'select', multiselectable: false, fieldType: 'string', acceptableValues: Array.from({ length: 8 }, (_, i) => ({ value: `v${i}`, title: words(n + i, 2) })), showTitle: true } }
        : { ...look, id, sourceType: 'external', source: { chartId: pick(CHARTS, n) } };
  return { id, namespace: 'default', type: 'control', data, defaults: { [`field-${n}`]: ['EU'] } };
}

/** A selector group of three: dataset, manual select, manual date. */
function groupControl(id: string, n: number): Json {
  const member = (m: number, sourceType: string, source: Json) => ({ id: `${id}-m${m}`, title: `${words(n + m, 2)}`, namespace: 'default', sourceType, source, defaults: {}, placementMode: 'auto', width: '' });
  return {
    id,
    namespace: 'default',
    type: 'group_control',
    data: {
      group: [
        member(0, 'dataset', { datasetId: pick(DATASETS, n + 1), datasetFieldId: `gfield-${n}`, fieldType: pick(DATA_TYPES, n + 1), elementType: 'select', multiselectable: false, showTitle: true }),
        member(1, 'manual', { fieldName: `gmanual_${n}`, elementType: 'input', fieldType: 'string', showTitle: true }),
        member(2, 'manual', { fieldName: `gdate_${n}`, elementType: 'date', fieldType: 'date', isRange: true, showTitle: true }),
      ],
      autoHeight: true,
      buttonApply: true,
      buttonReset: n % 2 === 0,
      showGroupName: false,
      updateControlsOnChange: true,
      background: { color: colour(n + 7) },
    },
    defaults: {},
  };
}

/** One tab: its items, a grid layout entry per item, each selector connected to the tab's widgets, global selectors. */
function tab(t: number): Json {
  const items = tabItems(t);
  const widgets = items.filter((i) => i.type === 'widget').map((i) => i.id as string);
  const selectors = items.filter((i) => i.type === 'control' || i.type === 'group_control').map((i) => i.id as string);
  return {
    id: `tab-${t}`,
    title: `Tab ${t + 1}: ${words(t, 2)}`,
    items,
    layout: items.map((item, i) => ({ i: item.id, x: (i % 3) * 12, y: Math.floor(i / 3) * 6, w: 12, h: item.type === 'widget' ? 12 : 4 })),
    connections: selectors.flatMap((from, i) => widgets.filter((_, w) => (w + i) % 2 === 0).map((to) => ({ from, to, kind: 'ignore' }))),
    aliases: { default: [[`field-${t * 100}`, `gfield-${t * 100}`]] },
    globalItems: [control(`global-${t}`, t * 100 + 99, 0)],
  };
}

/** The dashboard's `data` in the v1/v2 format, with `tabs` tabs (18 make about 500 KiB of JSON). */
export function realShapedDashboardData(tabs = 18): Json {
  return {
    counter: 42,
    salt: 'bench-dashboard-salt',
    schemeVersion: 8,
    description: 'A dashboard of the shape real ones have: many tabs, every kind of item, colours, selectors and connections.',
    settings: {
      autoupdateInterval: null,
      maxConcurrentRequests: 4,
      silentLoading: false,
      dependentSelectors: true,
      hideTabs: false,
      expandTOC: false,
      globalParams: { region: ['EU'] },
    },
    supportDescription: 'Ask the analytics team.',
    accessDescription: 'Request access in the portal.',
    tabs: Array.from({ length: tabs }, (_, t) => tab(t)),
  };
}
