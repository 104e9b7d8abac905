// Version 2, the request fields real v2 clients send that version 1's strict schemas lack (or values their enums
// lack): accepted from version 2 on as compatible additions, so no real v2 body is refused. Version 1 is unchanged.
//
// Source: the real spec (spec-source.ts): UpdateDashboardV2Args.lockToken (the v2 document's UpdateDashboardV1Args
// takes it too: yandex-cloud/docs en/datalens/release-notes/api-changelog.md, entry locks), the inline /rpc/updateDataset
// body's workbookId, the inline /rpc/validateDataset body's bindedDatasetId and workbookId, GetStructureItemsArgs.mode
// ("onlyEntries"), GetEntriesRelationsArgs.scope (EntryScope with "report").

import { z } from 'zod';
import { custom, request } from '../../core/contract-model/builders.js';
import type { CustomChange, MethodSpec } from '../../core/contract-model/types.js';
import { ENTRY_SCOPES } from '../datalens/common.js';

type Extender = (schema: z.ZodObject) => z.ZodObject;

/** Method → how its version-1 request schema grows at version 2 (strictness kept: `extend` keeps the object's rule). */
const EXTENSIONS: Readonly<Record<string, Extender>> = {
  updateDashboard: (s) => s.extend({ lockToken: z.string().optional() }),
  updateDataset: (s) => s.extend({ workbookId: z.string().nullable().optional() }),
  validateDataset: (s) => s.extend({ bindedDatasetId: z.string().nullable().optional() }),
  getCollectionContent: (s) => s.extend({ mode: z.enum(['all', 'onlyCollections', 'onlyWorkbooks', 'onlyEntries']).optional() }),
  getEntriesRelations: (s) => s.extend({ scope: z.enum([...ENTRY_SCOPES, 'report']).optional() }),
};

/** `methods` with the real v2 request fields added to the methods that lack them. */
export function withRealRequestFields(methods: Readonly<Record<string, MethodSpec>>): Record<string, MethodSpec> {
  return Object.fromEntries(
    Object.entries(methods).map(([name, spec]) => {
      const extend = EXTENSIONS[name];
      if (extend === undefined) return [name, spec];
      if (!(spec.request instanceof z.ZodObject)) throw new Error(`${name}: request is not an object schema`);
      return [name, { ...spec, request: extend(spec.request) }];
    }),
  );
}

export const realRequestFields: CustomChange = custom({
  description:
    'Real version-2 request fields are accepted: updateDashboard `lockToken` (write a locked dashboard), updateDataset ' +
    '`workbookId`, validateDataset `bindedDatasetId`, getCollectionContent `mode: "onlyEntries"` and getEntriesRelations ' +
    '`scope: "report"`.',
  compatible: true,
  covers: [
    { target: request('updateDashboard'), path: 'lockToken' },
    { target: request('updateDataset'), path: 'workbookId' },
    { target: request('validateDataset'), path: 'bindedDatasetId' },
    { target: request('getCollectionContent'), path: 'mode' },
    { target: request('getEntriesRelations'), path: 'scope' },
  ],
});
