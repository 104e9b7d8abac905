// Audit (version 2): getAuditEntriesUpdates lists the entries changed in a time range, from the entry store itself
// (live entries by their last change, deleted ones by their deletion), oldest first; getAuditEntryPermissionsForUser
// answers full rights for every existing entry (this backend enforces no access control).
// Shapes: the real spec's components (src/contract/v2/audit.ts).

import { ENTRY_PERMISSIONS, fromContract, type Args, type MethodHandler } from './context.js';
import { invalid, pageOf } from './paging.js';

interface AuditRow {
  entryId: string;
  key: string | null;
  isDeleted: boolean;
  workbookId: string | null;
  collectionId: string | null;
  scope: string;
  type: string | null;
  updatedAt: string;
  userId: string;
}

/** The instant a date-time argument names, or a validation error. */
function instant(value: unknown, field: string): number {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw invalid(field, `${field} must be a date-time.`);
  return at;
}

export const auditMethods: Record<string, MethodHandler> = {
  getAuditEntriesUpdates: fromContract('getAuditEntriesUpdates', (args: Args, { store }) => {
    const from = instant(args.from, 'from');
    const to = args.to === undefined ? Number.POSITIVE_INFINITY : instant(args.to, 'to');
    const within = (at: string) => Date.parse(at) >= from && Date.parse(at) <= to;
    const live: AuditRow[] = store.entries
      .list((e) => within(e.updatedAt))
      .map((e) => ({ entryId: e.entryId, key: e.key, isDeleted: false, workbookId: e.workbookId, collectionId: e.collectionId, scope: e.scope, type: e.type, updatedAt: e.updatedAt, userId: e.updatedBy }));
    // A deletion names the entry's last writer: this backend does not know who deleted it.
    const deleted: AuditRow[] = store.entries
      .tombstones()
      .filter((t) => within(t.deletedAt))
      .map((t) => ({ entryId: t.entryId, key: t.key, isDeleted: true, workbookId: t.workbookId, collectionId: t.collectionId, scope: t.scope, type: t.type, updatedAt: t.deletedAt, userId: t.lastUpdatedBy }));
    const rows = [...live, ...deleted].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.entryId.localeCompare(b.entryId));
    const { pageToken, limit, ...query } = args;
    const page = pageOf(rows, query, pageToken, typeof limit === 'number' ? limit : 100);
    return { entries: page.items, ...(page.nextPageToken && { nextPageToken: page.nextPageToken }) };
  }),

  getAuditEntryPermissionsForUser: fromContract('getAuditEntryPermissionsForUser', (args: Args, { store }) =>
    Object.fromEntries((args.entryIds as string[]).map((id) => [id, store.entries.has(id) ? { permissions: { ...ENTRY_PERMISSIONS } } : { error: 'NOT_FOUND' }])),
  ),
};
