// The answer migration of a plan (plan.ts: buildPlan's `down`, client at or below the backend) as a rewrite program,
// built from the contract the way buildPlan builds its closures, step for step and in the same order; or why not.

import { type LoadedContract, methodAt } from '../../contract-model/load.js';
import type { Change, FieldAdded, MethodSpec, ObjectLocation, Target } from '../../contract-model/types.js';
import { editsOf } from './declared.js';
import { type ByteOp, type Program, type Step, programOf } from './program.js';

export type FromPlan = { readonly kind: 'program'; readonly program: Program; readonly guarded: readonly ObjectLocation[] } | { readonly kind: 'buffered'; readonly reason: string };

class NotExpressible extends Error {}

const isResponseOf = (t: Target, m: string) => 'response' in t && t.response === m;
const locations = (spec: MethodSpec | undefined, type: string) => (spec?.objects ?? []).filter((l) => l.type === type);

/** A field change's answer step (stepsFor's fieldSteps, the down side). */
function fieldStep(target: Target, method: string, specAfter: MethodSpec | undefined, op: ByteOp | undefined): Step[] {
  if (!op || ('request' in target && target.request === method)) return [];
  if (isResponseOf(target, method)) return [{ at: 'body', op }];
  if (!('object' in target)) return [];
  const at = locations(specAfter, target.object);
  return at.length ? [{ at, op }] : [];
}

/** One change's answer steps for `method` (its name before the change), in stepsFor's order. */
function downSteps(change: Change, method: string, specAfter: MethodSpec | undefined): Step[] {
  switch (change.kind) {
    case 'fieldAdded':
    case 'methodAdded':
      return [];
    case 'fieldRemoved':
      return fieldStep(change.target, method, specAfter, change.downDefault === undefined ? undefined : { kind: 'restore', path: change.path, value: change.downDefault });
    case 'fieldRenamed': {
      const convert = change.convert;
      return fieldStep(change.target, method, specAfter, { kind: 'move', from: change.to, to: change.from, ...(convert && { convert: (v: unknown) => convert.down(v) }) });
    }
    case 'fieldToArray':
      return fieldStep(change.target, method, specAfter, { kind: 'fromArray', path: change.path });
    case 'methodRemoved':
      if (change.method !== method || change.keptByBackend) return [];
      if (!change.replacedBy) throw new NotExpressible(`${method} was removed without a replacement`);
      if (change.replacedBy.response) throw new NotExpressible(`${method}'s replacement migrates the answer in code`);
      return [];
    case 'custom': {
      const steps: Step[] = [];
      const response = change.response?.[method];
      if (response) steps.push({ at: 'body', op: declaredOp(response, `a custom migration of ${method}'s answer`) });
      for (const [type, fn] of Object.entries(change.object ?? {})) {
        const at = locations(specAfter, type);
        if (at.length) steps.push({ at, op: declaredOp(fn, `the custom migration of ${type} objects ("${change.description.slice(0, 60)}…")`) });
      }
      return steps;
    }
    default: {
      const never: never = change;
      throw new Error(`unknown change ${(never as Change).kind}`);
    }
  }
}

function declaredOp(fn: Parameters<typeof editsOf>[0], what: string): ByteOp {
  const edits = editsOf(fn);
  if (!edits) throw new NotExpressible(`${what} is code, not declared as edits`);
  return { kind: 'edits', edits };
}

/** One version's answer steps (versionSteps' down side): reverse declaration order, a replacement's last. */
function versionDown(loaded: LoadedContract, v: LoadedContract['contract']['versions'][number], before: string): { after: string; down: Step[] } {
  let after = before;
  for (const c of v.changes) if (c.kind === 'methodRemoved' && c.method === before && c.replacedBy) after = c.replacedBy.method;
  const specAfter = methodAt(loaded, v.version, after);
  const down: Step[] = [];
  let bridge: Step[] = [];
  for (const change of v.changes) {
    const steps = downSteps(change, before, specAfter);
    if (change.kind === 'methodRemoved') {
      if (change.method === before) bridge = steps;
      continue;
    }
    down.unshift(...steps.slice().reverse());
  }
  return { after, down: [...down, ...bridge] };
}

const sameTarget = (a: Target, b: Target) =>
  ('request' in a && 'request' in b && a.request === b.request) ||
  ('response' in a && 'response' in b && a.response === b.response) ||
  ('object' in a && 'object' in b && a.object === b.object);

/** The defaults of compatible additions (plan.ts's defaultsFor), as fill steps. */
function defaultSteps(loaded: LoadedContract, version: number, spec: MethodSpec, method: string): Step[] {
  let active: FieldAdded[] = [];
  for (const v of loaded.contract.versions) {
    if (v.version > version) break;
    for (const c of [...v.changes, ...(v.additions ?? [])]) {
      if (c.kind === 'fieldAdded') active.push(c);
      else if (c.kind === 'fieldRemoved') active = active.filter((a) => !(sameTarget(a.target, c.target) && a.path === c.path));
      else if (c.kind === 'fieldRenamed') active = active.map((a) => (sameTarget(a.target, c.target) && a.path === c.from ? { ...a, path: c.to } : a));
      else if (c.kind === 'custom' && !c.compatible) active = active.filter((a) => !c.covers.some((cover) => sameTarget(a.target, cover.target) && a.path === cover.path));
    }
  }
  const steps: Step[] = [];
  for (const c of active) {
    const op: ByteOp = { kind: 'fill', path: c.path, value: c.default };
    if (isResponseOf(c.target, method)) steps.push({ at: 'body', op });
    const at = 'object' in c.target ? locations(spec, c.target.object) : [];
    if (at.length) steps.push({ at, op });
  }
  return steps;
}

/**
 * The rewrite program of `method`'s answer at `version` for a backend at `backend`, or why it stays buffered: a client
 * above the backend (answers go up through written ways back), or a migration that is code and declares no edits.
 */
export function programFor(loaded: LoadedContract, version: number, method: string, backend: number = loaded.head): FromPlan {
  const spec = methodAt(loaded, version, method);
  if (!spec) return { kind: 'buffered', reason: `no method ${method} at version ${version}` };
  if (version > backend) return { kind: 'buffered', reason: 'a client above the backend: answers go up' };
  try {
    const perVersion: Step[][] = [];
    let current = method;
    for (const v of loaded.contract.versions) {
      if (v.version <= version) continue;
      if (v.version > backend) break;
      const { after, down } = versionDown(loaded, v, current);
      perVersion.unshift(down);
      current = after;
    }
    const guarded = methodAt(loaded, backend, current)?.objects ?? [];
    return { kind: 'program', program: programOf([...perVersion.flat(), ...defaultSteps(loaded, version, spec, method)], guarded), guarded };
  } catch (e) {
    if (e instanceof NotExpressible) return { kind: 'buffered', reason: e.message };
    throw e;
  }
}
