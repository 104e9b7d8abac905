// Dashboard methods, in the v1 dashboard format: `{entry: {…, data: {tabs, settings, schemeVersion}}}`.
// Shapes: datalens-tech/datalens-ui src/shared/schema/mix/schemas/dash/{get,create,update}-dashboard-v1.ts,
// delete-dashboard.ts and dash-v1.ts.

import { BackendError } from '../shared/errors.js';
import type { Entry } from '../stores/index.js';
import { emptyDashData, DASH_SCHEME_VERSION } from '../stores/entry-data.js';
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

/** The dashboard's data as stored: what was sent, at the current scheme version. */
const dashData = (data: unknown): Json => ({ ...emptyDashData(), ...(data as Json | undefined), schemeVersion: DASH_SCHEME_VERSION });

const isDash = (e: Entry) => e.scope === 'dash';

export const dashboardMethods: Record<string, MethodHandler> = {
  getDashboard: fromContract('getDashboard', (args, ctx) => {
    const entry = revisionOf(ctx, ctx.store.entries.require(args.dashboardId, 'dash'), args);
    return dashboardView(entry, { permissions: args.includePermissions, favorite: args.includeFavorite, links: args.includeLinks !== false });
  }),

  createDashboard: fromContract('createDashboard', (args, ctx) => {
    const input = entryArg(args);
    const placement = placementOf(ctx.store, input);
    const data = dashData(input.data);
    const entry = ctx.store.entries.create(
      {
        ...placement,
        scope: 'dash',
        type: '',
        data,
        meta: (input.meta as Json | null | undefined) ?? {},
        annotation: (input.annotation as { description: string } | undefined) ?? null,
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
    const saved = saveEntry(
      ctx,
      entry,
      {
        ...(input.data !== undefined && { data: dashData(input.data) }),
        ...(input.meta !== undefined && { meta: input.meta as Json | null }),
        ...(input.annotation !== undefined && { annotation: input.annotation as { description: string } }),
      },
      modeOf(args.mode),
      input.lockToken ?? args.lockToken,
    );
    return dashboardView(saved);
  }),

  deleteDashboard: fromContract('deleteDashboard', (args, ctx) => deleteEntry(ctx, ctx.store.entries.require(args.dashboardId, 'dash'), args.lockToken)),
};
