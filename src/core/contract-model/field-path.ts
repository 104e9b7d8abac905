// The syntax of a contract's field paths: dotted keys, `*` for every element of an array, `*[key=value]` for the
// members of a tagged union, `name[key=value]` for a key holding that member. Shared by the contract's checks and
// the translation engine (src/core/translate/paths.ts reads and writes bodies along them).

// Keys that must never be followed or created from contract paths (prototype pollution).
export const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** One step of a path: a key, or every element of an array (optionally only the members tagged `tag` = `value`). */
export type Segment = KeySegment | EachSegment;
export interface KeySegment {
  readonly key: string;
  readonly tag?: string;
  readonly values?: readonly string[];
}
export interface EachSegment {
  readonly each: true;
  readonly tag?: string;
  readonly values?: readonly string[];
}

const ELEMENT = /^\*(?:\[([^=\]]+)=([^\]]+)\])?$/;
const KEYED = /^([^[\]*]+)\[([^=\]]+)=([^\]]+)\]$/;

/** A segment's syntax: `key`, `*`, or `*[tag=value]` (`*[tag=a|b]` for several values). */
export function parseSegment(raw: string, path: string): Segment {
  const m = ELEMENT.exec(raw);
  if (m) {
    const [, tag, values] = m;
    if (tag === undefined || values === undefined) return { each: true };
    if (FORBIDDEN.has(tag)) throw new Error(`forbidden path segment "${raw}" in "${path}"`);
    return { each: true, tag, values: values.split('|') };
  }
  const k = KEYED.exec(raw);
  if (k) {
    const [, key, tag, values] = k as unknown as [string, string, string, string];
    if (FORBIDDEN.has(key) || FORBIDDEN.has(tag)) throw new Error(`forbidden path segment "${raw}" in "${path}"`);
    return { key, tag, values: values.split('|') };
  }
  if (raw.includes('[') || raw.includes(']') || raw === '') throw new Error(`malformed path segment "${raw}" in "${path}"`);
  if (FORBIDDEN.has(raw)) throw new Error(`forbidden path segment "${raw}" in "${path}"`);
  return { key: raw };
}

export function splitPath(path: string): string[] {
  const parts = path === '' ? [] : path.split('.');
  for (const p of parts) parseSegment(p, path);
  return parts;
}

// Parsed paths, by text: every path comes from the contract, so the cache stays small; the cap guards the rest.
const parsed = new Map<string, readonly Segment[]>();
const PARSED_CAP = 4096;

export function parsePath(path: string): readonly Segment[] {
  let segments = parsed.get(path);
  if (!segments) {
    segments = Object.freeze(splitPath(path).map((p) => parseSegment(p, path)));
    if (parsed.size < PARSED_CAP) parsed.set(path, segments);
  }
  return segments;
}

/** Whether a path steps into arrays (`*`) anywhere. */
export const hasElements = (path: string): boolean => parsePath(path).some((s) => 'each' in s);

/** The path with its union filters dropped (`a.*[type=x].b` → `a.*.b`): how schema differences name places. */
export const withoutFilters = (path: string): string =>
  parsePath(path)
    .map((s) => ('each' in s ? '*' : s.key))
    .join('.');

/** Whether a segment selects (an array step or a union filter): a path's plain rest follows its last selecting segment. */
const selects = (s: Segment): boolean => 'each' in s || s.tag !== undefined;

/**
 * Splits a path after its last array step or union filter: `base` reaches the objects (`tabs.*.items.*[type=title]`),
 * `rest` is the plain dotted path inside each (`data.textColor`). A path without either has base "" (the body itself).
 */
export function splitAtElements(path: string): { base: string; rest: string } {
  const parts = splitPath(path);
  const segments = parsePath(path);
  let last = -1;
  segments.forEach((s, i) => {
    if (selects(s)) last = i;
  });
  return { base: parts.slice(0, last + 1).join('.'), rest: parts.slice(last + 1).join('.') };
}

