// Prototype-pollution checks for translation tests: JSON bodies with own `__proto__`, `constructor` and
// `prototype` keys, and checks that no built-in prototype changed and no object got an odd prototype.

import fc from 'fast-check';
import { expect } from 'vitest';
import type { Json } from '../../src/core/contract-model/types.js';

/** JSON text whose objects may hold own `__proto__`, `constructor`, `prototype` keys (JSON.parse makes them own). */
const DANGEROUS = ['__proto__', 'constructor', 'prototype'] as const;
const keyName = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...DANGEROUS) },
  { weight: 2, arbitrary: fc.constantFrom('polluted', 'toString', 'hasOwnProperty', 'valueOf', 'isAdmin', 'key', 'config', 'data', 'name') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const { tree: jsonTextArb } = fc.letrec<{ tree: string; node: string }>((tie) => ({
  tree: fc
    .array(fc.tuple(keyName, tie('node')), { maxLength: 4 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  node: fc.oneof(
    { depthSize: 'xsmall', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.stringify(v)),
    tie('tree'),
    fc.array(tie('tree'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
  ),
}));
export const pollutingBody = jsonTextArb.map((text) => JSON.parse(text) as Json);

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
export type Snapshot = (readonly [PropertyKey, PropertyDescriptor | undefined])[][];
export const snapshot = (): Snapshot => PROTOTYPES.map((p) => Reflect.ownKeys(p).map((k) => [k, Object.getOwnPropertyDescriptor(p, k)] as const));
/** Same own keys, same values and accessors, on every built-in prototype; and a fresh object sees nothing new. */
export const expectNoPollution = (before: Snapshot) => {
  const now = snapshot();
  const same = now.every(
    (keys, i) =>
      keys.length === before[i]!.length &&
      keys.every(([k, d], j) => {
        const [k0, d0] = before[i]![j]!;
        return k === k0 && d?.value === d0?.value && d?.get === d0?.get && d?.set === d0?.set;
      }),
  );
  if (!same) expect(now.map((keys) => keys.map(([k]) => String(k)))).toStrictEqual(before.map((keys) => keys.map(([k]) => String(k))));
  expect(same).toBe(true);
  const fresh = {} as Record<string, unknown>;
  expect([fresh.polluted, fresh.isAdmin, fresh.name, fresh.key]).toEqual([undefined, undefined, undefined, undefined]);
  expect(Object.getPrototypeOf(fresh)).toBe(Object.prototype);
};
/** Paths of objects reachable in `v` whose prototype is not the ordinary one (a hijacked prototype of our own objects). */
const oddPrototypes = (v: unknown, at = '$', out: string[] = []): string[] => {
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) out.push(at);
    v.forEach((item, i) => oddPrototypes(item, `${at}[${i}]`, out));
  } else if (v !== null && typeof v === 'object') {
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) out.push(at);
    for (const k of Object.keys(v)) oddPrototypes((v as Json)[k], `${at}.${k}`, out);
  }
  return out;
};
export const expectOrdinaryPrototypes = (v: unknown) => expect(oddPrototypes(v)).toEqual([]);

/** Adds the keys of `extra` that `base` lacks (as own data properties, fresh copies) at the top level and into one nested field. */
export const mix = (base: Json, extra: Json, nestedField?: string): Json => {
  const copy = (v: unknown): unknown => JSON.parse(JSON.stringify(v)); // keeps own `__proto__` keys own
  const addTo = (target: Json) => {
    for (const k of Object.keys(extra)) {
      if (Object.hasOwn(target, k)) continue;
      Object.defineProperty(target, k, { value: copy(extra[k]), enumerable: true, writable: true, configurable: true });
    }
  };
  const out = copy(base) as Json;
  addTo(out);
  const nested = nestedField === undefined ? undefined : out[nestedField];
  if (nested !== null && typeof nested === 'object' && !Array.isArray(nested)) addTo(nested as Json);
  return out;
};
