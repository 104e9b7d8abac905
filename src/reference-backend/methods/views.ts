// The answers' shapes, built from the stored objects. Nested values (data, meta) are shared with the store, not
// copied: an answer is serialised before the next request runs, and stored values are replaced, never mutated.
// Sources, datalens-tech/datalens-ui: src/shared/schema/us/schemas/{collections,workbooks}/index.ts,
// src/shared/schema/us/types/fields.ts (EntryFields), src/shared/schema/us/schemas/entries/get-entries.ts,
// src/shared/schema/us/schemas/workbooks/get-workbook-entries.ts, src/shared/schema/mix/schemas/dash/dash-v1.ts,
// src/shared/types/dataset.ts (Dataset), src/shared/types/connections.ts (ConnectionData).

import type { Collection, Entry, Workbook } from '../stores/index.js';
import { nameOf } from '../stores/entries.js';
import { dashboardV3 } from './dash-v3.js';
import { COLLECTION_PERMISSIONS, ENTRY_PERMISSIONS, WORKBOOK_PERMISSIONS } from './context.js';

type Json = Record<string, unknown>;

export function collectionView(c: Collection, withPermissions = false): Json {
  return { ...c, meta: c.meta, ...(withPermissions && { permissions: { ...COLLECTION_PERMISSIONS } }) };
}

export function workbookView(w: Workbook, withPermissions = false): Json {
  return { ...w, meta: w.meta, ...(withPermissions && { permissions: { ...WORKBOOK_PERMISSIONS } }) };
}

/** The format version real DataLens answers in Editor charts' `version` (dash-v1.ts DASH_VERSION_1). */
export const FORMAT_VERSION = 1;
/** The format version of a dashboard at API version 3 (DashboardV2.version, the v3 OpenAPI document). */
export const DASH_FORMAT_VERSION = 2;

/**
 * The version stamp's fields: `version` by default; for a kind whose real `version` is its format version
 * (`formatVersion`), the stamp goes in `apiVersion` (src/contract/datalens/objects.ts API_VERSION_FIELD).
 */
const stampOf = (e: Entry, formatVersion: boolean | number | undefined): Json =>
  formatVersion ? { version: formatVersion === true ? FORMAT_VERSION : formatVersion, apiVersion: e.version } : { version: e.version };

/** What US answers for an entry (EntryFields), the chart methods' answer. */
export function entryView(
  e: Entry,
  options: { permissions?: boolean | undefined; links?: boolean | undefined; locked?: boolean; formatVersion?: boolean | number } = {},
): Json {
  return {
    entryId: e.entryId,
    key: e.key,
    scope: e.scope,
    type: e.type,
    workbookId: e.workbookId,
    collectionId: e.collectionId,
    tenantId: e.tenantId,
    revId: e.revId,
    savedId: e.savedId,
    publishedId: e.publishedId,
    data: e.data,
    meta: e.meta,
    links: options.links === false ? null : (e.links ?? {}),
    annotation: e.annotation,
    hidden: e.hidden,
    public: e.public,
    createdAt: e.createdAt,
    createdBy: e.createdBy,
    updatedAt: e.updatedAt,
    updatedBy: e.updatedBy,
    ...stampOf(e, options.formatVersion),
    // Real chart reads answer `sourceVersion: null` (no source-version feature in open-source DataLens).
    sourceVersion: null,
    isFavorite: false,
    isLocked: options.locked === true,
    ...(options.permissions && { permissions: { ...ENTRY_PERMISSIONS } }),
  };
}

/**
 * A chart's create/update answer as the real charts engine gives it (the recorded v1 answers of datalens-ui
 * f581b7c): `meta` names the chart's type (`stype`) and its owner, and a create answers the caller's permissions.
 */
export function savedChartView(view: Json, created: boolean): Json {
  return {
    ...view,
    meta: { ...((view.meta as Json | null) ?? {}), stype: view.type, owner: view.createdBy },
    ...(created && { permissions: { ...ENTRY_PERMISSIONS } }),
  };
}

/** The chart's config as the real create/update answers hold it too: JSON text in `data.shared` (4-space indent). */
export const withShared = (data: unknown): Json => ({ ...((data as Json | null) ?? {}), shared: JSON.stringify(data, null, 4) });

