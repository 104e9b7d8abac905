// Parses the raw x-dl-api-version header: a positive whole number in decimal (`1`, `01`, `1.0`) or exactly `latest`.

export type RequestedVersion = number | 'latest';

export type ParsedHeader =
  | { readonly ok: true; readonly requested: RequestedVersion; readonly received: string }
  | { readonly ok: false; readonly reason: 'missing' | 'malformed' | 'multiple'; readonly received?: string };

import { HEADER_VERSION_NUMBER } from './number.js';

/**
 * Node joins repeated headers with ", " for x-* names, so a comma means the client sent two values
 * (or one value with a comma): both are refused as `multiple`.
 */
export function parseVersionHeader(raw: string | readonly string[] | undefined): ParsedHeader {
  if (raw === undefined) return { ok: false, reason: 'missing' };
  if (typeof raw !== 'string') {
    return raw.length === 1 ? parseVersionHeader(raw[0]) : { ok: false, reason: 'multiple', received: raw.join(', ') };
  }
  // Only HTTP's optional whitespace (SP, HTAB) is trimmed; String#trim would also accept U+00A0 and friends.
  const value = raw.replace(/^[ \t]+|[ \t]+$/g, '');
  if (value === '') return { ok: false, reason: 'missing' };
  if (value.includes(',')) return { ok: false, reason: 'multiple', received: value };
  if (value === 'latest') return { ok: true, requested: 'latest', received: value };
  // Every spelling of a version becomes the one number (one cache key, one metrics label, one forwarded value).
  // A long number is well-formed but names no version ("unknown"): only what is echoed back is bounded.
  const number = HEADER_VERSION_NUMBER.exec(value);
  if (number) return { ok: true, requested: Number(number[1]), received: value.slice(0, 64) };
  return { ok: false, reason: 'malformed', received: value.slice(0, 64) };
}
