// Reports: the seed's own object (not a DataLens one), addressed by workbook; a v1 key is kept as legacyKey.

import { BackendError } from '../shared/errors.js';
import { freshId } from '../shared/ids.js';
import { assertWritableBy, now, type WriteAccess } from './guard.js';

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

/** What a client writes, under the backend's own names (head-bridge.ts: version 3's, config and description). */
export type ReportContent = Record<string, unknown>;

export type Report = ReportFrame & ReportContent;

export interface SeedReport {
  id: string;
  workbookId: string;
  /** The report's settings. */
  config: Record<string, unknown>;
  description?: string;
  legacyKey?: string;
  /** Defaults to the head version. */
  version?: number;
}

export interface ReportPatch {
  workbookId?: string | undefined;
  legacyKey?: string | undefined;
  /** Content fields to replace (undefined ones are left as they are). */
  content: ReportContent;
}

export class ReportStore {
  private readonly byId = new Map<string, Report>();

  create(input: { workbookId: string; legacyKey?: string | undefined; content: ReportContent }, version: number): Report {
    const at = now();
    const report: Report = {
      id: freshId('rep', this.byId),
      workbookId: input.workbookId,
      ...input.content,
      version,
      createdAt: at,
      updatedAt: at,
    };
    if (input.legacyKey !== undefined) report.legacyKey = input.legacyKey;
    this.byId.set(report.id, report);
    return { ...report };
  }

  /** Stores a seeded report. */
  seed(seed: SeedReport, version: number): void {
    if (this.byId.has(seed.id)) throw new Error(`Seed report ${seed.id}: duplicate id`);
    const at = now();
    const report: Report = { id: seed.id, workbookId: seed.workbookId, config: seed.config, description: seed.description ?? '', version, createdAt: at, updatedAt: at };
    if (seed.legacyKey !== undefined) report.legacyKey = seed.legacyKey;
    this.byId.set(seed.id, report);
  }

  get(reportId: string): Report {
    return { ...this.require(reportId) };
  }

  /** Guard and write in one synchronous step (the caller has checked the target workbook): a refused update changes nothing. */
  update(reportId: string, patch: ReportPatch, clientVersion: number, access: number | WriteAccess = clientVersion): Report {
    const report = this.require(reportId);
    assertWritableBy(report, reportId, access);
    if (patch.workbookId !== undefined) report.workbookId = patch.workbookId;
    for (const [field, value] of Object.entries(patch.content)) if (value !== undefined) report[field] = value;
    if (patch.legacyKey !== undefined) report.legacyKey = patch.legacyKey;
    report.version = clientVersion;
    report.updatedAt = now();
    return { ...report };
  }

  delete(reportId: string, access: number | WriteAccess): void {
    assertWritableBy(this.require(reportId), reportId, access);
    this.byId.delete(reportId);
  }

  /** The reports of a workbook (for a workbook delete, which takes them along). */
  inWorkbook(workbookId: string): Report[] {
    return [...this.byId.values()].filter((r) => r.workbookId === workbookId);
  }

  /** Checks that a report exists without copying it (a guard's first step). */
  require(reportId: string): Report {
    const report = this.byId.get(reportId);
    if (report === undefined) throw new BackendError('NOT_FOUND', `Report ${reportId} not found.`, { reportId });
    return report;
  }

  remove(reportId: string): void {
    this.byId.delete(reportId);
  }
}
