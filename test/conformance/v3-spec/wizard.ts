// The Wizard chart methods (tag Wizard, [Experimental]): a pivot table over the scenario's dataset. Real version 2
// takes another shape here (CreateWizardChartArgs), so these steps wait for a version-3 head.
// Components: CreateWizardChartV1Args/Result, GetWizardChartV1Args/Result, UpdateWizardV1Args/Result,
// DeleteWizardChartArgs, WizardV1ConfigSchema (its pivotTable visualization), EntryLocationIdentifiers.

import { z } from 'zod';
import { Empty, EntryPermissions, entryFields, loose } from './components.js';
import type { Family } from './types.js';

/** WizardV1: the chart entry; `version` is the entry format, 1; `data` is a WizardV1ConfigSchema. */
const WizardV1 = loose({
  ...entryFields,
  scope: z.literal('widget'),
  type: z.enum(['graph_wizard_node', 'table_wizard_node', 'ymap_wizard_node', 'metric_wizard_node', 'markup_wizard_node', 'timeseries_wizard_node', 'd3_wizard_node']).optional(),
  version: z.literal(1),
  // WizardV1ConfigSchema requires sources (with datasetsIds) and a visualization (each variant has a type).
  data: loose({ sources: loose({ datasetsIds: z.array(z.string()) }), visualization: loose({ type: z.string() }) }),
});

const config = (datasetId: string, title: string) => ({
  sources: {
    datasetsIds: [datasetId],
    filters: [{ guid: 'day', datasetId, filter: { operation: { code: 'GT' }, value: '2026-01-01' } }],
  },
  visualization: {
    type: 'pivotTable',
    columns: { items: [] },
    rows: { items: [{ guid: 'day', title: 'Day', type: 'DIMENSION', data_type: 'date', datasetId }] },
    measures: { items: [] },
    chartSettings: { title, titleMode: 'show' },
  },
});

export const wizardSteps: Family = [
  {
    method: 'createWizardChart',
    request: 'CreateWizardChartV1Args',
    response: 'CreateWizardChartV1Result',
    v3Only: true,
    body: (made) => ({ workbookId: made.workbook, name: 'Conformance pivot', data: config(made.dataset!, 'Orders'), annotation: { description: 'Orders by day' } }),
    answer: loose({ entry: WizardV1 }),
    keep: (a, made) => {
      made.wizardChart = a.entry.entryId;
      made.wizardRevId = a.entry.revId;
    },
  },
  {
    method: 'getWizardChart',
    request: 'GetWizardChartV1Args',
    response: 'GetWizardChartV1Result',
    v3Only: true,
    body: (made) => ({ chartId: made.wizardChart, workbookId: made.workbook, branch: 'saved', includePermissions: true, includeLinks: true, includeFavorite: true }),
    answer: loose({ entry: WizardV1, isFavorite: z.boolean().optional(), permissions: EntryPermissions.optional() }),
  },
  {
    method: 'updateWizardChart',
    request: 'UpdateWizardV1Args',
    response: 'UpdateWizardV1Result',
    v3Only: true,
    body: (made) => ({ chartId: made.wizardChart, revId: made.wizardRevId, mode: 'publish', data: config(made.dataset!, 'Orders, published'), annotation: { description: 'Published' } }),
    answer: loose({ entry: WizardV1 }),
  },
];

export const wizardTeardown: Family = [
  {
    method: 'deleteWizardChart',
    request: 'DeleteWizardChartArgs',
    response: 'object',
    v3Only: true,
    body: (made) => ({ chartId: made.wizardChart }),
    answer: Empty,
  },
];
