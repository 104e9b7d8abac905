// Token paging for the version-2 listings (licences, audit entries, access bindings): the getEntries token format
// (shared/page-token.ts), bound to a hash of the query it was issued for.

import { createHash } from 'node:crypto';
import { BackendError } from '../shared/errors.js';
import { decodePageToken, encodePageToken } from '../shared/page-token.js';

/** One page of `items` from `pageToken` (absent: the first), `size` long; the next page's token when there is one. */
export function pageOf<T>(items: readonly T[], query: unknown, pageToken: string | undefined, size: number): { items: T[]; nextPageToken?: string } {
  const hash = createHash('sha256').update(JSON.stringify(query)).digest('base64url').slice(0, 12);
  let offset = 0;
  if (pageToken !== undefined && pageToken !== '') {
    const decoded = decodePageToken(pageToken, hash);
    if (!decoded.ok) throw new BackendError('VALIDATION_ERROR', decoded.reason, { issues: [{ path: 'pageToken', message: decoded.reason }] });
    offset = decoded.offset;
  }
  const end = offset + Math.max(1, Math.floor(size));
  return { items: items.slice(offset, end), ...(end < items.length && { nextPageToken: encodePageToken(end, hash) }) };
}

/** A VALIDATION_ERROR about one field. */
export const invalid = (path: string, message: string): BackendError => new BackendError('VALIDATION_ERROR', message, { issues: [{ path, message }] });
