// Folder and permission methods (version 2 additions), shaped as the real spec's components
// (datalens-tech/datalens-sdk spec/yacloud.json, commit 021501bb6ccd3165eaa128155d91f67e01525fe9): deleteFolder
// DeleteFolderArgs `{folderId}`; moveFolderEntry MoveEntryArgs `{entryId, destination, name?}` → MoveEntryResult
// (a list); getPermissions GetPermissionsArgs → GetPermissionsResult; modifyPermissions ModifyPermissionsArgs
// `{entryId, body: {diff: {added, modified, removed}}}` → `{result: "ok"}`; dlsSuggest `{searchText}` → a list of
// DlsPermissionUnit; batchListMembers → AccessExtBatchListMembersResult. A folder here is a key prefix of entries
// outside workbooks ("reports/marketing/"); deleteFolder also takes that `key`. No access control is enforced:
// grants are recorded and answered, never checked.

import { z } from 'zod';
import { BackendError } from '../shared/errors.js';
import { assertWritableBy, restamp } from '../stores/index.js';
import { nameOf } from '../stores/entries.js';
import { implicitFolderId } from '../stores/folders.js';
import { actorOf, fromContract, type CallContext, type MethodHandler } from './context.js';

type Json = Record<string, unknown>;

const folderKey = z.string().min(1).refine((k) => k.endsWith('/'), 'a folder key ends with "/"');

const invalid = (path: string, message: string) => new BackendError('VALIDATION_ERROR', message, { issues: [{ path, message }] });

/** The ACL levels of a folder entry's permissions (DlsInitialPermissions, GetPermissionsResult). */
const ACLS = ['acl_adm', 'acl_edit', 'acl_execute', 'acl_view'] as const;
type Acl = (typeof ACLS)[number];
const isAcl = (v: unknown): v is Acl => typeof v === 'string' && (ACLS as readonly string[]).includes(v);

/** One recorded grant: a subject at an ACL level. */
interface Grant {
  grantType: Acl;
  subject: string;
  comment?: string;
}

/** The subjects of one diff section (`{acl_view: [{subject, comment?, new?}], …}`), each with its level. */
function diffItems(section: unknown): { acl: Acl; item: Json }[] {
  if (section === null || typeof section !== 'object') return [];
  return Object.entries(section as Json).flatMap(([acl, items]) =>
    isAcl(acl) && Array.isArray(items) ? items.filter((i): i is Json => i !== null && typeof i === 'object' && typeof (i as Json).subject === 'string').map((item) => ({ acl, item })) : [],
  );
}

/** A subject as DlsPermissionUnit describes one (`user:alice@example.com` or a bare login). */
const unitOf = (subject: string): Json => ({ name: subject, title: subject.replace(/^user:/, ''), type: 'user' });

/** A granted subject as DlsPermissionParticipant. */
const participantOf = (grant: Grant): Json => ({
  name: grant.subject,
  kind: 'user',
  description: grant.comment ?? '',
  extras: null,
  subject: unitOf(grant.subject),
  requester: null,
  approver: null,
});

/** A user as AccessExtSubjectClaims: the login is its id, e-mail and names alike. */
function claimsOf(login: string): Json {
  const given = login.split('@')[0] ?? login;
  return { sub: login, subType: 'USER_ACCOUNT', email: login.includes('@') ? login : '', name: login, givenName: given, familyName: '', preferredUsername: given };
}

/** Everyone who wrote an entry: the subjects this backend knows. */
const knownSubjects = (ctx: CallContext): string[] => [
  ...new Set(ctx.store.entries.list(() => true).map((e) => e.createdBy)),
];

/** The folder key whose derived id is `id`, among the folders entry keys imply. */
function impliedFolderKey(ctx: CallContext, id: string): string | undefined {
  for (const e of ctx.store.entries.list((x) => x.workbookId === null)) {
    const parts = e.key.split('/');
    for (let i = 1; i < parts.length; i++) {
      const key = `${parts.slice(0, i).join('/')}/`;
      if (implicitFolderId(key) === id) return key;
    }
  }
  return undefined;
}

