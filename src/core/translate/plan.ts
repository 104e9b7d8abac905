// Precomputes, per method and version, the chain of migrations up to the head and back down.

import { GatewayError } from '../errors.js';
import { type LoadedContract, methodAt } from '../contract-model/load.js';
import type { BodyMigration, Change, CustomChange, FieldAdded, Json, MethodSpec, ObjectLocation, Target } from '../contract-model/types.js';
import { drop, fill, fromArray, fuseFieldSteps, isObjectEdit, move, onLocated, onLocatedFields, restore, toArray, type ObjectEdit } from './field-ops.js';

export { move } from './field-ops.js';
import type { KindHistory, ObjectStep } from './guard.js';
import { isPromiseLike } from './promise-like.js';
import { buildPlanAbove } from './plan-down.js';

export interface MethodPlan {
  readonly method: string;
  readonly version: number;
  /** The version the backend speaks (`upstream.apiVersion`; the contract's head by default): requests go to it, answers come from it. */
  readonly head: number;
  readonly spec: MethodSpec;
  /** The method's name at the head version (a removed method may be served by its replacement). */
  readonly upstreamMethod: string;
  /** At the backend's version nothing is translated: the original bytes go up and the answer streams back. */
  readonly passThrough: boolean;
  /** The request's steps in order, client version → backend version (down when the backend is below the client). */
  readonly up: readonly BodyMigration[];
  /** The answer's steps in order, backend version → client version (up when the backend is below the client). */
  readonly down: readonly BodyMigration[];
  /**
   * Set when the backend is below the client: the structural way back of the request (the derived up steps and the
   * objects' objectUp), run on a copy of the translated request to prove nothing the client sent is lost (422 otherwise).
   */
  readonly requestBack?: readonly BodyMigration[];
  /** Request paths (`*` for any index) whose loss a written way down answers for: the lossless check skips them. */
  readonly requestOwned?: readonly string[];
  /** Set when the backend is below the client: its request schema, which the translated request must satisfy (422 otherwise). */
  readonly backendRequest?: MethodSpec['request'];
  /** Where versioned objects sit in the head-shaped response. */
  readonly guarded: readonly ObjectLocation[];
  /** Per kind in `guarded`: its changes above this version and its steps both ways (guard.ts); a kind absent is refused. */
  readonly kinds?: ReadonlyMap<string, KindHistory>;
  readonly checksResponse: boolean;
  /**
   * The write grant for the backend (x-dl-client-writes-through): `kind=version` pairs, per kind the newest version
   * this client may write without a round trip (no change to the kind since the client's version); absent for none.
   */
  readonly writeGrant?: string;
  /** Set when the method cannot be served from this version (a removed method without replacement). */
  readonly unservable?: string;
  /** Set when the backend, below the client's version, cannot serve the method (added above it, or a one-way change): why. */
  readonly notServed?: string;
}

const isRequestOf = (t: Target, m: string) => 'request' in t && t.request === m;
const isResponseOf = (t: Target, m: string) => 'response' in t && t.response === m;
const objectType = (t: Target) => ('object' in t ? t.object : undefined);

/** Applies `fn` to every object of `type` in a response shaped like `spec`'s. */
const onObjects = (spec: MethodSpec | undefined, type: string, fn: BodyMigration): BodyMigration =>
  onLocated(spec?.objects ?? [], type, fn);

/** Applies `fn` to every object of `type` in a request shaped like `spec`'s. */
const onRequestObjects = (spec: MethodSpec | undefined, type: string, fn: BodyMigration): BodyMigration =>
  onLocated(spec?.requestObjects ?? [], type, fn);

/** A field operation on every object of `type` in a response (or, `inRequest`, a request) shaped like `spec`'s. */
const onObjectFields = (spec: MethodSpec | undefined, type: string, op: ObjectEdit, inRequest = false): BodyMigration =>
  onLocatedFields((inRequest ? spec?.requestObjects : spec?.objects) ?? [], type, op);

/** A custom change's object migration on its objects: one marked as an object edit may share a walk with field steps. */
const onObjectsBy = (spec: MethodSpec | undefined, type: string, fn: BodyMigration): BodyMigration =>
  isObjectEdit(fn) ? onObjectFields(spec, type, fn as ObjectEdit) : onObjects(spec, type, fn);

const locates = (spec: MethodSpec | undefined, type: string) => !!spec?.objects?.some((l) => l.type === type);
const locatesInRequest = (spec: MethodSpec | undefined, type: string) => !!spec?.requestObjects?.some((l) => l.type === type);

