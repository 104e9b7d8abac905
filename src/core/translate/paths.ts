// Reading and writing dotted paths in JSON bodies; `*` walks every element of an array.

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// Keys that must never be followed or created from contract paths (prototype pollution).
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

export function splitPath(path: string): string[] {
  const parts = path === '' ? [] : path.split('.');
  for (const p of parts) if (FORBIDDEN.has(p)) throw new Error(`forbidden path segment "${p}" in "${path}"`);
  return parts;
}

/** Every value the path reaches ("" is the body itself; `*` steps into each array element). */
export function collect(body: unknown, path: string): unknown[] {
  const found: unknown[] = [];
  const parts = splitPath(path);
  const walk = (node: unknown, i: number): void => {
    if (i === parts.length) {
      found.push(node);
      return;
    }
    const seg = parts[i] as string;
    if (seg === '*') {
      if (Array.isArray(node)) for (const item of node) walk(item, i + 1);
    } else if (isObject(node) && Object.hasOwn(node, seg)) {
      walk(node[seg], i + 1);
    }
  };
  walk(body, 0);
  return found;
}

export function getAt(body: Obj, path: string): { found: boolean; value?: unknown } {
  let node: unknown = body;
  for (const seg of splitPath(path)) {
    if (!isObject(node) || !Object.hasOwn(node, seg)) return { found: false };
    node = node[seg];
  }
  return { found: true, value: node };
}

/** Sets a value, creating intermediate objects. */
export function setAt(body: Obj, path: string, value: unknown): void {
  const parts = splitPath(path);
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
  const parts = splitPath(path);
  const last = parts.pop() as string;
  const parent = parts.length ? (getAt(body, parts.join('.')).value as Obj) : body;
  delete parent[last];
  return got;
}

export const isJsonObject = isObject;
