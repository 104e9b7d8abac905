// Shape limits on request JSON that a schema cannot express: nesting depth, and keys that pollute
// prototypes when some consumer merges the body (`__proto__`, `constructor.prototype`).

import { GatewayError } from '../../core/errors.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** The deepest nesting of objects and arrays in raw JSON bytes (strings skipped), stopping past `limit`. */
export function nestingDepth(raw: Uint8Array, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max && (max = depth) > limit) return max;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return max;
}

const MARKERS = ['__proto__', 'prototype', '\\u'].map((m) => Buffer.from(m));

type Path = (string | number)[];

/** The path (keys and array indexes) of the first dangerous key, or undefined. Walks only when the raw bytes could hold one. */
export function dangerousKeyPath(raw: Buffer, parsed: unknown): Path | undefined {
  if (!MARKERS.some((m) => raw.includes(m))) return undefined;
  const stack: { node: unknown; path: Path }[] = [{ node: parsed, path: [] }];
  while (stack.length) {
    const { node, path } = stack.pop() as { node: unknown; path: Path };
    if (!node || typeof node !== 'object') continue;
    const inArray = Array.isArray(node);
    for (const key of Object.keys(node)) {
      const value = (node as Record<string, unknown>)[key];
      const here = [...path, inArray ? Number(key) : key];
      if (key === '__proto__') return here;
      if (key === 'constructor' && value && typeof value === 'object' && Object.hasOwn(value, 'prototype')) {
        return [...here, 'prototype'];
      }
      if (value && typeof value === 'object') stack.push({ node: value, path: here });
    }
  }
  return undefined;
}

// Both refusals are zod-4-shaped `custom` issues, as every VALIDATION_ERROR's details are; `params.reason` says which.
export function guardJson(raw: Buffer, parsed: unknown, maxDepth: number): void {
  if (nestingDepth(raw, maxDepth) > maxDepth) {
    throw new GatewayError('VALIDATION_ERROR', `the body nests objects and arrays deeper than ${maxDepth} levels`, [
      { code: 'custom', path: [], message: `Nesting deeper than ${maxDepth} levels`, params: { reason: 'too_deep', maxDepth } },
    ]);
  }
  const path = dangerousKeyPath(raw, parsed);
  if (path !== undefined) {
    throw new GatewayError('VALIDATION_ERROR', `the body holds the key "${path.join('.')}", which is refused`, [
      { code: 'custom', path, message: '__proto__ and constructor.prototype keys are refused', params: { reason: 'forbidden_key' } },
    ]);
  }
}