interface Steps {
  up?: BodyMigration;
  down?: BodyMigration[];
  unservable?: string;
}

/**
 * The migrations one change contributes for `method` (its name at the version before the change).
 * `specAfter` is the method's spec at the version the change leads to (objects are located in that shape).
 */
function stepsFor(change: Change, method: string, specBefore: MethodSpec | undefined, specAfter: MethodSpec | undefined): Steps {
  const fieldSteps = (
    target: Target,
    up: ((o: Json) => Json) | undefined,
    down: ((o: Json) => Json) | undefined,
  ): Steps => {
    if (isRequestOf(target, method)) return up ? { up: (b) => up(b) } : {};
    if (isResponseOf(target, method)) return down ? { down: [(b) => down(b)] } : {};
    const type = objectType(target);
    if (!type) return {};
    // An object kind: its requests (in the shape before the change) go up, its answers (after) come down.
    return {
      ...(up && locatesInRequest(specBefore, type) && { up: onObjectFields(specBefore, type, up, true) }),
      ...(down && locates(specAfter, type) && { down: [onObjectFields(specAfter, type, down)] }),
    };
  };
  switch (change.kind) {
    case 'fieldAdded':
      return fieldSteps(change.target, fill(change.path, change.default), undefined);
    case 'fieldRemoved':
      return fieldSteps(
        change.target,
        drop(change.path),
        change.downDefault === undefined ? undefined : restore(change.path, change.downDefault),
      );
    case 'fieldRenamed': {
      const convert = change.convert;
      return fieldSteps(
        change.target,
        move(change.from, change.to, convert && ((v, existing) => convert.up(v, existing))),
        move(change.to, change.from, convert && ((v) => convert.down(v))),
      );
    }
    case 'fieldToArray':
      return fieldSteps(change.target, toArray(change.path), fromArray(change.path));
    case 'methodAdded':
      return {};
    case 'methodRemoved':
      if (change.method !== method || change.keptByBackend) return {}; // a kept method goes up as it is
      if (!change.replacedBy) return { unservable: `${method} was removed without a replacement` };
      return {
        ...(change.replacedBy.request && { up: change.replacedBy.request }),
        ...(change.replacedBy.response && { down: [change.replacedBy.response] }),
      };
    case 'custom': {
      const down: BodyMigration[] = [];
      const response = change.response?.[method];
      if (response) down.push(response);
      for (const [type, fn] of Object.entries(change.object ?? {})) {
        if (locates(specAfter, type)) down.push(onObjectsBy(specAfter, type, fn));
      }
      const up = customUp(change, method, specBefore);
      return { ...(up && { up }), ...(down.length && { down }) };
    }
    default: {
      const never: never = change;
      throw new Error(`unknown change ${(never as Change).kind}`);
    }
  }
}

/**
 * A custom change's request step up: its objects' way up (objectUp, located in the request's older shape) first, then
 * the method's own migration.
 */
function customUp(change: CustomChange, method: string, specBefore: MethodSpec | undefined): BodyMigration | undefined {
  const steps: BodyMigration[] = [];
  for (const [type, fn] of Object.entries(change.objectUp ?? {})) if (locatesInRequest(specBefore, type)) steps.push(onRequestObjects(specBefore, type, fn));
  const own = change.request?.[method];
  if (own) steps.push(own);
  if (steps.length <= 1) return steps[0];
  return async (body, ctx) => {
    let current = body;
    for (const step of steps) current = await step(current, ctx);
    return current;
  };
}

const sameTarget = (a: Target, b: Target) =>
  ('request' in a && 'request' in b && a.request === b.request) ||
  ('response' in a && 'response' in b && a.response === b.response) ||
  ('object' in a && 'object' in b && a.object === b.object);

/**
 * Defaults of compatible additions, at the paths they have at `version`: a field added and later
 * removed is not brought back, and one later renamed is filled under its new name.
 */
