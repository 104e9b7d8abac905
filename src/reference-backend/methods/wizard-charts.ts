// The Wizard chart methods at version 3: the Wizard document format (sources + visualization), answers as `{entry}`
// with the entry's format `version` 1 and the API version stamp in `apiVersion`, updates naming the chart `chartId`.
// Shapes: datalens-tech/datalens-sdk spec/yacloud.json (021501bb), GetWizardChartV1Args/Result,
// CreateWizardChartV1Args/Result, UpdateWizardV1Args/Result, WizardV1, WizardV1ConfigSchema.
// Charts stored before the format (the demo seed's config) are answered as documents, as real DataLens migrates
// older objects when they are read; the legacy part of a document (LEGACY_CONFIG) is answered to older clients only.

import { BackendError } from '../shared/errors.js';
import type { Entry } from '../stores/index.js';
import { WIZARD_DOCUMENT_VERSION, configUp, isWizardDocument, withoutLegacy } from '../../contract/v3/wizard-config.js';
import { ENTRY_PERMISSIONS, actorOf, fromContract, type CallContext, type MethodHandler } from './context.js';
import { deleteEntry, modeOf, revisionOf, saveEntry } from './entry-writes.js';
import { linksIn, placementOf } from './placement.js';
import { entryView, savedChartView } from './views.js';

type Json = Record<string, unknown>;

const isWizard = (type: string) => type.endsWith('_wizard_node');
const DEFAULT_TYPE = 'graph_wizard_node';

const invalid = (path: string, message: string) => new BackendError('VALIDATION_ERROR', message, { issues: [{ path, message }] });
const requireChart = (ctx: CallContext, chartId: unknown): Entry => ctx.store.entries.require(String(chartId ?? ''), 'widget', (e) => isWizard(e.type));

/** The stored data as the caller reads it: a document (older configs converted), its legacy part for older clients only. */
function documentFor(data: Json | null, ctx: CallContext): Json {
  const doc = isWizardDocument(data) ? data : configUp(data ?? {});
  return ctx.clientVersion < WIZARD_DOCUMENT_VERSION ? doc : withoutLegacy(doc);
}

/** WizardV1: the entry with its document; `version` is the format version, the stamp `apiVersion`. */
function wizardEntry(e: Entry, ctx: CallContext, links = true): Json {
  const view = entryView(e, { links, locked: ctx.store.locks.get(e.entryId) !== undefined, formatVersion: true });
  return { ...view, data: documentFor(e.data, ctx) };
}

/** A getEntries row (`includeData`) of a Wizard chart carries its data as the chart methods answer it. */
export function wizardRow(e: Entry, row: Json, ctx: CallContext): Json {
  return isWizard(e.type) && row.data !== undefined ? { ...row, data: documentFor(e.data, ctx) } : row;
}

function documentArg(data: unknown): Json {
  if (!isWizardDocument(data)) throw invalid('data', 'data must be a Wizard document: {sources, visualization}.');
  return data;
}

export const wizardChartMethods: Record<string, MethodHandler> = {
  getWizardChart: fromContract('getWizardChart', (args, ctx) => {
    const entry = revisionOf(ctx, requireChart(ctx, args.chartId), args);
    return {
      entry: wizardEntry(entry, ctx, args.includeLinks !== false),
      isFavorite: false,
      ...(args.includePermissions && { permissions: { ...ENTRY_PERMISSIONS } }),
    };
  }),

  createWizardChart: fromContract('createWizardChart', (args, ctx) => {
    const type = typeof args.type === 'string' ? args.type : DEFAULT_TYPE;
    if (!isWizard(type)) throw invalid('type', `"${type}" is not a Wizard chart type.`);
    const data = documentArg(args.data);
    const entry = ctx.store.entries.create(
      {
        ...placementOf(ctx.store, args),
        scope: 'widget',
        type,
        data,
        meta: (args.meta as Json | undefined) ?? {},
        annotation: (args.annotation as { description: string } | undefined) ?? null,
        links: (args.links as Record<string, string> | undefined) ?? linksIn(ctx.store, data),
      },
      actorOf(ctx),
      ctx.clientVersion,
    );
    const { permissions, ...saved } = savedChartView(wizardEntry(entry, ctx), true);
    return { entry: saved, permissions };
  }),

  updateWizardChart: fromContract('updateWizardChart', (args, ctx) => {
    const entry = requireChart(ctx, args.chartId);
    const saved = saveEntry(
      ctx,
      entry,
      {
        data: documentArg(args.data),
        ...(args.meta !== undefined && { meta: args.meta as Json | null }),
        ...(args.annotation !== undefined && { annotation: args.annotation as { description: string } }),
        ...(args.links !== undefined && { links: args.links as Record<string, string> }),
      },
      modeOf(args.mode),
      args.lockToken,
    );
    return { entry: savedChartView(wizardEntry(saved, ctx), false) };
  }),

  deleteWizardChart: fromContract('deleteWizardChart', (args, ctx) => deleteEntry(ctx, requireChart(ctx, args.chartId), args.lockToken)),
};
