// The field operations every change is made of (fill, restore, drop, move, to and from an array), on one body or object.

import type { BodyMigration, Json } from '../contract-model/types.js';
import { collect, deletePrunedAt, getAt, isJsonObject, matches, objectsAt, parsePath, parseSegment, setAt, splitAtElements, splitPath, withoutFilters, type Segment } from './paths.js';
import { isPromiseLike } from './promise-like.js';

/**
 * The key a path starts with, when its first step is a plain key: an object without that key has nothing the path
 * reaches, so an operation that only reads or writes below it can leave the object at once (a listing row without
 * `data` meets every change to a kind's content this way).
 */
const firstKey = (path: string): string | undefined => {
  const first = parsePath(path)[0];
  return first !== undefined && !('each' in first) ? first.key : undefined;
};

/** Whether `o` is not an object holding `key` (never, for a path that starts with an array step). */
const lacks = (o: unknown, key: string | undefined): boolean =>
  key !== undefined && (typeof o !== 'object' || o === null || !Object.hasOwn(o, key));

// The paths each field operation reads or writes, by operation: a listing row without its object's content is left
// alone by an operation on that content (contentNeeded).
const pathsOf = new WeakMap<object, readonly string[]>();
const touching = <F extends object>(paths: readonly string[], op: F): F => (pathsOf.set(op, paths), op);

/** Runs `op` on each object a path's array steps reach (the body itself when it has none), with the path inside it. */
export const each = (path: string, op: (o: Json, rest: string) => void) => {
  const { base, rest } = splitAtElements(path); // once per plan, not per body
  if (base === '') return (o: Json) => (op(o, rest), o);
  const key = firstKey(base);
  return (o: Json) => {
    if (lacks(o, key)) return o;
    for (const x of objectsAt(o, base)) op(x, rest);
    return o;
  };
};

/** A default's copy for one object: objects and arrays are cloned (each body gets its own), other values are shared. */
export const copyOf = (value: unknown) => (typeof value === 'object' && value !== null ? structuredClone(value) : value);
export const fill = (path: string, value: unknown) =>
  touching([path], each(path, (o, rest) => {
    if (!getAt(o, rest).found) setAt(o, rest, copyOf(value));
  }));
/**
 * Puts back a removed field's value for older clients, inside a container the object has: a partial view of the
 * object (a listing row without `data`) gets no container made up for it.
 */
export const restore = (path: string, value: unknown) =>
  touching([path], each(path, (o, rest) => {
    const dot = rest.lastIndexOf('.');
    if (dot !== -1 && !getAt(o, rest.slice(0, dot)).found) return;
    if (!getAt(o, rest).found) setAt(o, rest, structuredClone(value));
  }));
/** Deletes a field and the containers on its path that it leaves empty (a move must not leave `{}` behind). */
const deletePruned = deletePrunedAt;
/** Moves a field (within each object the shared array steps reach), converting its value on the way when asked. */
export const move = (from: string, to: string, convert?: (value: unknown, existing: unknown) => unknown) => {
  const { base, rest: fromRest } = splitAtElements(from);
  const toRest = to.split('.').slice(base === '' ? 0 : splitPath(base).length).join('.');
  const key = firstKey(from);
  return touching([from, to], (o: Json) => {
    if (lacks(o, key)) return o;
    for (const x of objectsAt(o, base)) {
      const got = deletePruned(x, fromRest);
      if (!got.found) continue;
      const value = convert ? convert(got.value, getAt(x, toRest).value) : got.value;
      if (value !== undefined) setAt(x, toRest, value);
    }
    return o;
  });
};
export const drop = (path: string) => touching([path], each(path, (o, rest) => void deletePruned(o, rest)));
export const toArray = (path: string) =>
  touching([path], each(path, (o, rest) => {
    const got = getAt(o, rest);
    if (got.found && got.value !== undefined && !Array.isArray(got.value)) setAt(o, rest, [got.value]);
  }));
export const fromArray = (path: string) =>
  touching([path], each(path, (o, rest) => {
    const got = getAt(o, rest);
    if (got.found && Array.isArray(got.value)) setAt(o, rest, got.value[0]);
  }));


export type Located = { readonly type: string; readonly path: string; readonly listing?: { readonly content?: string } };

/** A location read once per plan: the path to the objects' holders, and the last step into them ("" is the body). */
interface Prepared {
  readonly whole: boolean;
  readonly holders: string;
  readonly step: Segment;
  readonly loc: Located;
}