function defaultsFor(loaded: LoadedContract, version: number, spec: MethodSpec, method: string): BodyMigration[] {
  let active: FieldAdded[] = [];
  for (const v of loaded.contract.versions) {
    if (v.version > version) break;
    for (const c of [...v.changes, ...(v.additions ?? [])]) {
      if (c.kind === 'fieldAdded') active.push(c);
      else if (c.kind === 'fieldRemoved') active = active.filter((a) => !(sameTarget(a.target, c.target) && a.path === c.path));
      else if (c.kind === 'fieldRenamed') {
        active = active.map((a) => (sameTarget(a.target, c.target) && a.path === c.from ? { ...a, path: c.to } : a));
      } else if (c.kind === 'custom' && !c.compatible) {
        // A custom change that covers the field owns it from then on.
        active = active.filter((a) => !c.covers.some((cover) => sameTarget(a.target, cover.target) && a.path === cover.path));
      }
    }
  }
  const steps: BodyMigration[] = [];
  for (const c of active) {
    const filled = fill(c.path, c.default);
    if (isResponseOf(c.target, method)) steps.push((b) => filled(b));
    const type = objectType(c.target);
    if (type && locates(spec, type)) steps.push(onObjectFields(spec, type, filled));
  }
  return steps;
}

/** One field change's object-level steps, its paths mapped by `rel` (undefined when a path is outside the object). */
function fieldObjectSteps(change: Change, rel: (path: string) => string | undefined): { up?: ObjectStep; down?: ObjectStep } | undefined {
  switch (change.kind) {
    case 'fieldAdded': {
      const path = rel(change.path);
      return path === undefined ? undefined : { up: fill(path, change.default) };
    }
    case 'fieldRemoved': {
      const path = rel(change.path);
      if (path === undefined) return undefined;
      return { up: drop(path), ...(change.downDefault !== undefined && { down: restore(path, change.downDefault) }) };
    }
    case 'fieldRenamed': {
      const from = rel(change.from);
      const to = rel(change.to);
      if (from === undefined || to === undefined) return undefined;
      const convert = change.convert;
      return {
        up: move(from, to, convert && ((v, existing) => convert.up(v, existing))),
        down: move(to, from, convert && ((v) => convert.down(v))),
      };
    }
    case 'fieldToArray': {
      const path = rel(change.path);
      return path === undefined ? undefined : { up: toArray(path), down: fromArray(path) };
    }
    default:
      return undefined;
  }
}

/** A path of an answer, relative to an object located at `at` ("" = the answer itself); undefined when outside it. */
const relativeTo = (at: string) => (path: string) => (at === '' ? path : path.startsWith(`${at}.`) ? path.slice(at.length + 1) : undefined);

/**
 * What each kind the head answer locates goes through between `version` and the head, object by object: the versions
 * whose changes touch it and their steps both ways. A change that migrates the whole answer (a custom response
 * migration, a replaced method) or an object without a declared way back leaves the kind without a round trip.
 */
function kindHistories(loaded: LoadedContract, version: number, method: string, guarded: readonly ObjectLocation[], backend: number): ReadonlyMap<string, KindHistory> {
  interface Acc { changedAt: number[]; down: ObjectStep[][]; up: ObjectStep[]; noWayBack?: string }
  const acc = new Map<string, Acc>();
  for (const loc of guarded) if (!acc.has(loc.type)) acc.set(loc.type, { changedAt: [], down: [], up: [] });
  let current = method;
  for (const v of loaded.contract.versions) {
    if (v.version <= version) continue;
    if (v.version > backend) break;
    const before = current;
    for (const change of v.changes) {
      if (change.kind === 'methodRemoved' && change.method === before && change.replacedBy) current = change.replacedBy.method;
    }
    const locations = methodAt(loaded, v.version, current)?.objects ?? [];
    const downHere = new Map<string, ObjectStep[]>();
    const touch = (type: string, steps?: { up?: ObjectStep; down?: ObjectStep }, noWayBack?: string) => {
      const a = acc.get(type);
      if (!a) return;
      if (a.changedAt[a.changedAt.length - 1] !== v.version) a.changedAt.push(v.version);
      if (steps?.up) a.up.push(steps.up);
      if (steps?.down) (downHere.get(type) ?? downHere.set(type, []).get(type) as ObjectStep[]).unshift(steps.down);
      if (noWayBack !== undefined) a.noWayBack ??= noWayBack;
    };
    for (const change of v.changes) {
      if (change.kind === 'methodAdded') continue;
      if (change.kind === 'methodRemoved') {
        if (change.method === before) for (const type of acc.keys()) touch(type, undefined, `${before} is served by ${current} from version ${v.version}`);
        continue;
      }
      if (change.kind === 'custom') {
        if (change.response?.[before]) for (const type of acc.keys()) touch(type, undefined, `version ${v.version} migrates ${before}'s whole answer`);
        for (const [type, down] of Object.entries(change.object ?? {})) {
          const up = change.objectUp?.[type];
          touch(type, { down, ...(up && { up }) }, up ? undefined : `version ${v.version}'s change to ${type} declares no way back up`);
        }
        if (!change.compatible) {
          for (const c of change.covers) if ('object' in c.target && !change.object?.[c.target.object]) touch(c.target.object, undefined, `version ${v.version} changes ${c.target.object} without an object migration`);
        }
        continue;
      }
      const target = change.target;
      if ('object' in target) {
        const steps = fieldObjectSteps(change, (p) => p);
        touch(target.object, steps);
      } else if ('response' in target && target.response === before) {
        // A change of the answer reaches the objects located inside the changed path.
        for (const loc of locations) {
          const steps = fieldObjectSteps(change, relativeTo(loc.path));
          if (steps) touch(loc.type, steps);
        }
      }
    }
    for (const [type, steps] of downHere) (acc.get(type) as Acc).down.unshift(steps);
  }
  return new Map(
    [...acc].map(([type, a]) => [
      type,
      Object.freeze({ changedAt: a.changedAt, down: a.down.flat(), up: a.up, ...(a.noWayBack !== undefined && { noWayBack: a.noWayBack }) }),
    ]),
  );
}

