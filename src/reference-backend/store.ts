// The in-memory objects (workbooks, reports, entries) and the atomic version guard on writes.
// Every method here is synchronous: a guard check and the write it protects can never interleave with another request.

import { BackendError } from './errors.js';
import { newId, type IdPrefix } from './ids.js';

export const ENTRY_SCOPES = ['dash', 'widget', 'dataset', 'connection', 'report'] as const;
export type EntryScope = (typeof ENTRY_SCOPES)[number];

export interface Workbook {
  workbookId: string;
  title: string;
  legacyFolderKey?: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The fields of a report the backend's methods give meaning to; the others are its content (see ReportContent). */
interface ReportFrame {
  id: string;
  workbookId: string;
  /** The v1 key the report was last created/updated with, so a v1 read can return it. */
  legacyKey?: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** What a client writes, named as the contract's head version names it (config and description at v2). */
export type ReportContent = Record<string, unknown>;

export type Report = ReportFrame & ReportContent;

export interface Entry {
  entryId: string;
  key: string;
  scope: EntryScope;
  type: string;
  workbookId: string | null;
  createdBy: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface SeedWorkbook {
  workbookId?: string;
  title: string;
  legacyFolderKey?: string;
  /** Defaults to the head version. */
  version?: number;
}

export interface SeedEntry {
  entryId?: string;
  key: string;
  scope: EntryScope;
  type?: string;
  workbookId?: string | null;
  createdBy?: string;
  /** Defaults to the head version. */
  version?: number;
}

export interface ReportPatch {
  workbookId?: string;
  legacyKey?: string;
  /** Content fields to replace (undefined ones are left as they are). */
  content: ReportContent;
}

/**
 * The version guard: a version-N client may not modify an object last saved under a newer version.
 * Callers run it in the same synchronous step as the write it protects.
 */
export function assertWritableBy(object: { readonly version: number }, objectId: string, clientVersion: number): void {
  if (object.version <= clientVersion) return;
  throw new BackendError(
    'UNSUPPORTED_OBJECT_VERSION',
    `Object ${objectId} was saved under API version ${object.version}; a version-${clientVersion} client cannot modify it.`,
    { objectId, objectVersion: object.version, requestedVersion: clientVersion, minVersion: object.version },
  );
}

const now = (): string => new Date().toISOString();

export class Store {
  private readonly workbooks = new Map<string, Workbook>();
  private readonly reports = new Map<string, Report>();
  /** Insertion order = creation order; entries are never deleted, so offsets into a filtered list stay stable. */
  private readonly entries: Entry[] = [];
  private readonly entryIds = new Set<string>();

  constructor(
    private readonly headVersion: number,
    seed: { workbooks?: readonly SeedWorkbook[]; entries?: readonly SeedEntry[] } = {},
  ) {
    for (const w of seed.workbooks ?? []) this.seedWorkbook(w);
    for (const e of seed.entries ?? []) this.seedEntry(e);
  }

  // --- workbooks ---

  createWorkbook(input: { title: string; legacyFolderKey?: string }, version: number): Workbook {
    const at = now();
    const workbook: Workbook = { workbookId: this.freshId('wb', this.workbooks), title: input.title, version, createdAt: at, updatedAt: at };
    if (input.legacyFolderKey !== undefined) workbook.legacyFolderKey = input.legacyFolderKey;
    this.workbooks.set(workbook.workbookId, workbook);
    return { ...workbook };
  }

  getWorkbook(workbookId: string): Workbook {
    return { ...this.requireWorkbook(workbookId) };
  }

  /** The workbook whose legacyFolderKey is the longest prefix of `key` (ties: the earliest created). */
  resolveLegacyKey(key: string): { workbookId: string; legacyFolderKey: string } {
    let best: Workbook | undefined;
    for (const w of this.workbooks.values()) {
      const prefix = w.legacyFolderKey;
      if (prefix === undefined || !key.startsWith(prefix)) continue;
      if (best === undefined || prefix.length > (best.legacyFolderKey ?? '').length) best = w;
    }
    if (best === undefined || best.legacyFolderKey === undefined) {
      throw new BackendError('NOT_FOUND', `No workbook has a legacy folder key that is a prefix of "${key}".`, { key });
    }
    return { workbookId: best.workbookId, legacyFolderKey: best.legacyFolderKey };
  }

  // --- reports ---

  createReport(input: { workbookId: string; legacyKey?: string; content: ReportContent }, version: number): Report {
    this.requireWorkbook(input.workbookId);
    const at = now();
    const report: Report = {
      id: this.freshId('rep', this.reports),
      workbookId: input.workbookId,
      ...input.content,
      version,
      createdAt: at,
      updatedAt: at,
    };
    if (input.legacyKey !== undefined) report.legacyKey = input.legacyKey;
    this.reports.set(report.id, report);
    return { ...report };
  }

