// Workbooks: the containers of dashboards, charts, datasets and connections; each sits in a collection or at the root.
// Answer shape: datalens-tech/datalens-ui src/shared/schema/us/schemas/workbooks/index.ts (workbookSchema).

import { BackendError, notFound } from '../shared/errors.js';
import { checkForeignId, freshId } from '../shared/ids.js';
import { TENANT_ID, stampNew, type Stamped } from './guard.js';

export interface Workbook extends Stamped {
  workbookId: string;
  collectionId: string | null;
  title: string;
  description: string | null;
  tenantId: string;
  meta: Record<string, unknown>;
  status: 'active';
  /** The legacy folder prefix whose v1 report keys resolve to this workbook (the seed's reports). */
  legacyFolderKey?: string;
}

export interface SeedWorkbook {
  workbookId?: string;
  title: string;
  description?: string;
  collectionId?: string | null;
  legacyFolderKey?: string;
  /** Defaults to the head version. */
  version?: number;
}

export interface NewWorkbook {
  title: string;
  description?: string | undefined;
  collectionId?: string | null | undefined;
  legacyFolderKey?: string | undefined;
  meta?: Record<string, unknown>;
  workbookId?: string;
}

export class WorkbookStore {
  private readonly byId = new Map<string, Workbook>();

  create(input: NewWorkbook, actor: string, version: number): Workbook {
    const workbookId = input.workbookId ?? freshId('wb', this.byId);
    if (this.byId.has(workbookId)) throw new Error(`workbook ${workbookId}: duplicate id`);
    const workbook: Workbook = {
      workbookId,
      collectionId: input.collectionId ?? null,
      title: input.title,
      description: input.description ?? null,
      tenantId: TENANT_ID,
      meta: input.meta ?? {},
      status: 'active',
      ...stampNew(actor, version),
    };
    if (input.legacyFolderKey !== undefined) workbook.legacyFolderKey = input.legacyFolderKey;
    this.byId.set(workbookId, workbook);
    return workbook;
  }

  /** The stored workbook (callers copy before answering). */
  require(workbookId: string): Workbook {
    const found = this.byId.get(workbookId);
    if (found === undefined) checkForeignId(workbookId, 'workbookId');
    if (found === undefined) throw notFound('workbook', `Workbook ${workbookId} not found.`, { workbookId });
    return found;
  }

  has(workbookId: string): boolean {
    return this.byId.has(workbookId);
  }

  /** Every workbook, in creation order. */
  all(): Workbook[] {
    return [...this.byId.values()];
  }

  delete(workbookId: string): void {
    this.byId.delete(workbookId);
  }

  /** The workbook whose legacyFolderKey is the longest prefix of `key` (ties: the earliest created). */
  resolveLegacyKey(key: string): { workbookId: string; legacyFolderKey: string } {
    let best: Workbook | undefined;
    for (const w of this.byId.values()) {
      const prefix = w.legacyFolderKey;
      if (prefix === undefined || !key.startsWith(prefix)) continue;
      if (best === undefined || prefix.length > (best.legacyFolderKey ?? '').length) best = w;
    }
    if (best === undefined || best.legacyFolderKey === undefined) {
      throw new BackendError('NOT_FOUND', `No workbook has a legacy folder key that is a prefix of "${key}".`, { key });
    }
    return { workbookId: best.workbookId, legacyFolderKey: best.legacyFolderKey };
  }
}
