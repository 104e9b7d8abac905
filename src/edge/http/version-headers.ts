// The API version headers on each side of the gateway: set here and nowhere else (the copies that arrive
// from the other side are dropped by the rules in headers.ts).

import type { ServerResponse } from 'node:http';
import { type Calendar, type CalendarEntry, findEntry, statusAt } from '../../core/lifecycle/calendar.js';
import { type LifecycleHeaders, lifecycleHeaders } from '../../core/lifecycle/headers.js';

/** Towards the backend: the version it is spoken to in (the contract's head) and, on a client's behalf, the client's. */
export function setBackendVersion(headers: Record<string, string | string[]>, head: number, clientVersion?: number): void {
  headers['x-dl-api-version'] = String(head);
  if (clientVersion !== undefined) headers['x-dl-client-api-version'] = String(clientVersion);
}

// A deprecated version's headers do not change while it stays deprecated: computed once per calendar entry
// (and routes prefix, which the successor's link starts with).
const lifecycleCache = new WeakMap<CalendarEntry, { prefix: string; headers: LifecycleHeaders }>();

/**
 * Towards the client: the version its answer is in and, for a deprecated (or sunset) version given its calendar
 * entry, Deprecation, Sunset and Link (the migration guide, and the next version's reference page as
 * rel="successor-version"). Returns those lifecycle headers, which stand over the backend's own.
 */
export function setClientVersion(
  res: ServerResponse,
  version: number,
  deprecated: CalendarEntry | undefined,
  now: Date,
  calendar?: Calendar,
  prefix = '',
): LifecycleHeaders | undefined {
  res.setHeader('x-dl-api-version', String(version));
  if (!deprecated) return undefined;
  let cached = lifecycleCache.get(deprecated);
  if (!cached || cached.prefix !== prefix) {
    const successor = calendar && findEntry(calendar, deprecated.version + 1);
    const headers = lifecycleHeaders(deprecated, now, successor && `${prefix}/${successor.version}/`);
    lifecycleCache.set(deprecated, (cached = { prefix, headers }));
  }
  const lifecycle = cached.headers;
  for (const name in lifecycle) res.setHeader(name, lifecycle[name] as string);
  return lifecycle;
}

/** The version lists of one stretch of the calendar, valid from `from` (inclusive) to `until` (exclusive). */
interface VersionLists {
  readonly from: number;
  readonly until: number;
  readonly supported: string;
  readonly deprecated: string;
}

// The lists change only at a release, deprecation or sunset: computed once per calendar and stretch.
const listCache = new WeakMap<Calendar, VersionLists>();

function versionLists(calendar: Calendar, now: Date): VersionLists {
  const t = now.getTime();
  const cached = listCache.get(calendar);
  if (cached && t >= cached.from && t < cached.until) return cached;
  let from = -Infinity;
  let until = Infinity;
  for (const entry of calendar.entries) {
    for (const instant of [entry.releasedAt, entry.deprecatedAt, entry.sunsetAt]) {
      if (!instant) continue;
      const at = instant.getTime();
      if (at <= t) from = Math.max(from, at);
      else until = Math.min(until, at);
    }
  }
  const having = (status: string) => calendar.entries.filter((e) => statusAt(e, now) === status).map((e) => e.version).join(', ');
  const lists = { from, until, supported: having('current'), deprecated: having('deprecated') };
  listCache.set(calendar, lists);
  return lists;
}

/**
 * Every /rpc answer, errors included, says which versions a client may use (the convention of ASP.NET API
 * Versioning): api-supported-versions (released, not deprecated) and, while any exist, api-deprecated-versions
 * (deprecated, not yet sunset).
 */
export function setVersionLists(res: ServerResponse, calendar: Calendar, now: Date): void {
  const lists = versionLists(calendar, now);
  if (lists.supported) res.setHeader('api-supported-versions', lists.supported);
  if (lists.deprecated) res.setHeader('api-deprecated-versions', lists.deprecated);
}