  getReport(reportId: string): Report {
    return { ...this.requireReport(reportId) };
  }

  /** Guard, validate and write in one synchronous step: a refused update leaves the report untouched. */
  updateReport(reportId: string, patch: ReportPatch, clientVersion: number): Report {
    const report = this.requireReport(reportId);
    assertWritableBy(report, reportId, clientVersion);
    if (patch.workbookId !== undefined) this.requireWorkbook(patch.workbookId);
    if (patch.workbookId !== undefined) report.workbookId = patch.workbookId;
    for (const [field, value] of Object.entries(patch.content)) if (value !== undefined) report[field] = value;
    if (patch.legacyKey !== undefined) report.legacyKey = patch.legacyKey;
    report.version = clientVersion;
    report.updatedAt = now();
    return { ...report };
  }

  deleteReport(reportId: string, clientVersion: number): void {
    const report = this.requireReport(reportId);
    assertWritableBy(report, reportId, clientVersion);
    this.reports.delete(reportId);
  }

  // --- entries ---

  createEntry(
    input: { key: string; scope: EntryScope; type?: string; workbookId?: string; createdBy: string },
    version: number,
  ): Entry {
    if (input.workbookId !== undefined) this.requireWorkbook(input.workbookId);
    const at = now();
    const entry: Entry = {
      entryId: this.freshId('ent', this.entryIds),
      key: input.key,
      scope: input.scope,
      type: input.type ?? '',
      workbookId: input.workbookId ?? null,
      createdBy: input.createdBy,
      version,
      createdAt: at,
      updatedAt: at,
    };
    this.entries.push(entry);
    this.entryIds.add(entry.entryId);
    return { ...entry };
  }

  /** All entries in creation order that pass `keep` (copies). */
  listEntries(keep: (entry: Entry) => boolean): Entry[] {
    const out: Entry[] = [];
    for (const e of this.entries) if (keep(e)) out.push({ ...e });
    return out;
  }

  // --- internals ---

  private requireWorkbook(workbookId: string): Workbook {
    const workbook = this.workbooks.get(workbookId);
    if (workbook === undefined) throw new BackendError('NOT_FOUND', `Workbook ${workbookId} not found.`, { workbookId });
    return workbook;
  }

  private requireReport(reportId: string): Report {
    const report = this.reports.get(reportId);
    if (report === undefined) throw new BackendError('NOT_FOUND', `Report ${reportId} not found.`, { reportId });
    return report;
  }

  private freshId(prefix: IdPrefix, taken: { has(id: string): boolean }): string {
    for (;;) {
      const id = newId(prefix);
      if (!taken.has(id)) return id;
    }
  }

  private seedVersion(version: number | undefined, what: string): number {
    const v = version ?? this.headVersion;
    if (!Number.isInteger(v) || v < 1 || v > this.headVersion) {
      throw new Error(`Seed ${what}: version must be an integer in 1..${this.headVersion}, got ${String(version)}`);
    }
    return v;
  }

  private seedWorkbook(seed: SeedWorkbook): void {
    const workbookId = seed.workbookId ?? this.freshId('wb', this.workbooks);
    if (this.workbooks.has(workbookId)) throw new Error(`Seed workbook ${workbookId}: duplicate id`);
    const at = now();
    const workbook: Workbook = { workbookId, title: seed.title, version: this.seedVersion(seed.version, `workbook ${workbookId}`), createdAt: at, updatedAt: at };
    if (seed.legacyFolderKey !== undefined) workbook.legacyFolderKey = seed.legacyFolderKey;
    this.workbooks.set(workbookId, workbook);
  }

  private seedEntry(seed: SeedEntry): void {
    const entryId = seed.entryId ?? this.freshId('ent', this.entryIds);
    if (this.entryIds.has(entryId)) throw new Error(`Seed entry ${entryId}: duplicate id`);
    if (seed.workbookId != null && !this.workbooks.has(seed.workbookId)) {
      throw new Error(`Seed entry ${entryId}: unknown workbook ${seed.workbookId}`);
    }
    const at = now();
    this.entries.push({
      entryId,
      key: seed.key,
      scope: seed.scope,
      type: seed.type ?? '',
      workbookId: seed.workbookId ?? null,
      createdBy: seed.createdBy ?? 'web-ui',
      version: this.seedVersion(seed.version, `entry ${entryId}`),
      createdAt: at,
      updatedAt: at,
    });
    this.entryIds.add(entryId);
  }
}
