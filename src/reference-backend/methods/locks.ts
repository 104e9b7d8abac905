// Entry lock methods (version 2 additions: the API changelog names them; no source publishes their arguments, so
// these are ours): `{entryId, duration?, force?}` takes a lock and answers `{lockToken}`; `{entryId, lockToken,
// duration?}` extends it; `{entryId, lockToken}` releases it. While locked, a write must carry the lock's token.

import { z } from 'zod';
import { actorOf, fromContract, type MethodHandler } from './context.js';

/** Default and longest lock duration, in milliseconds. */
const DEFAULT_DURATION_MS = 5 * 60_000;
const MAX_DURATION_MS = 60 * 60_000;

const durationOf = (raw: unknown): number =>
  typeof raw === 'number' && Number.isFinite(raw) && raw > 0 ? Math.min(raw, MAX_DURATION_MS) : DEFAULT_DURATION_MS;

const byEntry = z.looseObject({ entryId: z.string().min(1) });
const withToken = z.looseObject({ entryId: z.string().min(1), lockToken: z.string().min(1) });

export const lockMethods: Record<string, MethodHandler> = {
  createEntryLock: fromContract('createEntryLock', (args, ctx) => {
    ctx.store.entries.require(args.entryId);
    const lock = ctx.store.locks.take(args.entryId, actorOf(ctx), durationOf(args.duration), args.force === true);
    return { entryId: lock.entryId, lockToken: lock.lockToken, expiresAt: new Date(lock.expiresAt).toISOString() };
  }, byEntry),

  extendEntryLock: fromContract('extendEntryLock', (args, ctx) => {
    const lock = ctx.store.locks.held(args.entryId, args.lockToken);
    lock.expiresAt = Date.now() + durationOf(args.duration);
    return { entryId: lock.entryId, lockToken: lock.lockToken, expiresAt: new Date(lock.expiresAt).toISOString() };
  }, withToken),

  deleteEntryLock: fromContract('deleteEntryLock', (args, ctx) => {
    ctx.store.locks.held(args.entryId, args.lockToken);
    ctx.store.locks.release(args.entryId);
    return {};
  }, withToken),
};
