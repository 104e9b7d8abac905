// The field operations every change is made of (fill, restore, drop, move, to and from an array), on one body or object.

import type { BodyMigration, Json } from '../contract-model/types.js';
import { collect, deletePrunedAt, getAt, isJsonObject, objectsAt, parseSegment, setAt, splitAtElements, splitPath } from './paths.js';
import { isPromiseLike } from './promise-like.js';

/** Runs `op` on each object a path's array steps reach (the body itself when it has none), with the path inside it. */
export const each = (path: string, op: (o: Json, rest: string) => void) => {
  const { base, rest } = splitAtElements(path); // once per plan, not per body
  return (o: Json) => {
    for (const x of objectsAt(o, base)) op(x, rest);
    return o;
  };
};

/** A default's copy for one object: objects and arrays are cloned (each body gets its own), other values are shared. */
export const copyOf = (value: unknown) => (typeof value === 'object' && value !== null ? structuredClone(value) : value);
export const fill = (path: string, value: unknown) =>
  each(path, (o, rest) => {
    if (!getAt(o, rest).found) setAt(o, rest, copyOf(value));
  });
/**
 * Puts back a removed field's value for older clients, inside a container the object has: a partial view of the
 * object (a listing row without `data`) gets no container made up for it.
 */
export const restore = (path: string, value: unknown) =>
  each(path, (o, rest) => {
    const dot = rest.lastIndexOf('.');
    if (dot !== -1 && !getAt(o, rest.slice(0, dot)).found) return;
    if (!getAt(o, rest).found) setAt(o, rest, structuredClone(value));
  });
/** Deletes a field and the containers on its path that it leaves empty (a move must not leave `{}` behind). */
const deletePruned = deletePrunedAt;
/** Moves a field (within each object the shared array steps reach), converting its value on the way when asked. */
export const move = (from: string, to: string, convert?: (value: unknown, existing: unknown) => unknown) => {
  const { base, rest: fromRest } = splitAtElements(from);
  const toRest = to.split('.').slice(base === '' ? 0 : splitPath(base).length).join('.');
  return (o: Json) => {
    for (const x of objectsAt(o, base)) {
      const got = deletePruned(x, fromRest);
      if (!got.found) continue;
      const value = convert ? convert(got.value, getAt(x, toRest).value) : got.value;
      if (value !== undefined) setAt(x, toRest, value);
    }
    return o;
  };
};
export const drop = (path: string) => each(path, (o, rest) => void deletePruned(o, rest));
export const toArray = (path: string) =>
  each(path, (o, rest) => {
    const got = getAt(o, rest);
    if (got.found && got.value !== undefined && !Array.isArray(got.value)) setAt(o, rest, [got.value]);
  });
export const fromArray = (path: string) =>
  each(path, (o, rest) => {
    const got = getAt(o, rest);
    if (got.found && Array.isArray(got.value)) setAt(o, rest, got.value[0]);
  });


export type Located = { readonly type: string; readonly path: string };

/** Applies `fn` to every object of `type` at `locations` (a request's or an answer's), replacing it by the result. */
export const onLocated =
  (locations: readonly Located[], type: string, fn: BodyMigration): BodyMigration =>
  async (body, ctx) => {
    const apply = async (o: Json): Promise<Json> => {
      const out = fn(o, ctx);
      return isPromiseLike(out) ? await out : out;
    };
    for (const loc of locations) {
      if (loc.type !== type) continue;
      if (loc.path === '') {
        if (isJsonObject(body)) body = await apply(body);
        continue;
      }
      const parts = splitPath(loc.path);
      const last = parts.pop() as string;
      const step = parseSegment(last, loc.path);
      for (const parent of collect(body, parts.join('.'))) {
        if ('each' in step) {
          if (!Array.isArray(parent)) continue;
          const only = new Set(collect(parent, last)); // the elements the step selects (a union filter may skip some)
          for (let i = 0; i < parent.length; i++) {
            if (isJsonObject(parent[i]) && only.has(parent[i])) parent[i] = await apply(parent[i] as Json);
          }
        } else if (isJsonObject(parent) && isJsonObject(parent[step.key])) {
          parent[step.key] = await apply(parent[step.key] as Json);
        }
      }
    }
    return body;
  };

