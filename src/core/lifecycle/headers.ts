// Deprecation (RFC 9745), Sunset (RFC 8594) and Link headers for a deprecated version, as plain data.

import type { CalendarEntry } from './calendar.js';

export type LifecycleHeaders = Readonly<Record<string, string>>;

const NONE: LifecycleHeaders = Object.freeze({});

/**
 * Headers for a response served at `entry` at `now`: empty unless the version is deprecated. `successor`, when
 * given, is the URL of the next version's documents, linked as rel="successor-version" (RFC 5829).
 */
export function lifecycleHeaders(entry: CalendarEntry, now: Date, successor?: string): LifecycleHeaders {
  if (!entry.deprecatedAt || now.getTime() < entry.deprecatedAt.getTime()) return NONE;
  const headers: Record<string, string> = {
    // RFC 9745 §2.1: an sf-date, "@" followed by seconds since the epoch.
    deprecation: `@${Math.floor(entry.deprecatedAt.getTime() / 1000)}`,
  };
  // RFC 8594 §3: an HTTP-date (IMF-fixdate); toUTCString() produces exactly that form.
  if (entry.sunsetAt) headers.sunset = entry.sunsetAt.toUTCString();
  const links = [
    entry.migrationGuide && `<${entry.migrationGuide}>; rel="deprecation"; type="text/html"`,
    successor && `<${successor}>; rel="successor-version"`,
  ].filter(Boolean);
  if (links.length) headers.link = links.join(', ');
  return Object.freeze(headers);
}
