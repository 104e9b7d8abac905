// The entry-relations method of the DataLens public API v1 (getEntries is src/contract/v1/entries.ts).
//
// Source: github.com/datalens-tech/datalens-ui (commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8),
// src/shared/schema/us/actions/entries/get-entries-relations.ts: a strict schema.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, entryFullPermissions, entryScope, flag, ids, method, permissions, record, strict, text } from './common.js';

const relation = answer({
  entryId: z.string(),
  key: z.string().nullable(),
  scope: entryScope,
  type: z.string(),
  createdAt: z.string(),
  public: z.boolean(),
  tenantId: z.string().nullable(),
  workbookId: z.string().nullable(),
  collectionId: z.string().nullable(),
  isLocked: z.boolean().optional(),
  permissions: permissions.optional(),
  fullPermissions: entryFullPermissions.optional(),
});

export const entryMethods: Record<string, MethodSpec> = {
  getEntriesRelations: method(
    'Returns the entries linked to the given entries, in either direction, one page at a time.',
    strict({
      entryIds: ids,
      linkDirection: z.enum(['from', 'to']).optional(),
      includePermissionsInfo: flag,
      limit: z.number().optional(),
      pageToken: text,
      scope: entryScope.optional(),
    }),
    answer({ relations: z.array(relation), nextPageToken: z.string().optional() }),
  ),
};
