// Where the gateway's version-3 request schemas deliberately differ from the real ones: one list, each entry a
// difference line's start (`<method> <path>`) with its reason. Any other difference fails the comparison, and so does
// an entry that matches no difference any more (then it goes).

import { EXCLUDED } from '../v3-spec/index.js';

export interface KnownDifference {
  /** The start of a difference line as compare.ts prints it, after the method name and a space. */
  readonly prefix: string;
  readonly reason: string;
}

const REPORTS = ['createReport', 'getReport', 'updateReport', 'deleteReport'] as const;
const DASHBOARD_WRITES = ['createDashboard', 'updateDashboard'] as const;
const EDITOR_WRITES = ['createEditorChart', 'updateEditorChart'] as const;

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  // The report methods follow this product's own design (test/conformance/v3-spec/index.ts says why, one by one).
  ...REPORTS.map((m) => ({ prefix: `${m} `, reason: EXCLUDED[m]! })),
  ...DASHBOARD_WRITES.flatMap((m) => [
    {
      prefix: `${m} entry.data.tabs: minItems`,
      reason: 'a dashboard has at least one tab: the API changelog, version 3 (yandex-cloud/docs ru/datalens/release-notes/api-changelog.md, 08.09.2026); the spec snapshot does not say it',
    },
    {
      prefix: `${m} entry.data.tabs[].items[]<type=neuro_widget>.data.widgetTabId`,
      reason: 'an insight item takes the spec\'s `widgetTabId` or the changelog\'s `widgetTabIds` (version 3 replaces the one by the list), one of them required; the backend turns `widgetTabId` into the list',
    },
    {
      prefix: `${m} entry.data.tabs[].items[]<type=neuro_widget>.data.widgetTabIds`,
      reason: 'the list of tabs the API changelog, version 3, gives insight items in place of `widgetTabId` (either is taken)',
    },
    {
      prefix: `${m} entry.data.settings.margins`,
      reason: 'a pair of numbers, as the spec\'s two prefixItems name them; the spec leaves a shorter or longer list open, the gateway takes exactly the pair',
    },
  ]),
  ...EDITOR_WRITES.map((m) => ({
    prefix: `${m} entry<#6>: variant only in the gateway`,
    reason: 'the node types the public reference also lists (yandex-cloud/docs en/datalens/openapi-ref/updateEditorChart.md: graph_node, timeseries_node, metric_node, markup_node, ymap_node, module), beyond the spec\'s five; their tabs are strings, passed on',
  })),
  {
    prefix: 'createEditorChart mode: only in the gateway',
    reason: 'the public reference (yandex-cloud/docs en/datalens/openapi-ref/createEditorChart.md) documents `mode` on create; optional, passed on',
  },
  ...[
    ['createConnection', 'createConnection <type=postgres>'],
    // postgres2, the 20th variant of ConnectionUpdate, names no `type` to tell it by.
    ['updateConnection', 'updateConnection data<#20>'],
  ].map(([m, prefix]) => ({
    prefix: prefix!,
    reason: `OPEN: ${m} takes every connector's body as one open object (src/contract/datalens/connections.ts); the postgres branch's fields, required keys and strictness (the one branch extracted) are not modelled yet`,
  })),
  {
    prefix: 'createDataset multisource: only in the gateway',
    reason: 'a createDataset argument of version 1\'s source (datalens-ui f581b7c src/shared/schema/bi/schemas/datasets.ts); optional, passed on',
  },
  {
    prefix: 'createDataset workbook_id: type',
    reason: 'version 1\'s source takes null for a dataset outside workbooks (datalens-ui f581b7c src/shared/schema/bi/schemas/datasets.ts); the gateway takes it at every version and passes it on',
  },
  {
    prefix: 'validateDataset bindedDatasetId: type',
    reason: 'OPEN: the spec takes a string only; src/contract/v2/real-request-fields.ts takes null too (and its test asserts it), kept at version 3',
  },
  {
    prefix: 'deleteFolder folderId: required',
    reason: 'OPEN: the spec requires folderId; the gateway lets it out while test/replay/fixtures/v2-listed.ts deletes a folder by `key` (which the reference backend also takes)',
  },
];
