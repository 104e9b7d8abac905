// The guarded writes the object families share: save a new revision of an entry, or delete it, only when the
// caller's version may modify it (checked in the same synchronous step as the write).

import { BackendError } from '../shared/errors.js';
import { assertWritableBy, type Entry } from '../stores/index.js';
import type { EntryPatch } from '../stores/entries.js';
import { actorOf, type CallContext } from './context.js';
import { linksIn } from './placement.js';

/** 'save' or 'publish' (EntryUpdateMode, datalens-tech/datalens-ui src/shared/types/common.ts); default publish. */
export function modeOf(raw: unknown): 'save' | 'publish' {
  if (raw === undefined || raw === 'publish') return 'publish';
  if (raw === 'save') return 'save';
  throw new BackendError('VALIDATION_ERROR', 'mode must be "save" or "publish".', { issues: [{ path: 'mode', message: 'expected "save" or "publish"' }] });
}

/** A new revision of `entry`, refused atomically when it was saved under a newer version than the caller's (or locked by another editor). */
export function saveEntry(ctx: CallContext, entry: Entry, patch: EntryPatch, mode: 'save' | 'publish', lockToken?: unknown): Entry {
  assertWritableBy(entry, entry.entryId, ctx.access);
  ctx.store.locks.assertWritable(entry.entryId, lockToken);
  const withLinks = patch.data !== undefined && patch.links === undefined ? { ...patch, links: linksIn(ctx.store, patch.data) } : patch;
  return ctx.store.entries.save(entry, withLinks, mode, actorOf(ctx), ctx.clientVersion);
}

/** Deletes `entry`, refused atomically when it was saved under a newer version than the caller's (or locked by another editor). */
export function deleteEntry(ctx: CallContext, entry: Entry, lockToken?: unknown): Record<string, never> {
  assertWritableBy(entry, entry.entryId, ctx.access);
  ctx.store.locks.assertWritable(entry.entryId, lockToken);
  ctx.store.entries.delete(entry.entryId);
  return {};
}

/** The revision a read asks for: `revId`, or the published one for branch "published", else the saved one. */
export function revisionOf(ctx: CallContext, entry: Entry, args: { revId?: unknown; rev_id?: unknown; branch?: unknown }): Entry {
  const revId = typeof args.revId === 'string' ? args.revId : typeof args.rev_id === 'string' ? args.rev_id : args.branch === 'published' ? (entry.publishedId ?? undefined) : undefined;
  return ctx.store.entries.atRevision(entry, revId);
}
