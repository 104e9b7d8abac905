// Reading and writing dotted paths in JSON bodies; `*` walks every element of an array, and `*[key=value]` only the
// elements whose `key` is `value` (one member of a tagged union, e.g. `tabs.*.items.*[type=title]`); `name[key=value]`
// steps into `name` only when it is that member (`data[sourceType=manual]`).

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// Keys that must never be followed or created from contract paths (prototype pollution).
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

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

const matches = (seg: Segment, item: unknown): boolean =>
  seg.tag === undefined || (isObject(item) && Object.hasOwn(item, seg.tag) && (seg.values ?? []).includes(String(item[seg.tag])));

/** Every value the path reaches ("" is the body itself; `*` steps into each array element, `*[k=v]` into the matching ones). */
export function collect(body: unknown, path: string): unknown[] {
  const found: unknown[] = [];
  const segments = parsePath(path);
  const walk = (node: unknown, i: number): void => {
    if (i === segments.length) {
      found.push(node);
      return;
    }
    const seg = segments[i] as Segment;
    if ('each' in seg) {
      if (Array.isArray(node)) for (const item of node) if (matches(seg, item)) walk(item, i + 1);
    } else if (isObject(node) && Object.hasOwn(node, seg.key) && matches(seg, node[seg.key])) {
      walk(node[seg.key], i + 1);
    }
  };
  walk(body, 0);
  return found;
}

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

/** The objects a base path reaches (the body itself for ""), for field operations that walk arrays. */
export const objectsAt = (body: Obj, base: string): Obj[] =>
  base === '' ? [body] : (collect(body, base).filter(isObject) as Obj[]);

/** A path's keys taken literally (getAt, setAt, deleteAt: the part of a path inside each object, after its array steps). */
const plainParts = (path: string): string[] => {
  const parts = path === '' ? [] : path.split('.');
  for (const p of parts) if (FORBIDDEN.has(p)) throw new Error(`forbidden path segment "${p}" in "${path}"`);
  return parts;
};

export function getAt(body: Obj, path: string): { found: boolean; value?: unknown } {
  let node: unknown = body;
  for (const seg of plainParts(path)) {
    if (!isObject(node) || !Object.hasOwn(node, seg)) return { found: false };
    node = node[seg];
  }
  return { found: true, value: node };
}

/** Sets a value, creating intermediate objects. */
export function setAt(body: Obj, path: string, value: unknown): void {
  const parts = plainParts(path);
  const last = parts.pop();
  if (last === undefined) return;
  let node: Obj = body;
  for (const seg of parts) {
    const next = node[seg];
    if (!isObject(next)) node[seg] = {};
    node = node[seg] as Obj;
  }
  node[last] = value;
}

export function deleteAt(body: Obj, path: string): { found: boolean; value?: unknown } {
  const got = getAt(body, path);
  if (!got.found) return got;
  const parts = plainParts(path);
  const last = parts.pop() as string;
  const parent = parts.length ? (getAt(body, parts.join('.')).value as Obj) : body;
  delete parent[last];
  return got;
}

export const isJsonObject = isObject;
