// API version 2: two incompatible changes released together (so one bump): reports move from keys to
// workbooks, and getEntries pages by token.

import type { VersionSpec } from '../../core/contract-model/types.js';
import { ENTRIES_LIST_OBJECTS } from '../datalens/objects.js';
import { version1 } from '../v1/index.js';
import { withAuditMode } from './audit-mode.js';
import { datalensChangesV2, datalensMethodsV2 } from './datalens-additions.js';
import { entriesPageToken, getEntriesV2 } from './entries-page-token.js';
import { realRequestFields, withRealRequestFields } from './real-request-fields.js';
import { reportMethodsV2, reportsWorkbookId } from './reports-workbook-id.js';

export const version2: VersionSpec = {
  version: 2,
  // The 13 audit-mode getters take the optional x-dl-audit-mode header from version 2 on (audit-mode.ts); real v2
  // request fields v1's strict schemas lack are added (real-request-fields.ts).
  methods: withAuditMode(
    withRealRequestFields({ ...version1.methods, ...datalensMethodsV2, ...reportMethodsV2, getEntries: { ...getEntriesV2, objects: ENTRIES_LIST_OBJECTS } }),
  ),
  changes: [reportsWorkbookId, entriesPageToken, ...datalensChangesV2, realRequestFields],
};