/** One getEntries row: navigation fields; the content (`data`) only with includeData. */
export function entryRow(
  e: Entry,
  workbookTitle: string | null,
  options: { data?: boolean; links?: boolean; permissions?: boolean; locked?: boolean; collectionTitle?: string | null },
): Json {
  return {
    entryId: e.entryId,
    key: e.key,
    name: nameOf(e.key),
    scope: e.scope,
    type: e.type,
    meta: e.meta,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    createdBy: e.createdBy,
    updatedBy: e.updatedBy,
    savedId: e.savedId,
    publishedId: e.publishedId,
    hidden: e.hidden,
    workbookId: e.workbookId,
    workbookTitle,
    collectionId: e.collectionId,
    collectionTitle: options.collectionTitle ?? null,
    annotation: e.annotation,
    isFavorite: false,
    isLocked: options.locked === true,
    links: options.links ? (e.links ?? {}) : null,
    version: e.version,
    ...(options.data && { data: e.scope === 'dash' ? dashboardV3(e.data, e.annotation).data : e.data }),
    ...(options.permissions && { permissions: { ...ENTRY_PERMISSIONS } }),
  };
}

/** One getWorkbookEntries row. */
export function workbookEntryRow(e: Entry, withPermissions: boolean): Json {
  return {
    entryId: e.entryId,
    scope: e.scope,
    type: e.type,
    key: e.key,
    displayKey: e.key,
    createdBy: e.createdBy,
    createdAt: e.createdAt,
    updatedBy: e.updatedBy,
    updatedAt: e.updatedAt,
    savedId: e.savedId,
    publishedId: e.publishedId,
    revId: e.revId,
    meta: e.meta,
    hidden: e.hidden,
    workbookId: e.workbookId,
    collectionId: e.collectionId,
    tenantId: e.tenantId,
    isFavorite: false,
    isLocked: false,
    mirrored: false,
    version: e.version,
    ...(withPermissions && { permissions: { ...ENTRY_PERMISSIONS } }),
  };
}

/** One getEntriesRelations row. */
export function relationRow(e: Entry, withPermissions: boolean): Json {
  return {
    entryId: e.entryId,
    // Real US answers no key for an entry that lives in a workbook (its key is internal there).
    key: e.workbookId === null ? e.key : null,
    scope: e.scope,
    type: e.type,
    createdAt: e.createdAt,
    public: e.public,
    tenantId: e.tenantId,
    workbookId: e.workbookId,
    collectionId: e.collectionId,
    isLocked: false,
    version: e.version,
    ...(withPermissions && { permissions: { ...ENTRY_PERMISSIONS } }),
  };
}

/** getDashboard's answer: `{entry, isFavorite?, permissions?}`, the entry in the DashboardV2 format (a dashboard saved earlier is migrated). */
export function dashboardView(e: Entry, options: { permissions?: boolean | undefined; favorite?: boolean | undefined; links?: boolean | undefined } = {}): Json {
  const { isFavorite: _f, isLocked: _l, collectionId: _c, ...entry } = entryView(e, { links: options.links ?? true, formatVersion: DASH_FORMAT_VERSION });
  const { data, annotation } = dashboardV3(e.data, e.annotation);
  return {
    entry: { ...entry, data, annotation },
    ...(options.favorite && { isFavorite: false }),
    ...(options.permissions && { permissions: { ...ENTRY_PERMISSIONS } }),
  };
}

/** The compatible addition to datasets (contract: v1 additions): a dataset saved before it reads `description: ""`. */
export const DATASET_DESCRIPTION_DEFAULT = '';

/** A dataset as the BI API reads it (Dataset), with the version it was saved under. */
export function datasetView(e: Entry): Json {
  const data = (e.data ?? {}) as Json;
  const dataset = { ...((data.dataset as Json | undefined) ?? {}) };
  if (typeof dataset.description !== 'string') dataset.description = DATASET_DESCRIPTION_DEFAULT;
  return {
    id: e.entryId,
    key: e.key,
    realName: nameOf(e.key),
    is_favorite: false,
    workbook_id: e.workbookId,
    dataset,
    options: (data.options as Json | undefined) ?? {},
    version: e.version,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
  };
}

/**
 * Connector settings the real spec marks write-only (ConnectionCreate/ConnectionRead variants in datalens-tech/
 * datalens-sdk spec/yacloud.json: password, ssl_ca, token, credentials, client_secret, refresh_token, auth_header):
 * accepted on writes, never read back.
 */
const WRITE_ONLY_SETTINGS = new Set(['password', 'ssl_ca', 'token', 'credentials', 'client_secret', 'refresh_token', 'auth_header']);

/**
 * A connection as the BI API reads it (ConnectionRead): its settings at the top level beside id, key, name and its
 * connector `type`, without the write-only ones; the read variants name no workbook_id (they are closed objects).
 */
export function connectionView(e: Entry): Json {
  const settings = Object.fromEntries(Object.entries((e.data ?? {}) as Json).filter(([k]) => !WRITE_ONLY_SETTINGS.has(k)));
  return {
    ...settings,
    id: e.entryId,
    key: e.key,
    name: nameOf(e.key),
    type: e.type,
    meta: e.meta,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
    version: e.version,
  };
}