const globalChanges = new WeakMap<LoadedContract, ReadonlyMap<string, readonly number[]>>();

/**
 * Every kind and the versions whose changes touch it anywhere: its object changes, and any change to the answer of
 * a method that locates it (so a kind one method answers differently counts as changed for every write).
 */
function kindChanges(loaded: LoadedContract): ReadonlyMap<string, readonly number[]> {
  const known = globalChanges.get(loaded);
  if (known) return known;
  const out = new Map<string, number[]>();
  const mark = (type: string, v: number) => {
    const list = out.get(type) ?? out.set(type, []).get(type) as number[];
    if (list[list.length - 1] !== v) list.push(v);
  };
  for (const v of loaded.contract.versions) {
    for (const spec of Object.values(v.methods)) for (const loc of spec.objects ?? []) if (!out.has(loc.type)) out.set(loc.type, []);
    const locatedBy = (method: string) => [...(methodAt(loaded, v.version - 1, method)?.objects ?? []), ...(methodAt(loaded, v.version, method)?.objects ?? [])];
    for (const change of v.changes) {
      if (change.kind === 'methodAdded') continue;
      if (change.kind === 'methodRemoved') {
        for (const loc of locatedBy(change.method)) mark(loc.type, v.version);
      } else if (change.kind === 'custom') {
        for (const type of Object.keys(change.object ?? {})) mark(type, v.version);
        for (const m of Object.keys(change.response ?? {})) for (const loc of locatedBy(m)) mark(loc.type, v.version);
        if (!change.compatible) for (const c of change.covers) if ('object' in c.target) mark(c.target.object, v.version);
      } else if ('object' in change.target) {
        mark(change.target.object, v.version);
      } else if ('response' in change.target) {
        for (const loc of locatedBy(change.target.response)) mark(loc.type, v.version);
      }
    }
  }
  globalChanges.set(loaded, out);
  return out;
}

/** The write grant: per kind, the newest version below its first change after `version` (the head when none). */
function writeGrantFor(loaded: LoadedContract, version: number, kinds: ReadonlyMap<string, KindHistory>, backend: number): string {
  if (version >= backend) return '';
  const pairs: string[] = [];
  for (const [type, global] of kindChanges(loaded)) {
    // The method's own answer knows the kind best; any other kind the write may touch goes by every method.
    const changedAt = kinds.get(type)?.changedAt ?? global;
    const next = changedAt.find((v) => v > version);
    const through = next === undefined || next > backend ? backend : next - 1;
    if (through > version) pairs.push(`${type}=${through}`);
  }
  return pairs.sort().join(',');
}

/**
 * The plan of `method` at `version` for a backend that speaks `backend` (the head by default): up to it and back down
 * when the client is below it, down to it and back up when above (plan-down.ts), nothing when they are equal.
 */