function prepare(loc: Located): Prepared {
  if (loc.path === '') return { whole: true, holders: '', step: { key: '' }, loc };
  const parts = splitPath(loc.path);
  const last = parts.pop() as string;
  return { whole: false, holders: parts.join('.'), step: parseSegment(last, loc.path), loc };
}

/**
 * The key a row at `loc` must hold for an operation on `paths` to run on it: one reading or writing a listing row's
 * content leaves a row without that content alone (a row is a reference; no content is made up for it).
 */
export function contentKey(loc: Located, paths: readonly string[] | undefined): string | undefined {
  const content = loc.listing?.content === undefined ? undefined : splitPath(loc.listing.content)[0];
  return content !== undefined && paths?.some((path) => splitPath(withoutFilters(path))[0] === content) ? content : undefined;
}

/** contentKey for a field operation (its recorded paths); none for any other migration. */
const contentNeeded = (p: Prepared, op: object): string | undefined => contentKey(p.loc, pathsOf.get(op));

/** Where one location's objects sit in `body`: [holder, key] pairs, the holder undefined for the body itself. */
function slotsOf(p: Prepared, body: Json): Array<readonly [Json | unknown[] | undefined, string | number]> {
  if (p.whole) return isJsonObject(body) ? [[undefined, '']] : [];
  const slots: Array<readonly [Json | unknown[] | undefined, string | number]> = [];
  const step = p.step;
  for (const holder of collect(body, p.holders)) {
    if ('each' in step) {
      if (!Array.isArray(holder)) continue;
      // The elements the step selects (a union filter may skip some).
      for (let i = 0; i < holder.length; i++) if (isJsonObject(holder[i]) && matches(step, holder[i])) slots.push([holder, i]);
    } else if (isJsonObject(holder) && isJsonObject(holder[step.key]) && matches(step, holder[step.key])) {
      slots.push([holder, step.key]);
    }
  }
  return slots;
}

/**
 * Applies `fn` to every object of `type` at `locations` (a request's or an answer's), replacing it by the result. The
 * locations are read once; it stays synchronous until `fn` first answers a promise, then goes on in order.
 */
export const onLocated = (locations: readonly Located[], type: string, fn: BodyMigration): BodyMigration => {
  const prepared = locations.filter((l) => l.type === type).map(prepare);
  const needs = prepared.map((p) => contentNeeded(p, fn));
  return (body, ctx) => {
    let current = body;
    for (let i = 0; i < prepared.length; i++) {
      const slots = slotsOf(prepared[i] as Prepared, current);
      const need = needs[i];
      for (let j = 0; j < slots.length; j++) {
        const [holder, key] = slots[j] as (typeof slots)[number];
        const obj = (holder === undefined ? current : (holder as Record<string | number, unknown>)[key]) as Json;
        if (lacks(obj, need)) continue;
        const out = fn(obj, ctx);
        if (isPromiseLike(out)) return finish(prepared, i, slots, j, out, current, fn, ctx);
        if (holder === undefined) current = out;
        else (holder as Record<string | number, unknown>)[key] = out;
      }
    }
    return current;
  };
};

/** onLocated from the first promise on: the same walk, each result awaited in turn. */
async function finish(
  prepared: readonly Prepared[],
  at: number,
  slots: ReturnType<typeof slotsOf>,
  from: number,
  pending: PromiseLike<Json>,
  body: Json,
  fn: BodyMigration,
  ctx: Parameters<BodyMigration>[1],
): Promise<Json> {
  let current = body;
  const put = ([holder, key]: (typeof slots)[number], value: Json) => {
    if (holder === undefined) current = value;
    else (holder as Record<string | number, unknown>)[key] = value;
  };
  put(slots[from] as (typeof slots)[number], await pending);
  for (let j = from + 1; j < slots.length; j++) {
    const slot = slots[j] as (typeof slots)[number];
    put(slot, await fn((slot[0] === undefined ? current : (slot[0] as Record<string | number, unknown>)[slot[1]]) as Json, ctx));
  }
  for (let i = at + 1; i < prepared.length; i++) {
    for (const slot of slotsOf(prepared[i] as Prepared, current)) {
      put(slot, await fn((slot[0] === undefined ? current : (slot[0] as Record<string | number, unknown>)[slot[1]]) as Json, ctx));
    }
  }
  return current;
}

