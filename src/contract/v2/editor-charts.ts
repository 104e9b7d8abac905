// The Editor chart methods, added at version 2 (the public API reference documents them; datalens-ui v1.ts does not list them).
//
// Source: github.com/yandex-cloud/docs, en/datalens/openapi-ref/{get,create,update,delete}EditorChart.md
// (the generated DataLens API reference). Strictness is not documented there: unknown fields pass. The entry of create
// and update per node type: datalens-tech/datalens-sdk spec/yacloud.json at 021501bb6ccd3165eaa128155d91f67e01525fe9,
// CreateEditorChartArgs and UpdateEditorChartArgs (the same components the real version-2 index names).

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { annotation, answer, apiVersionStamp, branch, empty, flag, id, method, nullableId, open, permissions, storedEntry, text, updateMode } from '../datalens/common.js';

/** The Editor node types the reference lists (create documents the first five, update all of them). */
const editorType = z.enum([
  'table_node',
  'd3_node',
  'markdown_node',
  'advanced-chart_node',
  'control_node',
  'graph_node',
  'timeseries_node',
  'metric_node',
  'markup_node',
  'ymap_node',
  'module',
]);

/** An Editor chart's tabs (meta, params, sources, prepare, config, …): each a string of code or JSON. */
const tabs = z.record(z.string(), z.string());
const links = z.record(z.string(), z.string());

/** The tabs each node type of the spec requires (Create/UpdateEditor*NodeEntry `data`); further keys pass. */
const SPEC_NODE_TABS = {
  table_node: ['meta', 'params', 'sources', 'controls', 'prepare', 'config'],
  d3_node: ['meta', 'params', 'sources', 'controls', 'prepare', 'config'],
  markdown_node: ['meta', 'params', 'sources', 'controls', 'prepare'],
  'advanced-chart_node': ['meta', 'params', 'sources', 'controls', 'prepare'],
  control_node: ['meta', 'params', 'sources', 'controls'],
} as const;
type SpecNode = keyof typeof SPEC_NODE_TABS;
const SPEC_NODES = Object.keys(SPEC_NODE_TABS) as SpecNode[];
const OTHER_NODES = editorType.options.filter((t) => !(SPEC_NODES as string[]).includes(t)) as [string, ...string[]];
/** The entry of create or update, by node type: `fields` are the rest of the entry (location or entryId). */
const editorEntry = (fields: Record<string, z.ZodType>) => {
  const common = { ...fields, annotation: annotation.optional(), meta: z.record(z.string(), z.unknown()).optional(), links: links.optional() };
  const bySpec = SPEC_NODES.map((type) =>
    open({ ...common, type: z.literal(type), data: open(Object.fromEntries(SPEC_NODE_TABS[type].map((tab) => [tab, z.string()]))) }),
  );
  // The node types the reference lists beyond the spec's five: their tabs as strings, none required.
  return z.discriminatedUnion('type', [...bySpec, open({ ...common, type: z.enum(OTHER_NODES), data: tabs })] as unknown as [z.ZodObject, ...z.ZodObject[]]);
};

// The public reference (getEditorChart.md) gives `version` as the Editor format version, 1; the API version stamp is apiVersion.
const editorChart = storedEntry.extend({ scope: z.literal('widget'), version: z.literal(1).optional(), apiVersion: apiVersionStamp, data: tabs });

export const editorChartMethods: Record<string, MethodSpec> = {
  getEditorChart: method(
    'Returns an Editor chart.',
    open({
      chartId: id,
      workbookId: nullableId.optional(),
      revId: text,
      includePermissions: flag,
      includeLinks: flag,
      includeFavorite: flag,
      // EntryBranch in the real spec's GetEditorChartArgs (saved or published).
      branch: branch.optional(),
    }),
    answer({ entry: editorChart, isFavorite: flag, permissions: permissions.optional() }),
  ),
  createEditorChart: method(
    'Creates an Editor chart, in a folder (`entry.key`) or a workbook (`entry.workbookId` and `entry.name`).',
    open({ mode: updateMode.optional(), entry: editorEntry({ key: text, workbookId: text, name: text }) }),
    answer({ entry: editorChart }),
  ),
  updateEditorChart: method(
    'Saves or publishes a new revision of an Editor chart.',
    open({ mode: updateMode, entry: editorEntry({ entryId: id, revId: text }) }),
    answer({ entry: editorChart }),
  ),
  deleteEditorChart: method('Deletes an Editor chart.', open({ chartId: id }), empty),
};
