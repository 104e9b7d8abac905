// Edit locks on entries: one holder at a time, identified by a lock token, until it expires or is released.

import { randomUUID } from 'node:crypto';
import { BackendError } from '../shared/errors.js';

export interface Lock {
  readonly entryId: string;
  readonly lockToken: string;
  readonly owner: string;
  expiresAt: number;
}

export class LockStore {
  private readonly byEntry = new Map<string, Lock>();

  /** The live lock on an entry, if any (an expired one is dropped). */
  get(entryId: string, now = Date.now()): Lock | undefined {
    const lock = this.byEntry.get(entryId);
    if (lock !== undefined && lock.expiresAt <= now) {
      this.byEntry.delete(entryId);
      return undefined;
    }
    return lock;
  }

  /** Takes the lock; refused while another live lock exists, unless `force`. */
  take(entryId: string, owner: string, durationMs: number, force: boolean): Lock {
    const held = this.get(entryId);
    if (held !== undefined && !force) throw locked(entryId);
    const lock: Lock = { entryId, lockToken: randomUUID(), owner, expiresAt: Date.now() + durationMs };
    this.byEntry.set(entryId, lock);
    return lock;
  }

  /** The caller's lock, by token; refused when the entry holds no lock or another one. */
  held(entryId: string, lockToken: unknown): Lock {
    const lock = this.get(entryId);
    if (lock === undefined || lock.lockToken !== lockToken) {
      throw new BackendError('NOT_FOUND', `Entry ${entryId} holds no lock with this token.`, { entryId });
    }
    return lock;
  }

  release(entryId: string): void {
    this.byEntry.delete(entryId);
  }

  /** A write on a locked entry must carry the lock's token. */
  assertWritable(entryId: string, lockToken: unknown): void {
    const lock = this.get(entryId);
    if (lock !== undefined && lock.lockToken !== lockToken) throw locked(entryId);
  }
}

const locked = (entryId: string) => new BackendError('ENTRY_LOCKED', `Entry ${entryId} is locked by another editor.`, { entryId });
