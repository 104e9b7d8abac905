// The QL chart methods (tag QL, [Experimental]): a chart made in a folder (EntryLocationIdentifiers' `key`), so the
// folder steps can move and rename it. Components: CreateQLChartArgs, GetQLChartArgs, UpdateQLChartArgs,
// DeleteQLChartArgs, EntryLocationIdentifiers, EntryAnnotationArg, EntryUpdateMode. Every QL answer is an object
// the spec leaves open (`object`, `{}`).

import { Empty, loose } from './components.js';
import type { Family } from './types.js';

const qlData = { type: 'sql', chartType: 'table', queryValue: 'select day, count(*) from orders group by day', params: [], connection: {} };

export const qlSteps: Family = [
  {
    method: 'createQLChart',
    request: 'CreateQLChartArgs',
    response: 'object',
    body: (made) => ({
      template: 'ql',
      key: `${made.folderKey}Orders by day`,
      data: { ...qlData, connection: { entryId: made.connection } },
      annotation: { description: 'Orders per day' },
    }),
    answer: loose({}),
    keep: (a, made) => {
      // The spec leaves the answer open; the chart's id is read where the product puts it.
      made.qlChart = a.entryId ?? a.entry?.entryId;
    },
  },
  {
    method: 'getQLChart',
    request: 'GetQLChartArgs',
    response: '{}',
    body: (made) => ({ chartId: made.qlChart, workbookId: null, branch: 'published', includePermissions: true, includeLinks: true, includeFavorite: false }),
    answer: loose({}),
  },
  {
    method: 'updateQLChart',
    request: 'UpdateQLChartArgs',
    response: 'object',
    body: (made) => ({
      entryId: made.qlChart,
      template: 'ql',
      mode: 'save',
      data: { ...qlData, queryValue: 'select day, sum(total) from orders group by day', connection: { entryId: made.connection } },
      annotation: { description: 'Revenue per day' },
    }),
    answer: loose({}),
  },
];

export const qlTeardown: Family = [
  {
    method: 'deleteQLChart',
    request: 'DeleteQLChartArgs',
    response: 'object',
    body: (made) => ({ chartId: made.qlChart }),
    answer: Empty,
  },
];
