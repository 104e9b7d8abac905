// Request-targets generated from the RFC 3986 / RFC 9112 grammar (pchar, pct-encoded, query) and the printable
// characters outside it, and the paths a backend may route a forwarded one by (test/hostile, the nginx front).

import fc from 'fast-check';

const hex = (n: number) => `%${n.toString(16).padStart(2, '0')}`;
const UNRESERVED = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~';
const SUB_DELIMS = "!$&'()*+,;=";
/** Printable ASCII outside pchar, `/` and `?`: what lax clients send raw and parsers disagree on. */
const OUTSIDE = '#"<>[]\\^`{|}%';

const pchar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...`${UNRESERVED}${SUB_DELIMS}:@`) },
  { weight: 2, arbitrary: fc.integer({ min: 0x21, max: 0x7e }).map(hex) },
  { weight: 1, arbitrary: fc.constantFrom('%2f', '%2F', '%2e', '%23', '%3f', '%5c', '%252f', '%00') },
);
const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('rpc', 'RPC', 'metrics', 'internal', 'admin', 'assets', '.', '..', '') },
  { weight: 3, arbitrary: fc.array(pchar, { maxLength: 6 }).map((cs) => cs.join('')) },
  { weight: 2, arbitrary: fc.tuple(fc.array(pchar, { maxLength: 3 }), fc.constantFrom(...OUTSIDE), fc.array(pchar, { maxLength: 3 })).map(([a, o, b]) => `${a.join('')}${o}${b.join('')}`) },
);
export const requestTarget = fc
  .tuple(
    fc.array(segment, { minLength: 1, maxLength: 5 }),
    fc.option(fc.array(fc.oneof(pchar, fc.constantFrom('/', '?', '#')), { maxLength: 6 }).map((cs) => cs.join(''))),
  )
  .map(([segments, query]) => `/${segments.join('/')}${query === null ? '' : `?${query}`}`);

/** The paths a backend may route a forwarded target by. */
export function readings(url: string): string[] {
  const out = new Set<string>();
  const raw = url.split(/[?#]/, 1)[0] as string;
  for (const path of [raw, new URL(url, 'http://backend').pathname]) {
    out.add(path);
    try {
      out.add(decodeURIComponent(path));
    } catch {
      // a malformed escape: the raw reading stands
    }
  }
  // A backend that decodes the target (once, or twice) and parses it again: the path ends at a decoded `#` or `?`.
  let decoded = url;
  for (let i = 0; i < 2; i++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
    out.add(new URL(decoded.replace(/^[/\\]+/, '/'), 'http://backend').pathname);
  }
  return [...out].map((p) => p.toLowerCase().replace(/\\/g, '/').replace(/\/+/g, '/'));
}
/** Whether a path is /rpc or one of `excluded`, or below one. */
export const keptAwayBy = (excluded: readonly string[]) => (path: string) =>
  ['/rpc', ...excluded].some((p) => path === p || path.startsWith(`${p}/`));

