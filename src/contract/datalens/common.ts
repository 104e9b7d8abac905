// Building blocks shared by the DataLens catalogue files: the two object rules, ids, scopes, permissions, operations.
//
// Sources (github.com/datalens-tech/datalens-ui, commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8):
//   src/shared/types/common.ts (EntryScope, EntryUpdateMode), src/shared/zod-schemas/permissions.ts,
//   src/shared/schema/us/schemas/operation/index.ts, src/shared/schema/us/schemas/{collections,workbooks}/index.ts.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';

type Shape = Parameters<typeof z.looseObject>[0];

/**
 * The unknown-field rule (docs/reference/catalogue.md): where the real schema is strict, a request object refuses
 * fields it does not name (`strict`); everywhere else they pass to the backend unchanged (`open`).
 */
export const open = <S extends Shape>(shape: S) => z.looseObject(shape);
export const strict = <S extends Shape>(shape: S) => z.strictObject(shape);

/** An answer object: the fields real clients read, with any others kept. */
export const answer = open;

export const id = z.string();
/** `null` (or, where the real schema allows it, absence) means the root collection or "not in a workbook". */
export const nullableId = z.string().nullable();
export const ids = z.array(z.string());
export const flag = z.boolean().optional();
export const text = z.string().optional();
/** A JSON object whose contents the real schema leaves open. */
export const record = z.record(z.string(), z.unknown());

/** United Storage entry scopes (EntryScope). */
export const ENTRY_SCOPES = ['dash', 'widget', 'dataset', 'folder', 'connection'] as const;
export const entryScope = z.enum(ENTRY_SCOPES);
/** How a revision is stored (EntryUpdateMode). */
export const updateMode = z.enum(['save', 'publish']);
/** Which revision to read. */
export const branch = z.enum(['saved', 'published']);
/** Sort fields and directions of the collection and workbook listings (src/shared/schema/us/types/sort.ts). */
export const orderField = z.enum(['title', 'createdAt', 'updatedAt']);
export const orderDirection = z.enum(['asc', 'desc']);
/** The entry listings' order: by name or creation time. */
export const entriesOrderBy = open({ field: z.enum(['createdAt', 'name']), direction: orderDirection });
export const annotation = open({ description: z.string() });

/** An entry's permissions (src/shared/zod-schemas/permissions.ts). */
export const permissions = answer({ execute: z.boolean(), read: z.boolean(), edit: z.boolean(), admin: z.boolean() });

const time = answer({ seconds: z.string(), nanos: z.number().optional() });
/** A long-running United Storage operation, as create/delete answers carry it. */
export const operation = answer({
  id: z.string(),
  description: z.string(),
  createdBy: z.string(),
  createdAt: time,
  modifiedAt: time,
  metadata: record,
  done: z.boolean(),
});

const rights = (required: readonly string[], optional: readonly string[] = []) =>
  answer({ ...Object.fromEntries(required.map((k) => [k, z.boolean()])), ...Object.fromEntries(optional.map((k) => [k, z.boolean().optional()])) });

/**
 * What the caller may do with a collection (includePermissionsInfo): the keys the real v1 OpenAPI document requires
 * (datalens-ui f581b7c, /1/json/), and the five more its storage answers (the recorded getCollection answer).
 */
export const collectionPermissions = rights(
  ['listAccessBindings', 'updateAccessBindings', 'createSharedEntry', 'createCollection', 'createWorkbook', 'limitedView', 'view', 'update', 'copy', 'move', 'delete'],
  ['createSparkCluster', 'createTrinoCluster', 'securityManage', 'securityApprove', 'browse'],
);
/** What the caller may do with a workbook (the real v1 OpenAPI document, datalens-ui f581b7c, /1/json/). */
export const workbookPermissions = rights(['listAccessBindings', 'updateAccessBindings', 'limitedView', 'view', 'update', 'copy', 'move', 'publish', 'embed', 'delete']);
/** An entry's full rights, as getEntriesRelations answers them (the real v1 OpenAPI document, datalens-ui f581b7c). */
export const entryFullPermissions = rights([
  'listAccessBindings', 'updateAccessBindings', 'limitedView', 'view', 'update', 'copy', 'move', 'delete', 'createEntryBinding', 'createLimitedEntryBinding',
]);

export const collection = answer({
  collectionId: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  parentId: z.string().nullable(),
  tenantId: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedBy: z.string(),
  updatedAt: z.string(),
  meta: record,
  permissions: collectionPermissions.optional(),
  operation: operation.optional(),
});

export const workbook = answer({
  workbookId: z.string(),
  collectionId: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  tenantId: z.string(),
  meta: answer({ importId: z.string().optional() }),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedBy: z.string(),
  updatedAt: z.string(),
  status: z.enum(['creating', 'deleting', 'active', 'deleted']).optional(),
  permissions: workbookPermissions.optional(),
  operation: operation.optional(),
});

/**
 * The gateway's stamp on an object whose real `version` is its format version (dashboards, Editor charts): the API
 * version it was saved under (docs/reference/object-versions.md).
 */
export const apiVersionStamp = z.number().int().positive().describe('The API version the object was last saved under.');

/** A United Storage entry as chart and dashboard answers carry it (src/shared/schema/mix/schemas/dash/dash-v1.ts). */
export const storedEntry = answer({
  entryId: z.string(),
  key: z.string().nullable(),
  scope: z.string(),
  type: z.string(),
  revId: z.string(),
  savedId: z.string(),
  publishedId: z.string().nullable(),
  workbookId: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  hidden: z.boolean(),
  public: z.boolean(),
  tenantId: z.string(),
  meta: record.nullable(),
  links: z.record(z.string(), z.string()).nullable().optional(),
  annotation: answer({ description: z.string().optional() }).nullable().optional(),
  data: record,
});

/** An empty answer, as the delete methods of charts and dashboards give. */
export const empty = answer({});

/** One method; `emptyBody` when the real method takes no arguments (or only an optional object of them). */
export const method = (
  description: string,
  request: z.ZodType,
  response: z.ZodType,
  options: { emptyBody?: boolean } = {},
): MethodSpec => ({ description, request, response, ...options });
