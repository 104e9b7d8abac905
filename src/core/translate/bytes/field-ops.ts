// The field operations of ../field-ops.ts (fill, restore, drop, move, to and from an array) on the skeleton, step for
// step: the same lookups, containers made and pruned the same way, values moved as their source bytes.

import { parsePath, splitAtElements, splitPath } from '../../contract-model/field-path.js';
import { FORBIDDEN } from '../../contract-model/field-path.js';
import { type Node, val } from './node.js';
import type { Tree } from './tree.js';

/** A path's plain keys (the part inside each object after its array steps), checked as paths.ts checks them. */
const plain = new Map<string, readonly string[]>();
function plainParts(path: string): readonly string[] {
  let parts = plain.get(path);
  if (parts) return parts;
  parts = Object.freeze(path === '' ? [] : path.split('.'));
  for (const p of parts) if (FORBIDDEN.has(p)) throw new Error(`forbidden path segment "${p}" in "${path}"`);
  // Paths come from the contract: a few, kept (the cap guards the rest).
  if (plain.size < 4096) plain.set(path, parts);
  return parts;
}

interface Got {
  readonly found: boolean;
  readonly value?: Node;
}
const NOT_FOUND: Got = { found: false };

function parentOf(t: Tree, body: Node, parts: readonly string[]): Node | undefined {
  if (!t.isObject(body)) return undefined;
  let node = body;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = t.member(node, parts[i] as string);
    if (!t.isObject(next)) return undefined;
    node = next;
  }
  return node;
}

export function getAt(t: Tree, body: Node, path: string): Got {
  const parts = plainParts(path);
  if (parts.length === 0) return { found: true, value: body };
  const parent = parentOf(t, body, parts);
  const kid = parent && t.member(parent, parts[parts.length - 1] as string);
  return kid === undefined ? NOT_FOUND : { found: true, value: kid };
}

/** A new empty object node. */
const newObject = (t: Tree): Node => t.open(val({}));

export function setAt(t: Tree, body: Node, path: string, value: Node): void {
  const parts = plainParts(path);
  if (parts.length === 0) return;
  let node = body;
  for (let i = 0; i < parts.length - 1; i++) {
    const seg = parts[i] as string;
    let next = t.member(node, seg);
    if (!t.isObject(next)) {
      next = newObject(t);
      t.set(node, seg, next);
    }
    node = next;
  }
  t.set(node, parts[parts.length - 1] as string, value);
}

/** Deletes a member and the containers on its path it leaves empty, as paths.ts's deletePrunedAt. */
export function deletePrunedAt(t: Tree, body: Node, path: string): Got {
  const parts = plainParts(path);
  if (parts.length === 0) return { found: true, value: body };
  if (!t.isObject(body)) return NOT_FOUND;
  const chain: Node[] = [body];
  for (let i = 0; i < parts.length - 1; i++) {
    const next = t.member(chain[i] as Node, parts[i] as string);
    if (!t.isObject(next)) return NOT_FOUND;
    chain.push(next);
  }
  const last = parts.length - 1;
  const holder = chain[last] as Node;
  const at = t.indexOf(holder, parts[last] as string);
  if (at === -1) return NOT_FOUND;
  const value = holder.kid(at);
  t.remove(holder, at);
  for (let depth = last; depth > 0 && t.open(chain[depth] as Node).live === 0; depth--) {
    const up = chain[depth - 1] as Node;
    t.remove(up, t.indexOf(up, parts[depth - 1] as string));
  }
  return { found: true, value };
}

/** The objects a path's array steps reach in `o` (o itself when none), and the plain rest of the path. */
function each(t: Tree, o: Node, path: string, op: (x: Node, rest: string) => void): void {
  const { base, rest } = splitAtElements(path);
  const objects = base === '' ? [o] : t.collect(o, parsePath(base)).filter((x) => t.isObject(x));
  for (const x of objects) op(x, rest);
}

const copyOf = (value: unknown) => (typeof value === 'object' && value !== null ? structuredClone(value) : value);

export function fill(t: Tree, o: Node, path: string, value: unknown): void {
  each(t, o, path, (x, rest) => {
    if (!getAt(t, x, rest).found) setAt(t, x, rest, val(copyOf(value)));
  });
}

export function restore(t: Tree, o: Node, path: string, value: unknown): void {
  each(t, o, path, (x, rest) => {
    const dot = rest.lastIndexOf('.');
    if (dot !== -1 && !getAt(t, x, rest.slice(0, dot)).found) return;
    if (!getAt(t, x, rest).found) setAt(t, x, rest, val(structuredClone(value)));
  });
}

export const drop = (t: Tree, o: Node, path: string): void => each(t, o, path, (x, rest) => void deletePrunedAt(t, x, rest));

/** A converted value: the source node itself when the conversion gave back the same scalar (its bytes are kept). */
function converted(t: Tree, node: Node, convert: (v: unknown, existing: unknown) => unknown, existing: Got): Node | undefined {
  const before = t.decode(node);
  const after = convert(before, existing.found ? t.decode(existing.value as Node) : undefined);
  if (after === undefined) return undefined;
  const scalar = before === null || typeof before !== 'object';
  return scalar && Object.is(after, before) ? node : val(after);
}

export function move(t: Tree, o: Node, from: string, to: string, convert?: (v: unknown, existing: unknown) => unknown): void {
  const { base, rest: fromRest } = splitAtElements(from);
  const toRest = to.split('.').slice(base === '' ? 0 : splitPath(base).length).join('.');
  const objects = base === '' ? [o] : t.collect(o, parsePath(base)).filter((x) => t.isObject(x));
  for (const x of objects) {
    const got = deletePrunedAt(t, x, fromRest);
    if (!got.found) continue;
    const value = convert ? converted(t, got.value as Node, convert, getAt(t, x, toRest)) : got.value;
    if (value !== undefined && !(convert === undefined && t.isUndefined(value))) setAt(t, x, toRest, value);
  }
}

export function toArray(t: Tree, o: Node, path: string): void {
  each(t, o, path, (x, rest) => {
    const got = getAt(t, x, rest);
    const v = got.value;
    if (v === undefined || t.isUndefined(v) || t.isArray(v)) return;
    const list = t.open(val([]));
    t.push(list, '', v);
    setAt(t, x, rest, list);
  });
}

export function fromArray(t: Tree, o: Node, path: string): void {
  each(t, o, path, (x, rest) => {
    const got = getAt(t, x, rest);
    if (got.found && t.isArray(got.value)) setAt(t, x, rest, (t.open(got.value as Node).kids.length > 0 ? (got.value as Node).kid(0) : val(undefined)));
  });
}
