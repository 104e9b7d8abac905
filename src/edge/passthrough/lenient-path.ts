// What a lenient backend may make of a request path: the readings to check before a path is passed through,
// so that no spelling reaches a path the gateway keeps from the backend (its /rpc, the operator's exclusions).

/** A segment as lenient servers read it: without `;` parameters, control characters and trailing dots. */
function cleanSegment(raw: string): string {
  const semicolon = raw.indexOf(';');
  let segment = (semicolon === -1 ? raw : raw.slice(0, semicolon)).replace(/[\x00-\x20\x7f]/g, '');
  if (segment !== '.' && segment !== '..') segment = segment.replace(/\.+$/, '');
  return segment;
}

/** The path once dot segments are resolved (empty segments, from `//`, dropped or kept); undefined when it climbs above the root. */
function resolve(segments: readonly string[], keepEmpty: boolean): string | undefined {
  const out: string[] = [];
  // segments[0] is what precedes the leading slash.
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (segment === '.' || (segment === '' && !keepEmpty)) continue;
    if (segment === '..') {
      // RFC 3986 §5.2.4 drops such a `..`, but servers that map paths to files may not: no backend gets it.
      if (out.pop() === undefined) return undefined;
    } else out.push(segment);
  }
  return `/${out.join('/')}`;
}

/** Adds both resolutions of `segments` to `readings`; false when one climbs above the root. */
function addResolved(readings: Set<string>, segments: readonly string[]): boolean {
  for (const keepEmpty of [false, true]) {
    const resolved = resolve(segments, keepEmpty);
    if (resolved === undefined) return false;
    readings.add(resolved.toLowerCase());
  }
  return true;
}

/** `path` with percent-escapes decoded `times` times (some servers decode again after routing). */
function decode(path: string, times: number): string {
  for (let i = 0; i < times && path.includes('%'); i++) {
    path = path.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
  return path;
}

/** Segments split before decoding, as URL parsers do (`%2f` stays inside its segment), each decoded after. */
function splitThenDecode(path: string, times: number, cleanParams: boolean): string[] {
  return path.split('/').map((raw) => {
    const segment = decode(cleanParams ? cleanSegment(raw) : raw, times);
    return cleanParams ? cleanSegment(segment) : segment;
  });
}

/**
 * The lower-case paths a backend may read `url` as, or undefined for a target no backend should get: not
 * origin-form, scheme-relative (`//host/...`, which URL parsers read as another host), or climbing above the root
 * in some reading (`/%2e%2e/etc/passwd`). The readings combine
 * percent-escapes decoded (one to three times) before or after splitting into segments, the path cut at a
 * decoded `#` or `?` (a backend that decodes, then parses the target again), `;` parameters,
 * control characters and trailing dots dropped or kept, backslashes as slashes, and dot segments resolved
 * with `//` collapsed or kept.
 */
export function lenientPaths(url: string): readonly string[] | undefined {
  if (!url.startsWith('/')) return undefined;
  let path = url;
  const query = path.indexOf('?');
  if (query !== -1) path = path.slice(0, query);
  path = path.replace(/\\/g, '/');
  if (path.startsWith('//')) return undefined;
  // A path with nothing to decode, resolve or drop has one reading: itself.
  if (!/[%.;\x00-\x20\x7f]|\/\/|\/$/.test(path)) return [path.toLowerCase()];
  const readings = new Set<string>();
  for (const times of [1, 2, 3]) {
    const whole = decode(path, times).replace(/\\/g, '/');
    // A backend that decodes and parses the target again ends the path at a decoded `#` or `?`.
    for (const decoded of [whole, cutAtQueryOrFragment(whole)]) {
      if (decoded.startsWith('//')) return undefined;
      // Servers that route before (or without) resolving dot segments read the path as it is.
      readings.add(decoded.replace(/\/{2,}/g, '/').toLowerCase());
      for (const segments of [decoded.split('/').map(cleanSegment), decoded.split('/')]) if (!addResolved(readings, segments)) return undefined;
    }
    for (const segments of [splitThenDecode(path, times, true), splitThenDecode(path, times, false)]) {
      if (!addResolved(readings, segments)) return undefined;
    }
  }
  // Every reading also as cut at a decoded `#` or `?` (one that appeared inside a segment, `%2f` kept in it).
  for (const reading of [...readings]) readings.add(cutAtQueryOrFragment(reading) || '/');
  return [...readings];
}

/** `path` up to its first `#` or `?`. */
const cutAtQueryOrFragment = (path: string): string => {
  const end = path.search(/[#?]/);
  return end === -1 ? path : path.slice(0, end);
};

/** `path` is `prefix` or below it (both lower case, `prefix` without a trailing slash). */
export const isUnder = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

/**
 * True when a path could reach the backend's /rpc however the backend normalises it: the versioned API is only
 * ever reached through the gateway's /rpc path, never through pass-through.
 */
export function reachesRpc(url: string): boolean {
  const paths = lenientPaths(url);
  return !paths || paths.some((p) => isUnder(p, '/rpc'));
}
