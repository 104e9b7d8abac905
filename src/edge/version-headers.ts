// The API version headers on each side of the gateway: set here and nowhere else (the copies that arrive
// from the other side are dropped by the rules in headers.ts).

import type { ServerResponse } from 'node:http';
import type { CalendarEntry } from '../core/lifecycle/calendar.js';
import { type LifecycleHeaders, lifecycleHeaders } from '../core/lifecycle/headers.js';

/** Towards the backend: the version it is spoken to in (the contract's head) and, on a client's behalf, the client's. */
export function setBackendVersion(headers: Record<string, string | string[]>, head: number, clientVersion?: number): void {
  headers['x-dl-api-version'] = String(head);
  if (clientVersion !== undefined) headers['x-dl-client-api-version'] = String(clientVersion);
}

// A deprecated version's headers do not change while it stays deprecated: computed once per calendar entry.
const lifecycleCache = new WeakMap<CalendarEntry, LifecycleHeaders>();

/**
 * Towards the client: the version its answer is in and, for a deprecated (or sunset) version given its calendar
 * entry, Deprecation, Sunset and Link. Returns those lifecycle headers, which stand over the backend's own.
 */
export function setClientVersion(res: ServerResponse, version: number, deprecated: CalendarEntry | undefined, now: Date): LifecycleHeaders | undefined {
  res.setHeader('x-dl-api-version', String(version));
  if (!deprecated) return undefined;
  let lifecycle = lifecycleCache.get(deprecated);
  if (!lifecycle) lifecycleCache.set(deprecated, (lifecycle = lifecycleHeaders(deprecated, now)));
  for (const name in lifecycle) res.setHeader(name, lifecycle[name] as string);
  return lifecycle;
}