/** An operation that edits the object it is given and nothing else, at once: a field operation, or a declared edit. */
export type ObjectEdit = (o: Json, ctx: Parameters<BodyMigration>[1]) => Json;

/** An object edit on each located object of one kind. */
interface FieldStep {
  readonly locations: readonly Located[];
  readonly type: string;
  readonly op: ObjectEdit;
}

// The field-operation steps onLocatedFields made, by step: what fuseFieldSteps reads.
const fieldStepOf = new WeakMap<BodyMigration, FieldStep>();

// Object migrations known to be object edits (bytes/declared.ts marks each migration it declares as edits).
const objectEdits = new WeakSet<BodyMigration>();

/** Marks an object migration as an object edit: synchronous, reading and writing only the object it is given. */
export const markObjectEdit = (migration: BodyMigration): void => void objectEdits.add(migration);
export const isObjectEdit = (migration: BodyMigration): boolean => objectEdits.has(migration);

/**
 * onLocated for an object edit (a field operation, or an object migration declared as edits of its object): one
 * that runs synchronously and reads and writes only the object it is given, so that fuseFieldSteps may run it in one
 * walk with its neighbours.
 */
export const onLocatedFields = (locations: readonly Located[], type: string, op: ObjectEdit): BodyMigration => {
  const step = onLocated(locations, type, op);
  fieldStepOf.set(step, { locations, type, op });
  return step;
};

/**
 * Whether a kind's locations reach disjoint objects: no location's path (its filters aside) is another's or lies
 * inside it. Each object is then found once, and an operation on one cannot change where another is found.
 */
function disjoint(locations: readonly Located[], type: string): boolean {
  const paths = locations.filter((l) => l.type === type).map((l) => (l.path === '' ? [] : withoutFilters(l.path).split('.')));
  return paths.every((a, i) => paths.every((b, j) => i === j || !(a.length <= b.length && a.every((k, n) => k === b[n]))));
}

/** The slot's object is still one the location selects (an operation may have changed the tag its filter reads). */
const selected = (p: Prepared, o: unknown): boolean => isJsonObject(o) && (p.whole || matches(p.step, o));

/** Several field steps on one kind at the same locations as one: each object found once, then put through them in order. */
function fused(steps: readonly FieldStep[]): BodyMigration {
  const first = steps[0] as FieldStep;
  const prepared = first.locations.filter((l) => l.type === first.type).map(prepare);
  const ops = steps.map((s) => s.op);
  const needs = prepared.map((p) => ops.map((op) => contentNeeded(p, op)));
  return (body, ctx) => {
    let current = body;
    for (let i = 0; i < prepared.length; i++) {
      const p = prepared[i] as Prepared;
      const need = needs[i] as (string | undefined)[];
      for (const [holder, key] of slotsOf(p, current)) {
        let o = (holder === undefined ? current : (holder as Record<string | number, unknown>)[key]) as Json;
        for (let k = 0; k < ops.length && (k === 0 || selected(p, o)); k++) {
          if (lacks(o, need[k])) continue;
          o = (ops[k] as ObjectEdit)(o, ctx);
          if (isPromiseLike(o)) throw new Error('an object edit answered a promise: declare only synchronous edits');
        }
        if (holder === undefined) current = o;
        else (holder as Record<string | number, unknown>)[key] = o;
      }
    }
    return current;
  };
}

/**
 * The steps, each run of consecutive field steps on one kind at the same (disjoint) locations fused into one walk.
 * The result is the same as running them one by one: every operation touches only its own object, in the same order
 * for each object. A plan's dashboard changes, run on a listing's rows, walk the rows once instead of once each.
 */
export function fuseFieldSteps(steps: readonly BodyMigration[]): BodyMigration[] {
  const out: BodyMigration[] = [];
  let run: BodyMigration[] = [];
  const flush = () => {
    out.push(...(run.length > 1 ? [fused(run.map((s) => fieldStepOf.get(s) as FieldStep))] : run));
    run = [];
  };
  for (const step of steps) {
    const f = fieldStepOf.get(step);
    const head = run[0] && fieldStepOf.get(run[0]);
    if (head && !(f && f.locations === head.locations && f.type === head.type)) flush();
    if (f && disjoint(f.locations, f.type)) run.push(step);
    else out.push(step);
  }
  flush();
  return out;
}
