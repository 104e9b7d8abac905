// Workbook export and import: each is an operation, accepted at once and then completed (pending → success).
// Shapes: datalens-tech/datalens-ui src/shared/schema/meta-manager/schemas/{export,import}/*.ts.
// The export payload is ours: the workbook's title and description and its entries, each with the version it was
// saved under; an import keeps those versions (a version-1 client importing newer objects cannot then rewrite them).

import { createHash } from 'node:crypto';
import { BackendError } from '../shared/errors.js';
import { ENTRY_SCOPES, type EntryScope } from '../stores/index.js';
import { nameOf } from '../stores/entries.js';
import type { Operation } from '../stores/operations.js';
import { actorOf, fromContract, type MethodHandler } from './context.js';

type Json = Record<string, unknown>;

interface ExportedEntry {
  scope: EntryScope;
  type: string;
  name: string;
  data: Json | null;
  meta: Json | null;
  version: number;
}

const status = (op: Operation, idField: 'exportId' | 'importId'): Json => ({
  [idField]: op.id,
  ...(idField === 'importId' && { workbookId: op.workbookId }),
  status: op.status,
  progress: op.progress,
  notifications: op.notifications.map((n) => ({ ...n })),
});

const invalidData = (message: string) => new BackendError('VALIDATION_ERROR', message, { issues: [{ path: 'data', message }] });

/** The entries of an export payload, checked: each a known scope, a name, and a version this backend knows. */
function exportedEntries(data: Json, headVersion: number): ExportedEntry[] {
  const entries = (data.export as Json | undefined)?.entries;
  if (!Array.isArray(entries)) throw invalidData('data.export.entries must be the list an export produced.');
  return entries.map((raw: unknown) => {
    const e = raw as Partial<ExportedEntry> | null;
    if (e === null || typeof e !== 'object' || !ENTRY_SCOPES.includes(e.scope as EntryScope) || typeof e.name !== 'string') {
      throw invalidData('every exported entry needs a scope and a name.');
    }
    const version = Number.isInteger(e.version) && (e.version as number) >= 1 && (e.version as number) <= headVersion ? (e.version as number) : headVersion;
    return { scope: e.scope as EntryScope, type: typeof e.type === 'string' ? e.type : '', name: e.name, data: e.data ?? null, meta: e.meta ?? null, version };
  });
}

export const exportImportMethods: Record<string, MethodHandler> = {
  startWorkbookExport: fromContract('startWorkbookExport', (args, { store }) => {
    const workbook = store.workbooks.require(args.workbookId);
    const entries = store.entries.list((e) => e.workbookId === workbook.workbookId).map(
      (e): ExportedEntry => ({ scope: e.scope, type: e.type, name: nameOf(e.key), data: structuredClone(e.data), meta: structuredClone(e.meta), version: e.version }),
    );
    const exported = { workbook: { title: workbook.title, description: workbook.description }, entries };
    const hash = createHash('sha256').update(JSON.stringify(exported)).digest('hex');
    return { exportId: store.operations.start('export', workbook.workbookId, { export: exported, hash }).id };
  }),

  getWorkbookExportStatus: fromContract('getWorkbookExportStatus', (args, { store }) => status(store.operations.poll(args.exportId, 'export'), 'exportId')),

  getWorkbookExportResult: fromContract('getWorkbookExportResult', (args, { store }) => {
    const op = store.operations.require(args.exportId, 'export');
    if (op.status !== 'success') {
      throw new BackendError('OPERATION_NOT_FINISHED', `Export ${op.id} has not finished (status ${op.status}).`, { exportId: op.id, status: op.status });
    }
    return { exportId: op.id, status: op.status, data: structuredClone(op.payload) };
  }),

  cancelWorkbookExport: fromContract('cancelWorkbookExport', (args, { store }) => ({ exportId: store.operations.cancel(args.exportId).id })),

  startWorkbookImport: fromContract('startWorkbookImport', (args, ctx) => {
    const { store } = ctx;
    const entries = exportedEntries(args.data as Json, store.headVersion);
    const collectionId = (args.collectionId as string | null | undefined) ?? null;
    if (collectionId !== null) store.collections.require(collectionId);
    const actor = actorOf(ctx);
    const workbook = store.workbooks.create({ title: args.title, description: args.description, collectionId }, actor, ctx.clientVersion);
    // The entries appear when the import completes (the status poll that reports success).
    const op = store.operations.start('import', workbook.workbookId, args.data as Json, () => {
      if (!store.workbooks.has(workbook.workbookId)) return;
      for (const e of entries) {
        store.entries.create({ key: `${workbook.workbookId}/${e.name}`, scope: e.scope, type: e.type, workbookId: workbook.workbookId, data: e.data, meta: e.meta }, actor, e.version);
      }
    });
    workbook.meta = { ...workbook.meta, importId: op.id };
    return { importId: op.id, workbookId: workbook.workbookId };
  }),

  getWorkbookImportStatus: fromContract('getWorkbookImportStatus', (args, { store }) => status(store.operations.poll(args.importId, 'import'), 'importId')),
};
