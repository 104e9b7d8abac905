// The plan of a client above the backend's version: requests go DOWN to it and answers come back UP, each change's
// declared way back (derived for field changes, written for custom ones: requestDown, responseUp, object, objectUp).

import { type LoadedContract, methodAt } from '../contract-model/load.js';
import type { BodyMigration, Change, CustomChange, FieldAdded, Json, MethodSpec, Target } from '../contract-model/types.js';
import { drop, fill, fromArray, move, onLocated, restore, toArray } from './field-ops.js';
import type { MethodPlan } from './plan.js';

/** One change's contribution: the request's step down, its structural step back up (the lossless check), the answer's step up. */
interface DownSteps {
  down?: BodyMigration;
  back?: BodyMigration;
  up?: BodyMigration;
  notServed?: string;
  /** Request paths a written way down answers for: the lossless check leaves them to it. */
  owns?: readonly string[];
  /** Steps on located objects run before the method's own in each version (objects are located in one shape). */
  objects?: true;
}

type Op = (o: Json) => Json;

/** Where a change reaches one method: its request, its answer, or the objects of a kind in each (located per shape). */
interface Where {
  readonly method: string;
  /** The method at the version the change leads to (requests are located in this shape going down). */
  readonly newer: MethodSpec | undefined;
  /** The method at the version before it (answers and the way back are located in this shape). */
  readonly older: MethodSpec | undefined;
}

const requestObjects = (spec: MethodSpec | undefined, type: string) => (spec?.requestObjects ?? []).filter((l) => l.type === type);
const answerObjects = (spec: MethodSpec | undefined, type: string) => (spec?.objects ?? []).filter((l) => l.type === type);
const whole = (op: Op): BodyMigration => (b) => op(b);

/** A field change's three steps, from its operations: request down (newer → older), back (older → newer), answer up. */
function fieldSteps(target: Target, where: Where, down: Op | undefined, up: Op): DownSteps {
  if ('request' in target) {
    if (target.request !== where.method) return {};
    return { ...(down && { down: whole(down) }), back: whole(up) };
  }
  if ('response' in target) return target.response === where.method ? { up: whole(up) } : {};
  const type = target.object;
  const inRequest = requestObjects(where.newer, type);
  const backIn = requestObjects(where.older, type);
  const inAnswer = answerObjects(where.older, type);
  return {
    objects: true,
    ...(down && inRequest.length && { down: onLocated(inRequest, type, (o) => down(o)) }),
    ...(backIn.length && { back: onLocated(backIn, type, (o) => up(o)) }),
    // The operation itself (not a wrapper): a listing row without content is left alone by one on the content.
    ...(inAnswer.length && { up: onLocated(inAnswer, type, up) }),
  };
}

/** Why a custom change's migration for this method has no way back (undefined: it has one, or touches nothing here). */
function customGap(change: CustomChange, where: Where, version: number): string | undefined {
  const why = (what: string) => change.oneWay ?? `version ${version}'s change "${change.description}" declares no ${what}`;
  if (change.request?.[where.method] && !change.requestDown?.[where.method]) return why(`way down for ${where.method}'s request`);
  if (change.response?.[where.method] && !change.responseUp?.[where.method]) return why(`way up for ${where.method}'s answer`);
  for (const type of Object.keys(change.object ?? {})) {
    if (answerObjects(where.older, type).length && !change.objectUp?.[type]) return why(`way up for ${type} objects`);
  }
  return undefined;
}

function customSteps(change: CustomChange, where: Where, version: number): DownSteps[] {
  const gap = customGap(change, where, version);
  if (gap !== undefined) return [{ notServed: gap }];
  const downs: BodyMigration[] = [];
  const backs: BodyMigration[] = [];
  const ups: BodyMigration[] = [];
  for (const [type, fn] of Object.entries(change.object ?? {})) {
    const at = requestObjects(where.newer, type);
    if (at.length) downs.push(onLocated(at, type, fn));
    const objectUp = change.objectUp?.[type];
    const backAt = requestObjects(where.older, type);
    if (objectUp && backAt.length) backs.push(onLocated(backAt, type, objectUp));
  }
  for (const [type, fn] of Object.entries(change.objectUp ?? {})) {
    const at = answerObjects(where.older, type);
    if (at.length) ups.push(onLocated(at, type, fn));
  }
  const requestDown = change.requestDown?.[where.method];
  const responseUp = change.responseUp?.[where.method];
  // A written way down answers for the request fields its change covers (it refuses what it cannot carry itself).
  const owns = requestDown ? change.covers.flatMap((c) => ('request' in c.target && c.target.request === where.method ? [c.path] : [])) : [];
  return [
    { objects: true, ...(downs.length && { down: chain(downs) }), ...(backs.length && { back: chain(backs) }), ...(ups.length && { up: chain(ups) }) },
    { ...(requestDown && { down: requestDown }), ...(responseUp && { up: responseUp }), ...(owns.length && { owns }) },
  ];
}