export function buildPlan(loaded: LoadedContract, version: number, method: string, backend: number = loaded.head): MethodPlan | undefined {
  const spec = methodAt(loaded, version, method);
  if (!spec) return undefined;
  if (version > backend) return buildPlanAbove(loaded, version, method, backend, spec);
  const up: BodyMigration[] = [];
  const downPerVersion: BodyMigration[][] = [];
  let current = method;
  let unservable: string | undefined;
  for (const v of loaded.contract.versions) {
    if (v.version <= version) continue;
    if (v.version > backend) break;
    const steps = versionSteps(loaded, v, current);
    current = steps.after;
    up.push(...steps.up);
    downPerVersion.unshift(steps.down);
    unservable ??= steps.unservable;
  }
  const headSpec = methodAt(loaded, backend, current);
  const guarded = headSpec?.objects ?? [];
  const down = fuseFieldSteps([...downPerVersion.flat(), ...defaultsFor(loaded, version, spec, method)]);
  const passThrough = version === backend;
  const kinds = kindHistories(loaded, version, method, guarded, backend);
  const grant = writeGrantFor(loaded, version, kinds, backend);
  return Object.freeze({
    method,
    version,
    head: backend,
    spec,
    upstreamMethod: current,
    passThrough,
    up: fuseFieldSteps(up),
    down,
    guarded,
    kinds,
    ...(grant !== '' && { writeGrant: grant }),
    checksResponse: !passThrough && (guarded.length > 0 || down.length > 0),
    ...(unservable && { unservable }),
  });
}

/** One version's steps for a method called `before` in the version below it: up, down, and its name after them. */
function versionSteps(
  loaded: LoadedContract,
  v: LoadedContract['contract']['versions'][number],
  before: string,
): { after: string; up: BodyMigration[]; down: BodyMigration[]; unservable: string | undefined } {
  const up: BodyMigration[] = [];
  const down: BodyMigration[] = [];
  let unservable: string | undefined;
  // The method's name once this version's changes apply (a removed method continues as its replacement).
  let after = before;
  for (const change of v.changes) {
    if (change.kind === 'methodRemoved' && change.method === before && change.replacedBy) after = change.replacedBy.method;
  }
  // Objects are located in the shape of the version these changes lead to, whatever the declaration order
  // (answers), and in the shape of the version before them (requests).
  const specAfter = methodAt(loaded, v.version, after);
  const specBefore = methodAt(loaded, v.version - 1, before);
  // A replacement bridges the old method's shape and the new one: its request migration runs after this
  // version's other up-steps, its response migration after the other down-steps (on the new shape).
  let bridgeUp: BodyMigration | undefined;
  let bridgeDown: BodyMigration[] = [];
  for (const change of v.changes) {
    const steps = stepsFor(change, before, specBefore, specAfter);
    if (steps.unservable) unservable ??= steps.unservable;
    if (change.kind === 'methodRemoved') {
      if (change.method === before) {
        bridgeUp = steps.up;
        bridgeDown = steps.down ?? [];
      }
      continue;
    }
    if (steps.up) up.push(steps.up);
    // Down-migrations of one version run in reverse declaration order.
    if (steps.down) down.unshift(...steps.down.slice().reverse());
  }
  if (bridgeUp) up.push(bridgeUp);
  down.push(...bridgeDown);
  return { after, up, down, unservable };
}

/**
 * Every method's plan at every version, keyed `${version}:${method}`, against a backend at `backend`. `servedAt` names
 * the methods the backend serves at another version (an upstream adapter that serves a method added above its version
 * in that method's own shape), by their name at the client's version; a later name not listed is planned against
 * `backend` like any other method.
 */
export function buildPlans(
  loaded: LoadedContract,
  backend: number = loaded.head,
  servedAt: ReadonlyMap<string, number> = new Map(),
): ReadonlyMap<string, MethodPlan> {
  const plans = new Map<string, MethodPlan>();
  for (const v of loaded.contract.versions) {
    for (const name of Object.keys(v.methods)) {
      const plan = buildPlan(loaded, v.version, name, servedAt.get(name) ?? backend);
      if (plan) plans.set(`${v.version}:${name}`, plan);
    }
  }
  return plans;
}

export const planKey = (version: number, method: string) => `${version}:${method}`;

export function requirePlan(
  plans: ReadonlyMap<string, MethodPlan>,
  loaded: LoadedContract,
  version: number,
  method: string,
): MethodPlan {
  const plan = plans.get(planKey(version, method));
  if (plan) return plan;
  const availableIn = loaded.availableIn.get(method) ?? [];
  throw new GatewayError(
    'ENDPOINT_NOT_FOUND',
    availableIn.length
      ? `method ${method} does not exist in API version ${version}`
      : `no such method: ${method}`,
    { method, requestedVersion: version, availableIn },
  );
}
