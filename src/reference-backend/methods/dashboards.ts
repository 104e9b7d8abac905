// Dashboard methods at API version 3: the DashboardV2 format, `{entry: {…, version: 2, data: {tabs, settings}}}`.
// Shapes: the v3 OpenAPI document (src/contract/v3/dashboards.ts cites it); a dashboard saved in the earlier format
// is stored and answered in the v3 shape (dash-v3.ts), as real DataLens migrates it.

import { BackendError } from '../shared/errors.js';
import type { Entry } from '../stores/index.js';
import { emptyDashData } from '../stores/entry-data.js';
import { dashboardV3 } from './dash-v3.js';
import { actorOf, fromContract, type Args, type MethodHandler } from './context.js';
import { deleteEntry, modeOf, revisionOf, saveEntry } from './entry-writes.js';
import { linksIn, placementOf } from './placement.js';
import { dashboardView } from './views.js';

type Json = Record<string, unknown>;

/** The dashboard's fields: under `entry` (the v1 dashboard format), or at the top level (the later flat format). */
const entryArg = (args: Args): Json => {
  const entry = args.entry;
  if (entry === undefined) return args;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw new BackendError('VALIDATION_ERROR', 'entry must be an object.', { issues: [{ path: 'entry', message: 'expected an object' }] });
  }
  return entry as Json;
};

/** The dashboard's data and annotation as stored: what was sent, in the v3 shape. */
const dashContent = (data: unknown, annotation: unknown) => dashboardV3({ ...emptyDashData(), ...(data as Json | undefined) }, annotation);

const isDash = (e: Entry) => e.scope === 'dash';

export const dashboardMethods: Record<string, MethodHandler> = {
  getDashboard: fromContract('getDashboard', (args, ctx) => {
    const entry = revisionOf(ctx, ctx.store.entries.require(args.dashboardId, 'dash'), args);
    return dashboardView(entry, { permissions: args.includePermissions, favorite: true, // the real getDashboard answers isFavorite whether asked or not (the recorded v1 answers)
      links: args.includeLinks !== false });
  }),

  createDashboard: fromContract('createDashboard', (args, ctx) => {
    const input = entryArg(args);
    const placement = placementOf(ctx.store, input);
    const { data, annotation } = dashContent(input.data, input.annotation);
    const entry = ctx.store.entries.create(
      {
        ...placement,
        scope: 'dash',
        type: '',
        data,
        meta: (input.meta as Json | null | undefined) ?? {},
        annotation: annotation as { description: string } | null,
        links: linksIn(ctx.store, data),
      },
      actorOf(ctx),
      ctx.clientVersion,
    );
    return dashboardView(entry);
  }),

  updateDashboard: fromContract('updateDashboard', (args, ctx) => {
    const input = entryArg(args);
    const entry = ctx.store.entries.require(String(input.entryId ?? ''), undefined, isDash);
    const content = input.data !== undefined ? dashContent(input.data, input.annotation ?? entry.annotation) : undefined;
    const annotation = content?.annotation ?? input.annotation;
    const saved = saveEntry(
      ctx,
      entry,
      {
        ...(content && { data: content.data }),
        ...(input.meta !== undefined && { meta: input.meta as Json | null }),
        ...(annotation !== undefined && annotation !== null && { annotation: annotation as { description: string } }),
      },
      modeOf(args.mode),
      input.lockToken ?? args.lockToken,
    );
    return dashboardView(saved);
  }),

  deleteDashboard: fromContract('deleteDashboard', (args, ctx) => deleteEntry(ctx, ctx.store.entries.require(args.dashboardId, 'dash'), args.lockToken)),
};
