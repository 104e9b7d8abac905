// Audit (tag Audit): the entries changed since a date, and one user's permissions on entries.
// Components: GetAuditEntriesUpdatesArgs/Result, AuditEntry, GetAuditEntryPermissionsForUserArgs/Result,
// EntryPermissions.

import { z } from 'zod';
import { AuditEntry, EntryPermissions, loose } from './components.js';
import type { Family } from './types.js';

export const auditSteps: Family = [
  {
    method: 'getAuditEntriesUpdates',
    request: 'GetAuditEntriesUpdatesArgs',
    response: 'GetAuditEntriesUpdatesResult',
    body: () => ({ from: '2026-01-01T00:00:00.000Z', to: '2099-12-31T23:59:59.000Z', limit: 100 }),
    answer: loose({ entries: z.array(AuditEntry), nextPageToken: z.string().optional() }),
  },
  {
    method: 'getAuditEntryPermissionsForUser',
    request: 'GetAuditEntryPermissionsForUserArgs',
    response: 'GetAuditEntryPermissionsForUserResult',
    body: (made) => ({ userId: 'alice@example.com', entryIds: [made.dataset, made.editorChart, 'no-such-entry'] }),
    answer: z.record(z.string(), z.union([loose({ permissions: EntryPermissions }), loose({ error: z.literal('NOT_FOUND') })])),
  },
];
