// Dataset methods (the BI API): read, create, update (the draft), delete and validate a dataset.
// Shapes: datalens-tech/datalens-ui src/shared/schema/bi/schemas/datasets.ts and src/shared/types/dataset.ts
// (Dataset: {id, key, realName, dataset, options, workbook_id, …}); update answers {dataset, options}.

import { BackendError } from '../shared/errors.js';
import type { Entry } from '../stores/index.js';
import { actorOf, fromContract, type Args, type CallContext, type MethodHandler } from './context.js';
import { deleteEntry, saveEntry } from './entry-writes.js';
import { linksIn, placementOf } from './placement.js';
import { datasetView } from './views.js';

type Json = Record<string, unknown>;

const requireDataset = (ctx: CallContext, datasetId: string): Entry => ctx.store.entries.require(datasetId, 'dataset');

/** The dataset body an update or validation carries: `data.dataset` (the real shape) or a flat `dataset`. */
function datasetArg(args: Args): Json | undefined {
  const data = args.data as Json | undefined;
  const dataset = (data?.dataset ?? args.dataset) as unknown;
  if (dataset === undefined) return undefined;
  if (dataset === null || typeof dataset !== 'object' || Array.isArray(dataset)) {
    throw new BackendError('VALIDATION_ERROR', 'dataset must be an object.', { issues: [{ path: 'data.dataset', message: 'expected an object' }] });
  }
  return dataset as Json;
}

const mergedData = (entry: Entry, dataset: Json | undefined): Json => {
  const current = (entry.data ?? {}) as Json;
  return dataset === undefined ? current : { ...current, dataset: { ...((current.dataset as Json | undefined) ?? {}), ...dataset } };
};

export const datasetMethods: Record<string, MethodHandler> = {
  getDataset: fromContract('getDataset', (args, ctx) => datasetView(ctx.store.entries.atRevision(requireDataset(ctx, args.datasetId), args.rev_id))),

  createDataset: fromContract('createDataset', (args, ctx) => {
    const name = typeof args.name === 'string' ? args.name : '';
    const placement = placementOf(
      ctx.store,
      args.workbook_id != null ? { workbookId: args.workbook_id, name } : { key: `${String(args.dir_path ?? '').replace(/\/?$/, '/')}${name}`.replace(/^\//, '') },
    );
    const data = { dataset: datasetArg(args) ?? {}, options: {} };
    const entry = ctx.store.entries.create(
      { ...placement, scope: 'dataset', type: '', data, links: linksIn(ctx.store, data) },
      actorOf(ctx),
      ctx.clientVersion,
    );
    return datasetView(entry);
  }),

  updateDataset: fromContract('updateDataset', (args, ctx) => {
    const entry = requireDataset(ctx, args.datasetId);
    const saved = saveEntry(ctx, entry, { data: mergedData(entry, datasetArg(args)) }, 'publish');
    const { dataset, options, id, version } = datasetView(saved);
    return { id, dataset, options, version };
  }),

  deleteDataset: fromContract('deleteDataset', (args, ctx) => deleteEntry(ctx, requireDataset(ctx, args.datasetId))),

  // Validation saves nothing: it answers what the dataset would be with the given changes.
  validateDataset: fromContract('validateDataset', (args, ctx) => {
    const entry = requireDataset(ctx, args.datasetId);
    const preview = datasetView({ ...entry, data: mergedData(entry, datasetArg(args)) });
    return { ...preview, code: 'OK', message: '', dataset_errors: [] };
  }),
};
