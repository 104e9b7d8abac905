// Where a new entry goes: a folder `key`, or a workbook and a `name` (never both), as DataLens requires
// (datalens-tech/datalens-ui src/shared/zod-schemas/entry.ts, keyOrWorkbookIdNameSchema); and the links it holds.

import { BackendError } from '../shared/errors.js';
import type { Store } from '../stores/index.js';

export interface Placement {
  readonly key: string;
  readonly workbookId: string | null;
}

const invalid = (message: string, path: string): BackendError =>
  new BackendError('VALIDATION_ERROR', message, { issues: [{ path, message }] });

/** `key` alone, or `workbookId` with `name`; the workbook must exist. */
export function placementOf(store: Store, args: { key?: unknown; workbookId?: unknown; name?: unknown }): Placement {
  const { key, workbookId, name } = args;
  const hasKey = typeof key === 'string' && key !== '';
  const inWorkbook = typeof workbookId === 'string' && workbookId !== '';
  if (hasKey && workbookId == null && name === undefined) return { key, workbookId: null };
  if (!hasKey && inWorkbook && typeof name === 'string' && name !== '') {
    store.workbooks.require(workbookId);
    return { key: `${workbookId}/${name}`, workbookId };
  }
  throw invalid("Give only 'key' for a folder entry, or 'workbookId' and 'name' together for a workbook entry.", hasKey ? 'workbookId' : 'key');
}

/** The entries an object's content refers to, as US `links` (see EntryStore.linksIn). */
export const linksIn = (store: Store, data: unknown): Record<string, string> | null => store.entries.linksIn(data);
