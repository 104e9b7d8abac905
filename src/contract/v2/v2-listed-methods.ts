// Methods the API changelog adds at version 2: folders and permissions (15.06.2026), HTML pages and entry locks
// (28.07.2026).
//
// Sources: github.com/yandex-cloud/docs, en/datalens/release-notes/api-changelog.md (names and purpose). The folder
// and permission arguments: datalens-tech/datalens-sdk spec/yacloud.json at 021501bb6ccd3165eaa128155d91f67e01525fe9
// (DeleteFolderArgs, MoveEntryArgs, DlsSuggestArgs, GetPermissionsArgs, ModifyPermissionsArgs,
// AccessExtBatchListMembersArgs: the components the real version-2 index names too), open as there. The HTML page
// and entry lock arguments are not published: open, the gateway checks only that the body is a JSON object.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, flag, id, method, open, text } from '../datalens/common.js';

const passed = (description: string, response: z.ZodType = answer({})): MethodSpec => method(`${description} Arguments as the backend defines them.`, open({}), response);
/** A list answer: the real spec's MoveEntryResult and DlsSuggestResult are arrays (datalens-tech/datalens-sdk spec/yacloud.json). */
const list = z.array(answer({}));

const ACL = ['acl_view', 'acl_edit', 'acl_adm', 'acl_execute'] as const;
/** Per ACL level, what ModifyPermissionsArgs `body.diff` lists under it. */
const perAcl = (item: z.ZodType) => open(Object.fromEntries(ACL.map((acl) => [acl, z.array(item).optional()])));
const subject = open({ subject: z.string(), comment: text });
const modification = open({ subject: z.string(), comment: text, new: open({ grantType: z.enum(ACL), subject: z.string() }) });
const SUBJECT_TYPES = ['SUBJECT_TYPE_UNSPECIFIED', 'USER_ACCOUNT', 'GROUP', 'INVITEE', 'SERVICE_ACCOUNT', '_system'] as const;

export const folderMethods: Record<string, MethodSpec> = {
  // DeleteFolderArgs requires folderId; optional here while the replay and MCP suites delete by a folder `key`, which the reference backend takes too.
  deleteFolder: method('Deletes a folder.', open({ folderId: id.optional() }), answer({})),
  moveFolderEntry: method('Moves an entry to another folder.', open({ entryId: id, destination: z.string(), name: text }), list),
  dlsSuggest: method('Suggests subjects (users, groups) for folder permissions.', open({ searchText: z.string() }), list),
  getPermissions: method('Returns the permissions set on a folder entry.', open({ entryId: id }), answer({})),
  modifyPermissions: method(
    'Grants or revokes permissions on a folder entry.',
    open({
      entryId: id,
      body: open({ diff: open({ added: perAcl(subject).optional(), modified: perAcl(modification).optional(), removed: perAcl(subject).optional() }) }),
      checkType: z.enum(['straight', 'hierarchical', 'root']).optional(),
      nested: flag,
      page: z.number().optional(),
      pageSize: z.number().optional(),
    }),
    answer({}),
  ),
  batchListMembers: method(
    'Lists members of access subjects, several at once.',
    open({
      filter: text,
      language: z.enum(['en', 'ru']).optional(),
      pageSize: z.number().optional(),
      pageToken: text,
      search: text,
      tabId: z.enum(SUBJECT_TYPES).optional(),
    }),
    answer({}),
  ),
};

export const htmlPageMethods: Record<string, MethodSpec> = {
  createHtmlPage: passed('Creates an HTML page.'),
  getHtmlPage: passed('Returns an HTML page.'),
  updateHtmlPage: passed('Saves a new revision of an HTML page.'),
  deleteHtmlPage: passed('Deletes an HTML page.'),
};

export const entryLockMethods: Record<string, MethodSpec> = {
  createEntryLock: passed('Takes an edit lock on an entry (a chart, a dashboard, …).'),
  extendEntryLock: passed('Extends an edit lock the caller holds.'),
  deleteEntryLock: passed('Releases an edit lock.'),
};
