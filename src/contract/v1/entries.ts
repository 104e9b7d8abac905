// Version 1 getEntries: filters take one id or many, and pages are numbered.
//
// Sources: github.com/datalens-tech/datalens-ui (commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8),
//   src/shared/schema/us/schemas/entries/get-entries.ts (arguments and entries; not strict), and the bounds the
//   United Storage enforces behind it: github.com/datalens-tech/datalens-us, src/controllers/entries/get-entries.ts
//   (page from 0, pageSize 1..200, at most 1000 ids). The backend also requires `ids` or `scope`; the gateway
//   leaves that cross-field rule to it.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, entriesOrderBy, flag, open, permissions, record } from '../datalens/common.js';

const oneOrMany = z.union([z.string(), z.array(z.string()).max(1000)]);

/** The arguments both versions share: filters, order and what to include. */
export const getEntriesArgs = {
  scope: z.string().optional(),
  excludeLocked: flag,
  includeData: flag,
  includeLinks: flag,
  filters: open({ name: z.string().optional() }).optional(),
  orderBy: entriesOrderBy.optional(),
  includePermissionsInfo: flag,
  ignoreWorkbookEntries: flag,
  pageSize: z.number().int().min(1).max(200).optional(),
};

/** An entry the caller may not read: only what identifies it. */
const lockedEntry = answer({ isLocked: z.literal(true), entryId: z.string(), scope: z.string(), type: z.string() });

export const entryObject = answer({
  entryId: z.string(),
  key: z.string(),
  name: z.string().optional().describe('The last segment of the key.'),
  scope: z.string(),
  type: z.string(),
  meta: record.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string(),
  updatedBy: z.string(),
  savedId: z.string(),
  publishedId: z.string().nullable(),
  hidden: z.boolean(),
  workbookId: z.string().nullable(),
  workbookTitle: z.string().nullable().optional(),
  collectionId: z.string().nullable(),
  collectionTitle: z.string().nullable().optional(),
  isFavorite: z.boolean(),
  isLocked: z.literal(false).optional(),
  permissions: permissions.optional(),
  links: z.record(z.string(), z.string()).nullable(),
  data: record.optional(),
  version: z.number().int().optional().describe('The API version the entry was saved under.'),
});

// hasNextPage: the real v1 OpenAPI document requires it (datalens-ui f581b7c, /1/json/).
export const entriesAnswer = answer({ hasNextPage: z.boolean(), entries: z.array(z.union([lockedEntry, entryObject])), nextPageToken: z.string().optional() });

export const getEntriesV1: MethodSpec = {
  description: 'Lists entries, filtered by ids, author, scope or name, one numbered page at a time.',
  request: open({
    ...getEntriesArgs,
    ids: oneOrMany.optional(),
    createdBy: z.union([z.string(), z.array(z.string())]).optional(),
    // Numbered pages are served by following page tokens, walking from the nearest known one (v2/entries-page-token.ts).
    page: z.number().int().min(0).max(100_000).optional().describe('Page number, from 0: 0 (or no page) is the first page.'),
    // A v1 page above the backend's 200 is filled by the gateway from the pages that follow (main's page walk).
    pageSize: z.number().int().min(1).max(1000).optional(),
  }),
  response: entriesAnswer,
};
