// The methods above version 1 open-source DataLens serves through United Storage's entry actions: folders and Editor
// charts, in the shape of version 2 (routes.ts `since`). Each public call becomes the action the web UI calls for it,
// after the scope and type check the public controller makes, and its answer the public one.
//
// Source: datalens-tech/datalens-ui f581b7c, src/shared/schema/us/actions/entries/index.ts (`createFolder`,
// `getEntry`), src/shared/schema/mix/actions/editor.ts (`createEditorChart`, `updateEditorChart`: flat arguments,
// the entry answered) and src/shared/schema/mix/actions/entries.ts (`deleteEntry`).

import { GatewayError } from '../../core/errors.js';
import { asJson, type InternalCall, type OssAnswer } from './internal-call.js';
import { notThisKind } from './public-errors.js';
import { EDITOR_TYPES, type EntryOp } from './routes.js';

type Args = Readonly<Record<string, unknown>>;

/** What a kind of entry is: United Storage's scope, and the types of it the methods take (any, for folders). */
interface EntryKind {
  readonly scope: string;
  readonly types?: ReadonlySet<string>;
}

const FOLDER: EntryKind = { scope: 'folder' };
const EDITOR_CHART: EntryKind = { scope: 'widget', types: EDITOR_TYPES };

const isKind = (entry: Args, kind: EntryKind) =>
  entry.scope === kind.scope && (kind.types === undefined || (typeof entry.type === 'string' && kind.types.has(entry.type)));

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** 422 for what the client sent that open-source DataLens has no place for (the same refusal as a backend below). */
const cannotCarry = (method: string, fields: string[], why: string) =>
  new GatewayError('VERSION_TRANSLATION_FAILED', `${method}: ${why}`, { method, fields });

/**
 * Serves one entry operation with the arguments of version `shape` (the row's `since`); the Editor charts it answers
 * are stamped with that version (`apiVersion`), the shape they were saved in, as open-source DataLens stamps nothing.
 */
export async function serveEntryOp(call: InternalCall, op: EntryOp, args: Args, requestId: string, shape: number): Promise<OssAnswer> {
  switch (op) {
    case 'create-folder':
      if (args.initialPermissions !== undefined) {
        throw cannotCarry('createFolder', ['initialPermissions'], 'open-source DataLens has no folder permissions, so initialPermissions cannot be carried');
      }
      return folderAnswer(await call.action('us', 'createFolder', json({ key: args.key }), requestId));
    case 'delete-folder':
      // Optional in the real schema, yet there is nothing to delete without it.
      if (typeof args.folderId !== 'string') throw new GatewayError('VALIDATION_ERROR', 'deleteFolder needs folderId', [{ code: 'invalid_type', path: ['folderId'], message: 'Required' }]);
      return deleteChecked(call, args.folderId, FOLDER, requestId);
    case 'read-editor':
      return readEditorChart(call, args, requestId, shape);
    case 'create-editor':
      return entryAnswer(await call.action('mix', 'createEditorChart', json(editorArgs(args)), requestId), shape);
    case 'update-editor':
      return updateEditorChart(call, args, requestId, shape);
    case 'delete-editor':
      return deleteChecked(call, String(args.chartId), EDITOR_CHART, requestId);
  }
}

/** United Storage's new folder as the public answer has it: with `unversionedData`, which it leaves out when empty. */
function folderAnswer(answer: OssAnswer): OssAnswer {
  if (answer.status < 200 || answer.status >= 300) return answer;
  const folder = JSON.parse(answer.body.toString('utf8')) as Args;
  return folder.unversionedData === undefined || folder.unversionedData === null ? asJson({ status: answer.status, body: { ...folder, unversionedData: {} } }) : answer;
}

/** The web UI's flat Editor arguments from the public `{mode, entry}`. */
function editorArgs(args: Args): Record<string, unknown> {
  const entry = (args.entry ?? {}) as Args;
  return defined({ ...entry, mode: args.mode });
}

/** The public `{entry}` around the entry an Editor action answers; an error passes as it is. */
function entryAnswer(answer: OssAnswer, shape: number): OssAnswer {
  if (answer.status < 200 || answer.status >= 300) return answer;
  return asJson({ status: answer.status, body: { entry: publicEntry(JSON.parse(answer.body.toString('utf8')) as Args, shape) } });
}

/**
 * United Storage's entry as the public answers carry it: `version` is the Editor format version there (1, or none),
 * while open-source DataLens has no entry versions (null).
 */
function publicEntry(entry: Args, shape: number): Record<string, unknown> {
  const { version, sourceVersion: _sourceVersion, ...rest } = entry;
  return { ...rest, ...(version !== null && version !== undefined && { version }), apiVersion: shape };
}

async function readEditorChart(call: InternalCall, args: Args, requestId: string, shape: number): Promise<OssAnswer> {
  const found = await call.entry(
    defined({
      entryId: args.chartId,
      workbookId: args.workbookId ?? undefined,
      revId: args.revId,
      branch: args.branch,
      includePermissionsInfo: args.includePermissions,
      includeLinks: args.includeLinks,
      includeFavorite: args.includeFavorite ?? false,
    }),
    requestId,
  );
  if ('refused' in found) return found.refused;
  if (!isKind(found.entry, EDITOR_CHART)) return asJson(notThisKind('Entry not found', requestId));
  const { isFavorite, permissions, fullPermissions: _full, ...entry } = found.entry;
  return asJson({ status: 200, body: defined({ entry: publicEntry(entry, shape), isFavorite: args.includeFavorite ? isFavorite : undefined, permissions }) });
}

async function updateEditorChart(call: InternalCall, args: Args, requestId: string, shape: number): Promise<OssAnswer> {
  const { entryId, type, ...entry } = (args.entry ?? {}) as Args;
  const found = await call.entry({ entryId }, requestId);
  if ('refused' in found) return found.refused;
  if (!isKind(found.entry, EDITOR_CHART)) return asJson(notThisKind('No entry found', requestId));
  // United Storage keeps an entry's type: a different one cannot be saved.
  if (type !== undefined && type !== found.entry.type) {
    throw cannotCarry('updateEditorChart', ['entry.type'], `the chart is a ${String(found.entry.type)}, and open-source DataLens cannot change an entry's type`);
  }
  return entryAnswer(await call.action('mix', 'updateEditorChart', json(defined({ ...entry, entryId, mode: args.mode })), requestId), shape);
}

/** Deletes the entry when it is of `kind` (404 "No entry found" otherwise, as the chart deletes): the public `{}`. */
async function deleteChecked(call: InternalCall, entryId: string, kind: EntryKind, requestId: string): Promise<OssAnswer> {
  const found = await call.entry({ entryId }, requestId);
  if ('refused' in found) return found.refused;
  if (!isKind(found.entry, kind)) return asJson(notThisKind('No entry found', requestId));
  const deleted = await call.action('mix', 'deleteEntry', json({ entryId, scope: kind.scope }), requestId);
  return deleted.status >= 200 && deleted.status < 300 ? asJson({ status: deleted.status, body: {} }) : deleted;
}
