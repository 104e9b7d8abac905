// Reading and writing dotted paths in JSON bodies; `*` walks every element of an array, and `*[key=value]` only the
// elements whose `key` is `value` (one member of a tagged union, e.g. `tabs.*.items.*[type=title]`); `name[key=value]`
// steps into `name` only when it is that member (`data[sourceType=manual]`).

import { FORBIDDEN, type Segment, parsePath } from '../contract-model/field-path.js';

export { hasElements, parsePath, parseSegment, splitAtElements, splitPath, withoutFilters, type EachSegment, type KeySegment, type Segment } from '../contract-model/field-path.js';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether an element (or a key's value) is one a segment's `[tag=value]` filter selects; any, without a filter. */
export const matches = (seg: Segment, item: unknown): boolean =>
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

// A plain path's keys, by text: split and checked once (every path comes from the contract; the cap guards the rest).
const plain = new Map<string, readonly string[]>();
const PLAIN_CAP = 4096;

/** A path's keys taken literally (getAt, setAt, deleteAt: the part of a path inside each object, after its array steps). */
const plainParts = (path: string): readonly string[] => {
  let parts = plain.get(path);
  if (!parts) {
    parts = Object.freeze(path === '' ? [] : path.split('.'));
    for (const p of parts) if (FORBIDDEN.has(p)) throw new Error(`forbidden path segment "${p}" in "${path}"`);
    if (plain.size < PLAIN_CAP) plain.set(path, parts);
  }
  return parts;
};

/** The answer of a lookup that found nothing (shared: it carries no value). */
const NOT_FOUND: { found: boolean; value?: unknown } = Object.freeze({ found: false });

/** The object holding the path's last key (the body itself for a one-key path); undefined when the path breaks off. */
function parentOf(body: Obj, parts: readonly string[]): Obj | undefined {
  if (!isObject(body)) return undefined;
  let node: Obj = body;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = node[parts[i] as string];
    if (!Object.hasOwn(node, parts[i] as string) || !isObject(next)) return undefined;
    node = next;
  }
  return node;
}

export function getAt(body: Obj, path: string): { found: boolean; value?: unknown } {
  const parts = plainParts(path);
  if (parts.length === 0) return { found: true, value: body };
  const parent = parentOf(body, parts);
  const last = parts[parts.length - 1] as string;
  return parent !== undefined && Object.hasOwn(parent, last) ? { found: true, value: parent[last] } : NOT_FOUND;
}

/** Sets a value, creating intermediate objects. */
export function setAt(body: Obj, path: string, value: unknown): void {
  const parts = plainParts(path);
  if (parts.length === 0) return;
  let node: Obj = body;
  for (let i = 0; i < parts.length - 1; i++) {
    const seg = parts[i] as string;
    if (!isObject(node[seg])) node[seg] = {};
    node = node[seg] as Obj;
  }
  node[parts[parts.length - 1] as string] = value;
}

export function deleteAt(body: Obj, path: string): { found: boolean; value?: unknown } {
  const parts = plainParts(path);
  if (parts.length === 0) return { found: true, value: body }; // the body itself: found, nothing to delete
  const parent = parentOf(body, parts);
  const last = parts[parts.length - 1] as string;
  if (parent === undefined || !Object.hasOwn(parent, last)) return NOT_FOUND;
  const value = parent[last];
  delete parent[last];
  return { found: true, value };
}

/** Whether an object has no own keys (without listing them). */
const isEmptyObject = (o: Obj): boolean => {
  for (const k in o) if (Object.hasOwn(o, k)) return false;
  return true;
};

/** Deletes a field and the containers on its path that it leaves empty (a move must not leave `{}` behind). */
export function deletePrunedAt(body: Obj, path: string): { found: boolean; value?: unknown } {
  const parts = plainParts(path);
  if (parts.length === 0) return { found: true, value: body };
  if (!isObject(body)) return NOT_FOUND;
  // The objects on the way down: chain[i] holds parts[i].
  const chain: Obj[] = [body];
  for (let i = 0; i < parts.length - 1; i++) {
    const node = chain[i] as Obj;
    const next = node[parts[i] as string];
    if (!Object.hasOwn(node, parts[i] as string) || !isObject(next)) return NOT_FOUND;
    chain.push(next);
  }
  const last = parts.length - 1;
  const holder = chain[last] as Obj;
  if (!Object.hasOwn(holder, parts[last] as string)) return NOT_FOUND;
  const value = holder[parts[last] as string];
  // Below the body, the holder (or the highest container it leaves empty) is replaced by a copy without the key:
  // `delete` of a member that was not added last puts an object in V8's slower dictionary mode, for every later
  // step and for JSON.stringify (BENCHMARKS.md, "A first read's answer encoded once; moves without delete").
  let depth = last;
  let kept = depth > 0 ? without(holder, parts[last] as string) : undefined;
  while (depth > 0 && kept !== undefined && isEmptyObject(kept)) {
    depth--;
    kept = depth > 0 ? without(chain[depth] as Obj, parts[depth] as string) : undefined;
  }
  if (kept !== undefined) (chain[depth - 1] as Obj)[parts[depth - 1] as string] = kept;
  else delete (chain[0] as Obj)[parts[0] as string];
  return { found: true, value };
}

/** A copy of an object without one key, its other members in their order (an own `__proto__` stays a member). */
function without(o: Obj, key: string): Obj {
  const out: Obj = {};
  for (const k in o) {
    if (k === key || !Object.hasOwn(o, k)) continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: o[k], enumerable: true, writable: true, configurable: true });
    else out[k] = o[k];
  }
  return out;
}

export const isJsonObject = isObject;

/** Whether `locations` put objects at the answer's own elements (a list answer, as getWorkbooksByIds' at `*`): such an array is migrated like an object. */
export const locatesElements = (locations: readonly { readonly path: string }[]): boolean => locations.some((l) => /^\*($|[.[])/.test(l.path));
