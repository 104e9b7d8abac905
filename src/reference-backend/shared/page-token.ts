// Opaque getEntries page tokens: base64url JSON of {o: offset, f: short hash of the filters}.

import { createHash } from 'node:crypto';

export interface EntryFilters {
  readonly ids?: readonly string[];
  readonly createdBy?: readonly string[];
  readonly scope?: string;
  readonly type?: string;
  readonly filters?: { readonly name?: string };
  readonly orderBy?: { readonly field: string; readonly direction: string };
  readonly ignoreWorkbookEntries?: boolean;
  readonly ignoreSharedEntries?: boolean;
}

/** Everything that decides which entries a page holds and in what order. Order-insensitive: filters are sets, and an empty list means "no filter", like an absent one. */
export function filtersHash(filters: EntryFilters): string {
  const set = (xs: readonly string[] | undefined): string[] | null => (xs && xs.length > 0 ? [...new Set(xs)].sort() : null);
  const canonical = JSON.stringify([
    set(filters.ids),
    set(filters.createdBy),
    filters.scope ?? null,
    filters.type ?? null,
    filters.filters?.name ?? null,
    filters.orderBy ? [filters.orderBy.field, filters.orderBy.direction] : null,
    filters.ignoreWorkbookEntries === true,
    filters.ignoreSharedEntries === true,
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 12);
}

export function encodePageToken(offset: number, hash: string): string {
  return Buffer.from(JSON.stringify({ o: offset, f: hash })).toString('base64url');
}

/** The offset the token points at, or a reason it cannot be used with these filters. */
export function decodePageToken(token: string, hash: string): { ok: true; offset: number } | { ok: false; reason: string } {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'pageToken is not a token this backend issued' };
  }
  if (typeof parsed !== 'object' || parsed === null) return { ok: false, reason: 'pageToken is not a token this backend issued' };
  const { o, f } = parsed as { o?: unknown; f?: unknown };
  if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0 || typeof f !== 'string') {
    return { ok: false, reason: 'pageToken is not a token this backend issued' };
  }
  if (f !== hash) return { ok: false, reason: 'pageToken was issued for different filters' };
  return { ok: true, offset: o };
}
