// Entries: the one table that holds dashboards, charts, datasets, connections and plain navigation entries, with
// their revisions (saved and published). Answer shape: datalens-tech/datalens-ui src/shared/schema/us/types/fields.ts
// (EntryFields) and src/shared/schema/us/schemas/entries/get-entries.ts (getEntriesEntry).

import { BackendError, notFound } from '../shared/errors.js';
import { checkForeignId, freshId, newId } from '../shared/ids.js';
import { defaultData } from './entry-data.js';
import { TENANT_ID, now, stampNew, type Stamped } from './guard.js';

export const ENTRY_SCOPES = ['dash', 'widget', 'dataset', 'connection', 'report'] as const;
export type EntryScope = (typeof ENTRY_SCOPES)[number];

export type Json = Record<string, unknown>;

export interface Entry extends Stamped {
  entryId: string;
  key: string;
  scope: EntryScope;
  type: string;
  workbookId: string | null;
  collectionId: string | null;
  tenantId: string;
  revId: string;
  savedId: string;
  publishedId: string | null;
  data: Json | null;
  meta: Json | null;
  links: Record<string, string> | null;
  annotation: { description: string } | null;
  hidden: boolean;
  public: boolean;
}

/** What one saved revision holds: the content and the version it was saved under. */
export interface Revision {
  readonly revId: string;
  readonly data: Json | null;
  readonly meta: Json | null;
  readonly links: Record<string, string> | null;
  readonly annotation: { description: string } | null;
  readonly version: number;
  readonly updatedBy: string;
  readonly updatedAt: string;
}

export interface SeedEntry {
  entryId?: string;
  key: string;
  scope: EntryScope;
  type?: string;
  workbookId?: string | null;
  createdBy?: string;
  data?: Json;
  meta?: Json;
  /** Defaults to the head version. */
  version?: number;
}

export interface NewEntry {
  entryId?: string;
  key: string;
  scope: EntryScope;
  type: string;
  workbookId: string | null;
  data?: Json | null;
  meta?: Json | null;
  links?: Record<string, string> | null;
  annotation?: { description: string } | null;
  /** False for an entry only saved, never published (a connection: real US answers its publishedId null). */
  published?: boolean;
}

export interface EntryPatch {
  data?: Json;
  meta?: Json | null;
  links?: Record<string, string> | null;
  annotation?: { description: string } | null;
  key?: string;
  workbookId?: string | null;
}

// The fields by which one object names another: a dashboard its charts, a chart its datasets, a dataset its connection.
const LINK_FIELDS = new Set(['chartId', 'datasetId', 'datasetsIds', 'connectionId', 'connection_id']);

/** The last segment of a key: what DataLens shows as the entry's name. */
export const nameOf = (key: string): string => key.slice(key.lastIndexOf('/') + 1);

export class EntryStore {
  /** Creation order; getEntries pages over it by offset (a deletion between two pages shifts later pages by one). */
  private readonly order: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  private readonly revisions = new Map<string, Map<string, Revision>>();

  create(input: NewEntry, actor: string, version: number): Entry {
    const entryId = input.entryId ?? freshId('ent', this.byId);
    if (this.byId.has(entryId)) throw new Error(`entry ${entryId}: duplicate id`);
    const revId = newId('rev');
    const entry: Entry = {
      entryId,
      key: input.key,
      scope: input.scope,
      type: input.type,
      workbookId: input.workbookId,
      collectionId: null,
      tenantId: TENANT_ID,
      revId,
      savedId: revId,
      publishedId: input.published === false ? null : revId,
      data: input.data === undefined ? defaultData(input.scope, input.type) : input.data,
      meta: input.meta ?? {},
      links: input.links ?? null,
      annotation: input.annotation ?? null,
      hidden: false,
      public: false,
      ...stampNew(actor, version),
    };
    this.order.push(entry);
    this.byId.set(entryId, entry);
    this.revisions.set(entryId, new Map([[revId, this.snapshot(entry)]]));
    return entry;
  }

