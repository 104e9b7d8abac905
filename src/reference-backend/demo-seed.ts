// The demo data the CLI backend starts with: a few workbooks (one per legacy folder) and 30 entries.

import { ENTRY_SCOPES, type SeedEntry, type SeedWorkbook } from './store.js';

export const DEMO_WORKBOOKS: readonly SeedWorkbook[] = [
  { workbookId: 'wb_demo_marketing', title: 'Marketing', legacyFolderKey: 'reports/marketing/' },
  { workbookId: 'wb_demo_sales', title: 'Sales', legacyFolderKey: 'reports/sales/' },
  { workbookId: 'wb_demo_shared', title: 'Shared reports', legacyFolderKey: 'reports/' },
  { workbookId: 'wb_demo_sandbox', title: 'Sandbox' },
];

const TYPES: Record<(typeof ENTRY_SCOPES)[number], string> = {
  dash: 'dash',
  widget: 'graph_wizard_node',
  dataset: 'dataset',
  connection: 'clickhouse',
  report: 'report',
};
const AUTHORS = ['alice@example.com', 'bob@example.com', 'web-ui', 'api'] as const;
const FOLDERS = ['marketing', 'sales', 'shared', 'sandbox'] as const;

/** 30 entries with deterministic ids ent_demo_01..30; every fifth one was last saved under version 1. */
export const DEMO_ENTRIES: readonly SeedEntry[] = Array.from({ length: 30 }, (_, i): SeedEntry => {
  const n = String(i + 1).padStart(2, '0');
  const scope = ENTRY_SCOPES[i % ENTRY_SCOPES.length]!;
  const folder = FOLDERS[i % FOLDERS.length]!;
  return {
    entryId: `ent_demo_${n}`,
    key: `${folder}/${scope}-${n}`,
    scope,
    type: TYPES[scope],
    workbookId: `wb_demo_${folder}`,
    createdBy: AUTHORS[i % AUTHORS.length]!,
    version: (i + 1) % 5 === 0 ? 1 : undefined,
  };
});
