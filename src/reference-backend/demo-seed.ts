// The demo data the CLI backend starts with: two collections, a few workbooks (one per legacy folder), 30 entries
// (among them a dashboard that shows a Wizard chart built on a dataset over a connection, a QL and an Editor chart)
// and a report.

import { type Seed, type SeedCollection, type SeedEntry, type SeedReport, type SeedWorkbook, ENTRY_SCOPES } from './stores/index.js';

export const DEMO_COLLECTIONS: readonly SeedCollection[] = [
  { collectionId: 'col_demo_analytics', title: 'Analytics', description: 'Team analytics', workbookIds: ['wb_demo_sales'] },
  { collectionId: 'col_demo_campaigns', title: 'Campaigns', parentId: 'col_demo_analytics', workbookIds: ['wb_demo_marketing'] },
];

export const DEMO_WORKBOOKS: readonly SeedWorkbook[] = [
  { workbookId: 'wb_demo_marketing', title: 'Marketing', legacyFolderKey: 'reports/marketing/' },
  { workbookId: 'wb_demo_sales', title: 'Sales', legacyFolderKey: 'reports/sales/' },
  { workbookId: 'wb_demo_shared', title: 'Shared reports', legacyFolderKey: 'reports/' },
  { workbookId: 'wb_demo_sandbox', title: 'Sandbox' },
];

// Dashboards have the empty type (datalens-tech/datalens-ui src/shared/schema/mix/schemas/dash/dash-v1.ts).
const TYPES: Record<(typeof ENTRY_SCOPES)[number], string> = {
  dash: '',
  widget: 'graph_wizard_node',
  dataset: 'dataset',
  connection: 'clickhouse',
  report: 'report',
};
/** Two of the widgets are not Wizard charts: one QL chart and one Editor chart. */
const WIDGET_TYPES: Record<number, string> = { 6: 'graph_ql_node', 11: 'graph_node' };
const AUTHORS = ['alice@example.com', 'bob@example.com', 'web-ui', 'api'] as const;
const FOLDERS = ['marketing', 'sales', 'shared', 'sandbox'] as const;

/** The first dashboard, chart, dataset and connection refer to each other, so their relations can be walked. */
const CONTENT: Record<number, Record<string, unknown>> = {
  0: {
    counter: 2,
    salt: 'demo',
    schemeVersion: 8,
    tabs: [
      {
        id: 'tab1',
        title: 'Overview',
        items: [{ id: 'item1', type: 'widget', namespace: 'default', data: { hideTitle: false, tabs: [{ id: 'w1', title: 'Visits', chartId: 'ent_demo_02', isDefault: true, params: {} }] } }],
        layout: [{ i: 'item1', x: 0, y: 0, w: 12, h: 8 }],
        connections: [],
        aliases: {},
      },
    ],
    settings: { autoupdateInterval: null, maxConcurrentRequests: null, silentLoading: false, dependentSelectors: true, hideTabs: false, expandTOC: false },
  },
  1: { visualization: { id: 'line' }, datasetsIds: ['ent_demo_03'] },
  2: { dataset: { sources: [{ id: 'src1', connection_id: 'ent_demo_04', source_type: 'CH_TABLE' }], source_avatars: [], avatar_relations: [], result_schema: [], rls: {} }, options: {} },
};

/** 30 entries with deterministic ids ent_demo_01..30; every fifth one was last saved under version 1. */
export const DEMO_ENTRIES: readonly SeedEntry[] = Array.from({ length: 30 }, (_, i): SeedEntry => {
  const n = String(i + 1).padStart(2, '0');
  const scope = ENTRY_SCOPES[i % ENTRY_SCOPES.length]!;
  const folder = FOLDERS[i % FOLDERS.length]!;
  return {
    entryId: `ent_demo_${n}`,
    key: `${folder}/${scope}-${n}`,
    scope,
    type: WIDGET_TYPES[i] ?? TYPES[scope],
    workbookId: `wb_demo_${folder}`,
    createdBy: AUTHORS[i % AUTHORS.length]!,
    version: (i + 1) % 5 === 0 ? 1 : undefined,
    ...(CONTENT[i] && { data: CONTENT[i] }),
  };
});

/** One report, created by a version-1 script under its legacy key (so version 1 may read and change it). */
export const DEMO_REPORTS: readonly SeedReport[] = [
  { id: 'rep_demo_q1', workbookId: 'wb_demo_marketing', legacyKey: 'reports/marketing/q1', config: { rows: 10 }, version: 1 },
];

/** All of the demo data, as `npm start`, the tests' stack and the bench seed it. */
export const DEMO_SEED: Seed = { collections: DEMO_COLLECTIONS, workbooks: DEMO_WORKBOOKS, entries: DEMO_ENTRIES, reports: DEMO_REPORTS };
