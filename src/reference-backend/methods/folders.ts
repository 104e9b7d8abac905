// Folder and permission methods (version 2 additions: the API changelog names them; no source publishes their
// arguments, so these are ours). A folder is a key prefix of entries outside workbooks ("reports/marketing/").
// Arguments: deleteFolder `{key}`; moveFolderEntry `{entryId, destination}` (a folder key); getPermissions
// `{entryId}`; modifyPermissions `{entryId, grants}`; dlsSuggest `{search}`; batchListMembers `{subjectIds}`.
// This backend enforces no access control: permissions are recorded and answered, never checked.

import { z } from 'zod';
import { BackendError } from '../shared/errors.js';
import { assertWritableBy, restamp } from '../stores/index.js';
import { nameOf } from '../stores/entries.js';
import { ENTRY_PERMISSIONS, actorOf, fromContract, type MethodHandler } from './context.js';
import { entryView } from './views.js';

const folderKey = z.string().min(1).refine((k) => k.endsWith('/'), 'a folder key ends with "/"');

const invalid = (path: string, message: string) => new BackendError('VALIDATION_ERROR', message, { issues: [{ path, message }] });

export const folderMethods: Record<string, MethodHandler> = {
  deleteFolder: fromContract('deleteFolder', (args, ctx) => {
    const key = folderKey.safeParse(args.key);
    if (!key.success) throw invalid('key', 'key must be a folder key ending with "/".');
    const inside = ctx.store.entries.list((e) => e.workbookId === null && e.key.startsWith(key.data));
    // Guard every entry first: a refused delete removes nothing.
    for (const e of inside) {
      assertWritableBy(e, e.entryId, ctx.clientVersion);
      ctx.store.locks.assertWritable(e.entryId, undefined);
    }
    for (const e of inside) ctx.store.entries.delete(e.entryId);
    return { key: key.data, deletedEntryIds: inside.map((e) => e.entryId) };
  }, z.looseObject({ key: z.string() })),

  moveFolderEntry: fromContract('moveFolderEntry', (args, ctx) => {
    const entry = ctx.store.entries.require(args.entryId);
    if (entry.workbookId !== null) throw invalid('entryId', 'a workbook entry is not in a folder.');
    const destination = folderKey.safeParse(args.destination);
    if (!destination.success) throw invalid('destination', 'destination must be a folder key ending with "/".');
    assertWritableBy(entry, entry.entryId, ctx.clientVersion);
    ctx.store.locks.assertWritable(entry.entryId, args.lockToken);
    entry.key = `${destination.data}${nameOf(entry.key)}`;
    restamp(entry, actorOf(ctx), ctx.clientVersion);
    return entryView(entry);
  }, z.looseObject({ entryId: z.string().min(1), destination: z.string() })),

  getPermissions: fromContract('getPermissions', (args, { store }) => {
    store.entries.require(args.entryId);
    return { entryId: args.entryId, permissions: { ...ENTRY_PERMISSIONS }, grants: store.grants.get(args.entryId) ?? [] };
  }, z.looseObject({ entryId: z.string().min(1) })),

  modifyPermissions: fromContract('modifyPermissions', (args, { store }) => {
    store.entries.require(args.entryId);
    const grants = Array.isArray(args.grants) ? (args.grants as Record<string, unknown>[]) : [];
    store.grants.set(args.entryId, grants);
    return { entryId: args.entryId, grants };
  }, z.looseObject({ entryId: z.string().min(1), grants: z.array(z.record(z.string(), z.unknown())).optional() })),

  dlsSuggest: fromContract('dlsSuggest', (args, { store }) => {
    const search = typeof args.search === 'string' ? args.search.toLowerCase() : '';
    const authors = new Set(store.entries.list(() => true).map((e) => e.createdBy));
    return { suggest: [...authors].filter((a) => a.toLowerCase().includes(search)).map((a) => ({ subjectId: a, name: a, type: 'user' })) };
  }),

  batchListMembers: fromContract('batchListMembers', (args) => {
    const ids = Array.isArray(args.subjectIds) ? (args.subjectIds as unknown[]).filter((s): s is string => typeof s === 'string') : [];
    // Every subject here is a single user: a group of one.
    return { members: Object.fromEntries(ids.map((id) => [id, [{ subjectId: id, type: 'user' }]])) };
  }),
};
