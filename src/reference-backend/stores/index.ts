// The in-memory state, one small store per family, and the seed that fills it.
// Every handler runs synchronously: a guard check and the write it protects never interleave with another request.

import { AccessBindingStore } from './access-bindings.js';
import { AuditedEntryStore } from './audited-entries.js';
import { CollectionStore, type SeedCollection } from './collections.js';
import { EmbedStore } from './embeds.js';
import type { SeedEntry } from './entries.js';
import { FolderStore } from './folders.js';
import { LicenseStore } from './licenses.js';
import { LockStore } from './locks.js';
import { OperationStore } from './operations.js';
import { ReportStore, type SeedReport } from './reports.js';
import { WorkbookStore, type SeedWorkbook } from './workbooks.js';

export { assertWritableBy, restamp, type WriteAccess } from './guard.js';
export type { Collection, SeedCollection } from './collections.js';
export { ENTRY_SCOPES, type Entry, type EntryScope, type SeedEntry } from './entries.js';
export type { Report, ReportPatch, SeedReport } from './reports.js';
export type { SeedWorkbook, Workbook } from './workbooks.js';

export interface Seed {
  collections?: readonly SeedCollection[];
  workbooks?: readonly SeedWorkbook[];
  entries?: readonly SeedEntry[];
  reports?: readonly SeedReport[];
}

/** Who saved the seed's objects when the seed names nobody. */
const SEED_ACTOR = 'web-ui';

export class Store {
  readonly collections = new CollectionStore();
  readonly workbooks = new WorkbookStore();
  /** Entries, remembering deletions for the audit listing. */
  readonly entries = new AuditedEntryStore();
  readonly reports = new ReportStore();
  readonly operations = new OperationStore();
  readonly locks = new LockStore();
  readonly licenses = new LicenseStore();
  readonly embeds = new EmbedStore();
  readonly accessBindings = new AccessBindingStore();
  readonly folders = new FolderStore();
  /** Access grants set with modifyPermissions, by entry (this backend enforces none). */
  readonly grants = new Map<string, Record<string, unknown>[]>();

  constructor(
    readonly headVersion: number,
    seed: Seed = {},
  ) {
    for (const c of seed.collections ?? []) {
      if (c.workbookIds !== undefined && c.collectionId === undefined) throw new Error(`Seed collection ${c.title}: holding workbooks needs a collectionId`);
      const version = this.seedVersion(c.version, `collection ${c.collectionId ?? c.title}`);
      if (c.collectionId !== undefined && this.collections.has(c.collectionId)) throw new Error(`Seed collection ${c.collectionId}: duplicate id`);
      if (c.parentId != null && !this.collections.has(c.parentId)) throw new Error(`Seed collection ${c.collectionId ?? c.title}: unknown parent ${c.parentId}`);
      this.collections.create({ ...c, parentId: c.parentId ?? null }, SEED_ACTOR, version);
    }
    for (const w of seed.workbooks ?? []) {
      const version = this.seedVersion(w.version, `workbook ${w.workbookId ?? w.title}`);
      if (w.workbookId !== undefined && this.workbooks.has(w.workbookId)) throw new Error(`Seed workbook ${w.workbookId}: duplicate id`);
      if (w.collectionId != null && !this.collections.has(w.collectionId)) throw new Error(`Seed workbook ${w.workbookId ?? w.title}: unknown collection ${w.collectionId}`);
      this.workbooks.create(w, SEED_ACTOR, version);
    }
    for (const c of seed.collections ?? []) {
      for (const workbookId of c.workbookIds ?? []) {
        if (!this.workbooks.has(workbookId)) throw new Error(`Seed collection ${c.collectionId ?? c.title}: unknown workbook ${workbookId}`);
        this.workbooks.require(workbookId).collectionId = c.collectionId ?? null;
      }
    }
    for (const e of seed.entries ?? []) {
      const what = `entry ${e.entryId ?? e.key}`;
      const version = this.seedVersion(e.version, what);
      if (e.entryId !== undefined && this.entries.has(e.entryId)) throw new Error(`Seed ${what}: duplicate id`);
      if (e.workbookId != null && !this.workbooks.has(e.workbookId)) throw new Error(`Seed ${what}: unknown workbook ${e.workbookId}`);
      this.entries.seed(e, e.createdBy ?? SEED_ACTOR, version);
    }
    this.entries.relink();
    for (const r of seed.reports ?? []) {
      if (!this.workbooks.has(r.workbookId)) throw new Error(`Seed report ${r.id}: unknown workbook ${r.workbookId}`);
      this.reports.seed(r, this.seedVersion(r.version, `report ${r.id}`));
    }
  }

  private seedVersion(version: number | undefined, what: string): number {
    const v = version ?? this.headVersion;
    if (!Number.isInteger(v) || v < 1 || v > this.headVersion) {
      throw new Error(`Seed ${what}: version must be an integer in 1..${this.headVersion}, got ${String(version)}`);
    }
    return v;
  }
}
