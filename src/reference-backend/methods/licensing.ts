// Licences (version 2): assignLicenses, getLicenses, getLicensesLimit, setLicenseLimit, on the licence store.
// Shapes: the real spec's components (src/contract/v2/licensing.ts). No user here has ever logged in: lastLoginAt null.

import { EXPIRING_DAYS, type License } from '../stores/licenses.js';
import { actorOf, fromContract, type Args, type CallContext, type MethodHandler } from './context.js';
import { invalid, pageOf } from './paging.js';

const DAY_MS = 86_400_000;

/** Where a licence stands now: active, expiring (active, ending within EXPIRING_DAYS) or expired. */
function statusOf(l: License, at: number): 'active' | 'expiring' | 'expired' {
  const ends = Date.parse(l.expiresAt);
  if (!l.isActive || ends <= at) return 'expired';
  return ends - at <= EXPIRING_DAYS * DAY_MS ? 'expiring' : 'active';
}

function limitsView({ store }: CallContext): Record<string, unknown> {
  const limit = store.licenses.getLimit();
  return { current: limit === null ? null : { ...limit, activeLicensesCount: store.licenses.activeCount() }, next: null };
}

export const licensingMethods: Record<string, MethodHandler> = {
  assignLicenses: fromContract('assignLicenses', (args: Args, ctx) => {
    const result = ctx.store.licenses.assign(args.userIds as string[], actorOf(ctx));
    if (!result.ok) throw invalid('userIds', `Assigning these licences would make ${result.needed} active licences, past the limit of ${result.limit}.`);
    return result.licenses.map((l) => ({ ...l }));
  }),

  getLicenses: fromContract('getLicenses', (args: Args, { store }) => {
    const at = Date.now();
    const users = Array.isArray(args.userIds) && args.userIds.length > 0 ? new Set(args.userIds as string[]) : undefined;
    const field = args.sortBy === 'updatedAt' ? 'updatedAt' : 'createdAt';
    const sign = args.order === 'desc' ? -1 : 1;
    const matching = store.licenses
      .all()
      .filter((l) => (users === undefined || users.has(l.userId)) && (args.status === undefined || statusOf(l, at) === args.status))
      .sort((a, b) => sign * a[field].localeCompare(b[field]));
    const { pageToken, limit, ...query } = args;
    const page = pageOf(matching, query, pageToken, typeof limit === 'number' ? limit : 100);
    return { licenses: page.items.map((l) => ({ ...l, lastLoginAt: null })), ...(page.nextPageToken && { nextPageToken: page.nextPageToken }) };
  }),

  getLicensesLimit: fromContract('getLicensesLimit', (_args, ctx) => limitsView(ctx)),

  setLicenseLimit: fromContract('setLicenseLimit', (args: Args, ctx) => {
    ctx.store.licenses.setLimit(args.value as number);
    return limitsView(ctx);
  }),
};
