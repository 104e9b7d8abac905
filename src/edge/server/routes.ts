// Which listener route a request URL (outside /rpc/) belongs to: a probe, one of the gateway's own routes
// under the configured prefix, or the upstream (pass-through).

import { MAX_VERSION_DIGITS, VERSION_PATTERN } from '../../core/version/number.js';

/** The gateway's own routes, relative to the prefix: discovery documents, the changelog, the reference pages (also nginx-front's). */
export const OWN_ROUTE_PATTERN =
  `^/(?:versions|changelog|json/?|latest(?:/(?:json/?)?)?|(?=[0-9]{1,${MAX_VERSION_DIGITS}}\\b)${VERSION_PATTERN}/?(?:json/?)?|_reference/[A-Za-z0-9._-]+)(?:\\?.*)?$`;
const OWN = new RegExp(OWN_ROUTE_PATTERN);
/** Probes stay where orchestrators look for them, whatever the prefix. */
export const PROBE_PATTERN = '^/(?:healthz|readyz)(?:\\?.*)?$';
const PROBE = new RegExp(PROBE_PATTERN);

export type Route =
  /** Served by the discovery app at `path` (the prefix removed). */
  | { readonly kind: 'own'; readonly path: string }
  /** Anything else: the upstream's when pass-through is on, otherwise 404. */
  | { readonly kind: 'other' };

const OTHER: Route = Object.freeze({ kind: 'other' });

export function routeOf(url: string, prefix: string): Route {
  if (PROBE.test(url)) return { kind: 'own', path: url };
  if (prefix) {
    if (!url.startsWith(prefix) || url.charCodeAt(prefix.length) !== 47 /* / */) return OTHER;
    url = url.slice(prefix.length);
  }
  return OWN.test(url) ? { kind: 'own', path: url } : OTHER;
}
