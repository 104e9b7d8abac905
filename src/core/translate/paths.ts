// Reading and writing dotted paths in JSON bodies; `*` walks every element of an array, and `*[key=value]` only the
// elements whose `key` is `value` (one member of a tagged union, e.g. `tabs.*.items.*[type=title]`); `name[key=value]`
// steps into `name` only when it is that member (`data[sourceType=manual]`).

import { FORBIDDEN, type Segment, parsePath } from '../contract/field-path.js';

export { hasElements, parsePath, parseSegment, splitAtElements, splitPath, withoutFilters, type EachSegment, type KeySegment, type Segment } from '../contract/field-path.js';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

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
