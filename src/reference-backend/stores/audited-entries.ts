// The entry table with a memory of deletions, so the audit listing (getAuditEntriesUpdates) can report deleted entries
// alongside the live ones' last changes. Every other behaviour is EntryStore's.

import { EntryStore, type Entry } from './entries.js';
import { now } from './guard.js';

/** What is left of a deleted entry: the fields an AuditEntry reports. */
export interface Tombstone {
  readonly entryId: string;
  readonly key: string;
  readonly scope: Entry['scope'];
  readonly type: string;
  readonly workbookId: string | null;
  readonly collectionId: string | null;
  readonly deletedAt: string;
  /** Who last changed the entry before it went (this backend does not know who deleted it). */
  readonly lastUpdatedBy: string;
}

export class AuditedEntryStore extends EntryStore {
  private readonly deleted: Tombstone[] = [];

  override delete(entryId: string): void {
    if (this.has(entryId)) {
      const e = this.require(entryId);
      this.deleted.push({
        entryId,
        key: e.key,
        scope: e.scope,
        type: e.type,
        workbookId: e.workbookId,
        collectionId: e.collectionId,
        deletedAt: now(),
        lastUpdatedBy: e.updatedBy,
      });
    }
    super.delete(entryId);
  }

  /** Deleted entries, oldest deletion first. */
  tombstones(): readonly Tombstone[] {
    return this.deleted;
  }
}