  seed(seed: SeedEntry, actor: string, version: number): void {
    this.create(
      {
        ...(seed.entryId !== undefined && { entryId: seed.entryId }),
        key: seed.key,
        scope: seed.scope,
        type: seed.type ?? '',
        workbookId: seed.workbookId ?? null,
        ...(seed.data !== undefined && { data: seed.data }),
        ...(seed.meta !== undefined && { meta: seed.meta }),
      },
      actor,
      version,
    );
  }

  /** The stored entry, optionally of one scope and kind (a chart id asked for as a dashboard is not found). */
  require(entryId: string, scope?: EntryScope, kind?: (entry: Entry) => boolean): Entry {
    const found = this.byId.get(entryId);
    if (found === undefined) checkForeignId(entryId, 'entryId');
    if (found === undefined || (scope !== undefined && found.scope !== scope) || (kind !== undefined && !kind(found))) {
      throw notFound('entry', `Entry ${entryId} not found.`, { entryId });
    }
    return found;
  }

  has(entryId: string): boolean {
    return this.byId.has(entryId);
  }

  /** The entry as one of its revisions (default: the saved one), or 404 for a revision it never had. */
  atRevision(entry: Entry, revId: string | undefined): Entry {
    if (revId === undefined || revId === entry.revId) return entry;
    const rev = this.revisions.get(entry.entryId)?.get(revId);
    if (rev === undefined) throw new BackendError('NOT_FOUND', `Entry ${entry.entryId} has no revision ${revId}.`, { entryId: entry.entryId, revId });
    return { ...entry, revId: rev.revId, data: rev.data, meta: rev.meta, links: rev.links, annotation: rev.annotation, version: rev.version, updatedBy: rev.updatedBy, updatedAt: rev.updatedAt };
  }

  /**
   * A new revision: saved (the draft) or published too. The caller has run the write guard in the same step.
   * Stamps the entry with the writer's version.
   */
  save(entry: Entry, patch: EntryPatch, mode: 'save' | 'publish', actor: string, version: number): Entry {
    if (patch.data !== undefined) entry.data = patch.data;
    if (patch.meta !== undefined) entry.meta = patch.meta;
    if (patch.links !== undefined) entry.links = patch.links;
    if (patch.annotation !== undefined) entry.annotation = patch.annotation;
    if (patch.key !== undefined) entry.key = patch.key;
    if (patch.workbookId !== undefined) entry.workbookId = patch.workbookId;
    entry.revId = newId('rev');
    entry.savedId = entry.revId;
    if (mode === 'publish') entry.publishedId = entry.revId;
    entry.version = version;
    entry.updatedBy = actor;
    entry.updatedAt = now();
    this.revisions.get(entry.entryId)?.set(entry.revId, this.snapshot(entry));
    return entry;
  }

  /** Entries in creation order that pass `keep` (the stored objects: callers copy before answering). */
  list(keep: (entry: Entry) => boolean): Entry[] {
    return this.order.filter(keep);
  }

  delete(entryId: string): void {
    const entry = this.byId.get(entryId);
    if (entry === undefined) return;
    this.byId.delete(entryId);
    this.revisions.delete(entryId);
    this.order.splice(this.order.indexOf(entry), 1);
  }

  /** The entries `data` refers to, as US `links` ({alias: entryId}); only ids of existing entries count. */
  linksIn(data: unknown): Record<string, string> | null {
    const found: Record<string, string> = {};
    const visit = (node: unknown, field?: string): void => {
      if (typeof node === 'string') {
        if (field !== undefined && LINK_FIELDS.has(field) && this.byId.has(node)) found[node] = node;
      } else if (Array.isArray(node)) {
        for (const item of node) visit(item, field);
      } else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) visit(v, k);
      }
    };
    visit(data);
    return Object.keys(found).length > 0 ? found : null;
  }

  /** Fills the links of entries that have none from their content (once the seed is in, forward references resolve). */
  relink(): void {
    for (const e of this.order) if (e.links === null) e.links = this.linksIn(e.data);
  }

  private snapshot(entry: Entry): Revision {
    return {
      revId: entry.revId,
      data: entry.data,
      meta: entry.meta,
      links: entry.links,
      annotation: entry.annotation,
      version: entry.version,
      updatedBy: entry.updatedBy,
      updatedAt: entry.updatedAt,
    };
  }
}