export const folderMethods: Record<string, MethodHandler> = {
  deleteFolder: fromContract('deleteFolder', (args, ctx) => {
    // A folderId names a folder made with createFolder, one implied by entry keys, or an entry whose key is the
    // folder (helpers that make folder entries); a key names the prefix.
    const folderId = typeof args.folderId === 'string' ? args.folderId : undefined;
    const madeKey = folderId === undefined ? undefined : (ctx.store.folders.byId(folderId)?.key ?? impliedFolderKey(ctx, folderId));
    const byId = folderId === undefined || madeKey !== undefined ? undefined : ctx.store.entries.require(folderId);
    const raw = madeKey ?? (byId === undefined ? args.key : byId.key.endsWith('/') ? byId.key : `${byId.key}/`);
    const key = folderKey.safeParse(raw);
    if (!key.success) throw invalid(byId === undefined ? 'folderId' : 'key', 'folderId must name a folder (or key a folder key ending with "/").');
    const inside = ctx.store.entries.list((e) => e.workbookId === null && e.key.startsWith(key.data) && e.entryId !== byId?.entryId);
    const doomed = byId === undefined ? inside : [...inside, byId];
    // Guard every entry first: a refused delete removes nothing.
    for (const e of doomed) {
      assertWritableBy(e, e.entryId, ctx.access);
      ctx.store.locks.assertWritable(e.entryId, undefined);
    }
    for (const e of doomed) ctx.store.entries.delete(e.entryId);
    ctx.store.folders.deleteUnder(key.data);
    return { key: key.data, deletedEntryIds: inside.map((e) => e.entryId) };
  }, z.looseObject({ folderId: z.string().optional(), key: z.string().optional() })),

  moveFolderEntry: fromContract('moveFolderEntry', (args, ctx) => {
    const entry = ctx.store.entries.require(args.entryId);
    if (entry.workbookId !== null) throw invalid('entryId', 'a workbook entry is not in a folder.');
    const destination = folderKey.safeParse(args.destination);
    if (!destination.success) throw invalid('destination', 'destination must be a folder key ending with "/".');
    if (args.name !== undefined && (typeof args.name !== 'string' || args.name === '' || args.name.includes('/'))) throw invalid('name', 'name must be a non-empty name without "/".');
    assertWritableBy(entry, entry.entryId, ctx.access);
    ctx.store.locks.assertWritable(entry.entryId, args.lockToken);
    entry.key = `${destination.data}${(args.name as string | undefined) ?? nameOf(entry.key)}`;
    restamp(entry, actorOf(ctx), ctx.clientVersion);
    return [{ entryId: entry.entryId, key: entry.key, scope: entry.scope, type: entry.type }];
  }, z.looseObject({ entryId: z.string().min(1), destination: z.string(), name: z.string().optional() })),

  getPermissions: fromContract('getPermissions', (args, { store }) => {
    store.entries.require(args.entryId);
    const grants = (store.grants.get(args.entryId) ?? []) as unknown as Grant[];
    const permissions = Object.fromEntries(ACLS.map((acl) => [acl, grants.filter((g) => g.grantType === acl).map(participantOf)]));
    return { editable: true, permissions, pendingPermissions: Object.fromEntries(ACLS.map((acl) => [acl, []])) };
  }, z.looseObject({ entryId: z.string().min(1) })),

  modifyPermissions: fromContract('modifyPermissions', (args, { store }) => {
    store.entries.require(args.entryId);
    const diff = ((args.body as Json | undefined)?.diff ?? {}) as Json;
    let grants = (store.grants.get(args.entryId) ?? []) as unknown as Grant[];
    const drop = (acl: Acl, subject: string) => {
      grants = grants.filter((g) => !(g.grantType === acl && g.subject === subject));
    };
    for (const { acl, item } of diffItems(diff.removed)) drop(acl, item.subject as string);
    for (const { acl, item } of diffItems(diff.modified)) {
      const next = item.new as Json | undefined;
      drop(acl, item.subject as string);
      if (next && isAcl(next.grantType) && typeof next.subject === 'string') grants.push({ grantType: next.grantType, subject: next.subject, ...(typeof item.comment === 'string' && { comment: item.comment }) });
    }
    for (const { acl, item } of diffItems(diff.added)) {
      drop(acl, item.subject as string);
      grants.push({ grantType: acl, subject: item.subject as string, ...(typeof item.comment === 'string' && { comment: item.comment }) });
    }
    store.grants.set(args.entryId, grants as unknown as Json[]);
    return { result: 'ok' };
  }, z.looseObject({ entryId: z.string().min(1), body: z.looseObject({ diff: z.looseObject({}) }) })),

  dlsSuggest: fromContract('dlsSuggest', (args, ctx) => {
    const search = typeof args.searchText === 'string' ? args.searchText.toLowerCase() : '';
    return knownSubjects(ctx).filter((s) => s.toLowerCase().includes(search)).map(unitOf);
  }, z.looseObject({ searchText: z.string() })),

  batchListMembers: fromContract('batchListMembers', (args, ctx) => {
    const search = typeof args.search === 'string' ? args.search.toLowerCase() : '';
    const tab = typeof args.tabId === 'string' ? args.tabId : 'USER_ACCOUNT';
    // Every subject here is a user account: other tabs list nobody.
    const users = tab === 'USER_ACCOUNT' || tab === 'SUBJECT_TYPE_UNSPECIFIED' ? knownSubjects(ctx).filter((s) => s.toLowerCase().includes(search)) : [];
    return { members: users.map(claimsOf), nextPageToken: '' };
  }),
};
