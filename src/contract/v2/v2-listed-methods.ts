// Methods the API changelog adds at version 2 whose argument schemas our sources do not publish: folders and
// permissions (15.06.2026), HTML pages and entry locks (28.07.2026).
//
// Source: github.com/yandex-cloud/docs, en/datalens/release-notes/api-changelog.md (names and purpose only).
// Their arguments are open: the gateway checks only that the body is a JSON object and passes every field on.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, method, open } from '../datalens/common.js';

const passed = (description: string, response: z.ZodType = answer({})): MethodSpec => method(`${description} Arguments as the backend defines them.`, open({}), response);
/** A list answer: the real spec's MoveEntryResult and DlsSuggestResult are arrays (datalens-tech/datalens-sdk spec/yacloud.json). */
const list = z.array(answer({}));

export const folderMethods: Record<string, MethodSpec> = {
  deleteFolder: passed('Deletes a folder.'),
  moveFolderEntry: passed('Moves an entry to another folder.', list),
  dlsSuggest: passed('Suggests subjects (users, groups) for folder permissions.', list),
  getPermissions: passed('Returns the permissions set on a folder entry.'),
  modifyPermissions: passed('Grants or revokes permissions on a folder entry.'),
  batchListMembers: passed('Lists members of access subjects, several at once.'),
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
