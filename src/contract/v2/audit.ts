// Version 2, audit: which entries changed (or were deleted) in a time range, and a user's permissions on entries.
// Source: the real spec (spec-source.ts), components GetAuditEntriesUpdatesArgs, GetAuditEntriesUpdatesResult,
// AuditEntry, GetAuditEntryPermissionsForUserArgs, GetAuditEntryPermissionsForUserResult, EntryPermissions.
// Both argument objects are strict (additionalProperties: false).

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, method, permissions, strict } from '../datalens/common.js';

/** A date and time: the real spec's `format: date-time`, an annotation (not checked here, as JSON Schema leaves it). */
const dateTime = z.string().meta({ format: 'date-time' });

/** AuditEntry. */
const auditEntry = answer({
  entryId: z.string(),
  key: z.string().nullable(),
  isDeleted: z.boolean(),
  workbookId: z.string().nullable(),
  collectionId: z.string().nullable(),
  scope: z.enum(['dash', 'report', 'widget', 'dataset', 'folder', 'connection']),
  type: z.string().nullable(),
  updatedAt: z.string(),
  userId: z.string(),
});

/** Entry id → its permissions, or NOT_FOUND (GetEntriesPermissionsResult and GetAuditEntryPermissionsForUserResult). */
export const permissionsByEntry = z.record(z.string(), z.union([answer({ permissions }), answer({ error: z.enum(['NOT_FOUND']) })]));

export const auditMethods: Record<string, MethodSpec> = {
  getAuditEntriesUpdates: method(
    'Lists the entries created, changed or deleted from `from` (to `to`), oldest first, one page at a time.',
    // `from` and `to` are date-times (format date-time); the backend reads them, so any string passes here.
        strict({ from: dateTime, to: dateTime.optional(), limit: z.number().optional(), pageToken: z.string().optional() }),
    answer({ entries: z.array(auditEntry), nextPageToken: z.string().optional() }),
  ),
  getAuditEntryPermissionsForUser: method(
    'Returns what one user may do with each of the given entries.',
    strict({ entryIds: z.array(z.string()), userId: z.string() }),
    permissionsByEntry,
  ),
};
