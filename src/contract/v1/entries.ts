// Version 1 getEntries: filters take one id or many, and pages are numbered.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract/types.js';

const oneOrMany = z.union([z.string().min(1), z.array(z.string().min(1))]);

export const entryObject = z.looseObject({
  entryId: z.string(),
  key: z.string(),
  scope: z.string(),
  type: z.string().optional(),
  workbookId: z.string().nullable().optional(),
  createdBy: z.string().optional(),
  version: z.number().int().optional(),
});

export const getEntriesV1: MethodSpec = {
  description: 'Lists entries, filtered by ids, author and scope, one numbered page at a time.',
  request: z.looseObject({
    ids: oneOrMany.optional(),
    createdBy: oneOrMany.optional(),
    scope: z.string().optional(),
    // Numbered pages are served by following page tokens; far jumps are bounded (see v2/entries-page-token.ts).
    page: z.number().int().min(0).max(100_000).optional().describe('Page number, from 0: 0 (or no page) is the first page.'),
    pageSize: z.number().int().min(1).max(1000).optional(),
  }),
  response: z.looseObject({ entries: z.array(entryObject), nextPageToken: z.string().optional() }),
};
