// Sorting, filtering and paging shared by the listing methods (workbooks, collection content, workbook entries).

import { BackendError } from '../shared/errors.js';

export interface ListOptions {
  readonly filterString?: string | undefined;
  readonly orderField?: string | undefined;
  readonly orderDirection?: string | undefined;
}

/** Case-insensitive substring match on `text`; no filter keeps everything. */
export const matches = (text: string, filter: string | undefined): boolean => !filter || text.toLowerCase().includes(filter.toLowerCase());

/** A sorted copy: by `field` (a string or ISO date), ascending unless `direction` is "desc"; stable. */
export function sortBy<T>(items: readonly T[], field: ((item: T) => string) | undefined, direction: string | undefined): T[] {
  if (field === undefined) return [...items];
  const sign = direction === 'desc' ? -1 : 1;
  return [...items].sort((a, b) => sign * field(a).localeCompare(field(b)));
}

/** Page `page` (from 0) of `pageSize`; `next` is the following page's number when there is one. */
export function pageOf<T>(items: readonly T[], page: number, pageSize: number): { items: T[]; next?: number } {
  const start = page * pageSize;
  const slice = items.slice(start, start + pageSize);
  return start + pageSize < items.length ? { items: slice, next: page + 1 } : { items: slice };
}

/** A page number from a number or a numeric string token; null/absent is the first page; anything else is refused. */
export function pageNumber(raw: unknown, field = 'page'): number {
  if (raw === undefined || raw === null || raw === 'null') return 0;
  const n = typeof raw === 'number' ? raw : /^[0-9]{1,9}$/.test(String(raw)) ? Number(raw) : NaN;
  if (Number.isSafeInteger(n) && n >= 0) return n;
  throw new BackendError('VALIDATION_ERROR', `Invalid ${field}.`, { issues: [{ path: field, message: 'not a page this backend issued' }] });
}

/** Bounded page size: the given one in 1..1000, else `fallback`. */
export const pageSizeOf = (raw: unknown, fallback: number): number =>
  typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 ? Math.min(raw, 1000) : fallback;
