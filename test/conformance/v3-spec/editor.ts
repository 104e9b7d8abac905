// The Editor chart methods (tag Editor, [Experimental]): a table chart in the scenario's workbook.
// Components: CreateEditorChartArgs (CreateEditorTableNodeEntry), CreateEditorChartResult, GetEditorChartArgs/Result,
// UpdateEditorChartArgs (UpdateEditorTableNodeEntry), UpdateEditorChartResult, DeleteEditorChartArgs, EditorTableNode.

import { z } from 'zod';
import { Empty, EntryPermissions, entryFields, loose, str } from './components.js';
import type { Family } from './types.js';

/** EditorTableNode: a table_node entry whose data holds every tab as a string; `version` is the Editor format, 1. */
const EditorTableNode = loose({
  ...entryFields,
  scope: z.literal('widget'),
  type: z.literal('table_node'),
  version: z.literal(1),
  data: loose({ meta: str, params: str, sources: str, controls: str, prepare: str, config: str, secrets: z.array(loose({})).optional() }),
});

const tabs = {
  meta: '{"links":{}}',
  params: 'module.exports = {region: "all"};',
  sources: 'module.exports = {};',
  controls: 'module.exports = {controls: []};',
  prepare: 'module.exports = {head: [], rows: []};',
  config: 'module.exports = {};',
};

export const editorSteps: Family = [
  {
    method: 'createEditorChart',
    request: 'CreateEditorChartArgs',
    response: 'CreateEditorChartResult',
    body: (made) => ({
      entry: {
        type: 'table_node',
        workbookId: made.workbook,
        name: 'Conformance table',
        data: tabs,
        meta: { owner: 'conformance' },
        links: {},
        annotation: { description: 'Orders as a table' },
      },
    }),
    answer: loose({ entry: EditorTableNode }),
    keep: (a, made) => {
      made.editorChart = a.entry.entryId;
      made.editorRevId = a.entry.revId;
    },
  },
  {
    method: 'getEditorChart',
    request: 'GetEditorChartArgs',
    response: 'GetEditorChartResult',
    body: (made) => ({ chartId: made.editorChart, workbookId: made.workbook, branch: 'saved', includePermissions: true, includeLinks: true, includeFavorite: true }),
    answer: loose({ entry: EditorTableNode, isFavorite: z.boolean().optional(), permissions: EntryPermissions.optional() }),
  },
  {
    method: 'updateEditorChart',
    request: 'UpdateEditorChartArgs',
    response: 'UpdateEditorChartResult',
    body: (made) => ({
      mode: 'publish',
      entry: {
        entryId: made.editorChart,
        revId: made.editorRevId,
        type: 'table_node',
        data: { ...tabs, params: 'module.exports = {region: "north"};' },
        annotation: { description: 'Orders as a table, north only' },
      },
    }),
    answer: loose({ entry: EditorTableNode }),
  },
];

export const editorTeardown: Family = [
  {
    method: 'deleteEditorChart',
    request: 'DeleteEditorChartArgs',
    response: 'object',
    body: (made) => ({ chartId: made.editorChart }),
    answer: Empty,
  },
];