/** Steps run one after another as one. */
function chain(steps: readonly BodyMigration[]): BodyMigration {
  if (steps.length === 1) return steps[0] as BodyMigration;
  return async (body, ctx) => {
    let current = body;
    for (const step of steps) current = await step(current, ctx);
    return current;
  };
}

/** One change's steps for a client above the backend (a custom change's on objects and on the method apart). */
export function stepsBelow(change: Change, where: Where, version: number): DownSteps | DownSteps[] {
  switch (change.kind) {
    case 'fieldAdded':
      return fieldSteps(change.target, where, drop(change.path), fill(change.path, change.default));
    case 'fieldRemoved':
      return fieldSteps(change.target, where, change.downDefault === undefined ? undefined : restore(change.path, change.downDefault), drop(change.path));
    case 'fieldRenamed': {
      const convert = change.convert;
      return fieldSteps(
        change.target,
        where,
        move(change.to, change.from, convert && ((v) => convert.down(v))),
        move(change.from, change.to, convert && ((v, existing) => convert.up(v, existing))),
      );
    }
    case 'fieldToArray':
      return fieldSteps(change.target, where, fromArray(change.path), toArray(change.path));
    case 'methodAdded':
      return change.method === where.method ? { notServed: `${where.method} was added in API version ${version}` } : {};
    case 'methodRemoved':
      return {};
    case 'custom':
      return customSteps(change, where, version);
    default: {
      const never: never = change;
      throw new Error(`unknown change ${(never as Change).kind}`);
    }
  }
}

/** The changes of `version`, in declaration order: its own, then the compatible additions shipped while it was current. */
const changesOf = (loaded: LoadedContract, version: number): readonly Change[] => {
  const v = loaded.byVersion.get(version);
  return v ? [...v.changes, ...((v.additions ?? []) as readonly FieldAdded[])] : [];
};

/** One version's steps, on objects first and then on the method, each direction in its order. */
function versionBelow(loaded: LoadedContract, v: number, where: Where) {
  const out = { down: [] as BodyMigration[], back: [] as BodyMigration[], up: [] as BodyMigration[], owned: [] as string[], notServed: undefined as string | undefined };
  const steps = changesOf(loaded, v).flatMap((c) => stepsBelow(c, where, v));
  for (const s of steps) out.notServed ??= s.notServed;
  // Objects are located in one shape (requests in the newer, answers and the way back in the older): their steps run
  // first. Down-steps of one version run in reverse declaration order (the inverse of the way up), the others in order.
  const objectsFirst = (list: DownSteps[]) => [...list.filter((x) => x.objects), ...list.filter((x) => !x.objects)];
  for (const s of objectsFirst([...steps].reverse())) if (s.down) out.down.push(s.down);
  for (const s of objectsFirst(steps)) {
    if (s.back) out.back.push(s.back);
    if (s.up) out.up.push(s.up);
    if (s.owns) out.owned.push(...s.owns);
  }
  return out;
}

/** The plan of `method` at `version` above a backend at `backend`: requests down, answers up, or why it is not served. */
export function buildPlanAbove(loaded: LoadedContract, version: number, method: string, backend: number, spec: MethodSpec): MethodPlan {
  const down: BodyMigration[] = [];
  const back: BodyMigration[] = [];
  const up: BodyMigration[] = [];
  const owned: string[] = [];
  let notServed: string | undefined;
  for (let v = version; v > backend && notServed === undefined; v--) {
    const steps = versionBelow(loaded, v, { method, newer: methodAt(loaded, v, method), older: methodAt(loaded, v - 1, method) });
    notServed = steps.notServed && `${steps.notServed}; the backend speaks API version ${backend}`;
    down.push(...steps.down);
    back.unshift(...steps.back);
    up.unshift(...steps.up);
    owned.push(...steps.owned);
  }
  const backendSpec = methodAt(loaded, backend, method);
  if (!backendSpec) notServed ??= `${method} does not exist in API version ${backend}`;
  const guarded = backendSpec?.objects ?? [];
  return Object.freeze({
    method,
    version,
    head: backend,
    spec,
    upstreamMethod: method,
    passThrough: false,
    up: down,
    down: up,
    requestBack: back,
    requestOwned: owned,
    ...(backendSpec && { backendRequest: backendSpec.request }),
    guarded,
    kinds: new Map(),
    checksResponse: true,
    ...(notServed !== undefined && { notServed }),
  });
}
