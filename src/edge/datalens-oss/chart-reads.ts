// getWizardChart and getQLChart on open-source DataLens: the charts engine's `GET /api/charts/v1/charts/:id` answers
// the stored entry in its own shape; this makes the public controller's answer of it (datalens-ui f581b7c,
// src/shared/schema/mix/actions/{wizard,ql}/get-*-chart.ts: the United Storage entry with `data` the parsed config).
// What it cannot make: the config migrated to the latest Wizard/QL version (the UI's mapChartsConfigToLatestVersion).

import { type ChartFamily, CHART_TYPES } from './routes.js';
import { notThisKind, type PublicAnswer } from './public-errors.js';
import { isJsonObject } from '../../core/translate/paths.js';


/** The public arguments a chart read takes (v1 get{Wizard,QL}ChartArgs). */
export interface ChartReadArgs {
  readonly chartId: string;
  readonly revId?: string;
  readonly branch?: 'saved' | 'published';
  readonly includeLinks?: boolean;
  readonly includePermissions?: boolean;
  readonly includeFavorite?: boolean;
}

/** The charts engine's path and query for a public chart read: the saved branch is its `unreleased`. */
export function chartReadPath(args: ChartReadArgs): string {
  const query = new URLSearchParams();
  if (args.revId !== undefined) query.set('revId', args.revId);
  if (args.branch === 'saved') query.set('unreleased', 'true');
  if (args.includeLinks) query.set('includeLinks', 'true');
  if (args.includePermissions) query.set('includePermissionsInfo', 'true');
  const search = query.toString();
  return `/api/charts/v1/charts/${encodeURIComponent(args.chartId)}${search ? `?${search}` : ''}`;
}

/** Keys the charts engine adds that the public answer does not have. */
const ENGINE_ONLY = ['isFavorite', 'tenantSettings'];
/** Keys of `meta` the charts engine adds (the type again, and the owner). */
const ENGINE_META = ['stype', 'owner'];
/**
 * United Storage fields the charts engine leaves out, with the value every open-source entry has: one tenant
 * ("common"), charts never hidden, no entry versions, and entries in workbooks or folders, never in collections.
 */
const OSS_ENTRY_DEFAULTS = { tenantId: 'common', version: null, sourceVersion: null, hidden: false, collectionId: null };

/** The stored config as the public answer carries it: Wizard's the engine parsed already, QL's still in `shared`. */
function configOf(data: unknown): unknown {
  if (!isJsonObject(data) || typeof data.shared !== 'string') return data ?? null;
  try {
    return JSON.parse(data.shared);
  } catch {
    return null;
  }
}

/** The public answer for a successful charts-engine read: 404 when the entry is not a chart of `family`. */
export function publicChartRead(family: ChartFamily, args: ChartReadArgs, entry: unknown, requestId: string): PublicAnswer {
  if (!isJsonObject(entry) || entry.scope !== 'widget' || typeof entry.type !== 'string' || !CHART_TYPES[family].has(entry.type)) {
    return notThisKind('Entry not found', requestId);
  }
  const out: Record<string, unknown> = { ...OSS_ENTRY_DEFAULTS };
  for (const [key, value] of Object.entries(entry)) {
    if (ENGINE_ONLY.includes(key) && !(key === 'isFavorite' && args.includeFavorite)) continue;
    out[key] = value;
  }
  if (isJsonObject(entry.meta)) out.meta = Object.fromEntries(Object.entries(entry.meta).filter(([k]) => !ENGINE_META.includes(k)));
  out.data = configOf(entry.data);
  return { status: 200, body: out };
}
