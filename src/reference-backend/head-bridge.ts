// The backend below a newer head: its handlers are written for NATIVE_VERSION's field names, and the renames a contract
// declares above that version are followed both ways (a request's head names down to the native ones, the answer's
// native names up to the head's), so a version that only renames fields needs no edit here. A contract the backend
// cannot serve (a head method without a handler, a change above the native version that is not a rename) is refused.

import { ContractError, type LoadedContract, methodAt } from '../core/contract-model/load.js';
import type { Change, FieldRenamed, Json, ObjectLocation, RequestObjectLocation, Target } from '../core/contract-model/types.js';
import { collect, isJsonObject } from '../core/translate/paths.js';
import { move } from '../core/translate/plan.js';
import type { CallContext, MethodHandler } from './methods/context.js';

/** The version whose field names the handlers, stores and seeds use (dash-v3.ts, wizard-charts.ts: version 3). */
export const NATIVE_VERSION = 3;

/** A step on a body, in place. */
type Step = (body: Json) => void;

/** One method's way between the head and the native names. */
export interface MethodBridge {
  /** Request: head names → native names. */
  readonly down: readonly Step[];
  /** Answer: native names → head names. */
  readonly up: readonly Step[];
}

/** Changes the bridge follows; anything else above the native version needs the backend taught. */
const FOLLOWED = new Set<Change['kind']>(['fieldRenamed', 'methodAdded', 'methodRemoved']);

/** `rename` on the body itself, or on every object of the rename's kind at `locations`. */
function located(change: FieldRenamed, locations: readonly (ObjectLocation | RequestObjectLocation)[] | undefined, rename: (o: Json) => Json): Step | undefined {
  const { target } = change;
  if (!('object' in target)) return (body) => void rename(body);
  const paths = (locations ?? []).filter((l) => l.type === target.object).map((l) => l.path);
  if (paths.length === 0) return undefined;
  return (body) => {
    for (const path of paths) for (const o of collect(body, path)) if (isJsonObject(o)) rename(o);
  };
}

/** The steps one version's renames give `method`: its requests (shape at `v`) down, its answers (shape at `v - 1`) up. */
function versionSteps(loaded: LoadedContract, v: number, method: string): { down: Step[]; up: Step[] } {
  const down: Step[] = [];
  const up: Step[] = [];
  for (const change of loaded.byVersion.get(v)!.changes) {
    if (change.kind !== 'fieldRenamed') continue;
    const { target, from, to, convert } = change;
    const forRequest = ('request' in target && target.request === method) || 'object' in target;
    const forAnswer = ('response' in target && target.response === method) || 'object' in target;
    const toNative = forRequest ? located(change, methodAt(loaded, v, method)?.requestObjects, move(to, from, convert && ((x) => convert.down(x)))) : undefined;
    const toHead = forAnswer ? located(change, methodAt(loaded, v - 1, method)?.objects, move(from, to, convert && ((x, existing) => convert.up(x, existing)))) : undefined;
    // Down-steps of one version run in reverse declaration order, as the gateway's do.
    if (toNative) down.unshift(toNative);
    if (toHead) up.push(toHead);
  }
  return { down, up };
}

/** Why the backend cannot serve `loaded`'s head: head methods it has no handler for, changes above the native version it cannot follow. */
export function bridgeProblems(loaded: LoadedContract, handlers: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const missing = Object.keys(loaded.byVersion.get(loaded.head)!.methods).filter((m) => !handlers.has(m));
  if (missing.length) problems.push(`the reference backend has no handler for ${missing.join(', ')} of version ${loaded.head}`);
  for (let v = NATIVE_VERSION + 1; v <= loaded.head; v++) {
    const spec = loaded.byVersion.get(v)!;
    for (const change of [...spec.changes, ...(spec.additions ?? [])]) {
      if (!FOLLOWED.has(change.kind)) {
        problems.push(`the reference backend follows only renames above version ${NATIVE_VERSION}: version ${v}'s ${change.kind} "${change.description}" needs it taught (src/reference-backend/)`);
      }
    }
  }
  return problems;
}

/** Per head method with something to follow, its bridge; a ContractError when the backend cannot serve the head. */
export function headBridge(loaded: LoadedContract, handlers: ReadonlySet<string>): ReadonlyMap<string, MethodBridge> {
  const problems = bridgeProblems(loaded, handlers);
  if (problems.length) throw new ContractError(problems);
  const bridges = new Map<string, MethodBridge>();
  for (const method of Object.keys(loaded.byVersion.get(loaded.head)!.methods)) {
    const down: Step[] = [];
    const up: Step[] = [];
    for (let v = NATIVE_VERSION + 1; v <= loaded.head; v++) {
      const steps = versionSteps(loaded, v, method);
      down.unshift(...steps.down);
      up.push(...steps.up);
    }
    if (down.length || up.length) bridges.set(method, { down, up });
  }
  return bridges;
}

/** The handlers with each bridge applied: the arguments renamed down before the handler, a copy of its answer renamed up. */
export function bridged(methods: ReadonlyMap<string, MethodHandler>, bridges: ReadonlyMap<string, MethodBridge>): ReadonlyMap<string, MethodHandler> {
  if (bridges.size === 0) return methods;
  return new Map(
    [...methods].map(([name, handler]): [string, MethodHandler] => {
      const bridge = bridges.get(name);
      if (bridge === undefined) return [name, handler];
      const handle = (args: never, ctx: CallContext): unknown => {
        const native = structuredClone(args as Json);
        for (const step of bridge.down) step(native);
        const answer = handler.handle(native as never, ctx);
        // A copy: the answer may hold the store's own objects.
        if (bridge.up.length === 0 || typeof answer !== 'object' || answer === null) return answer;
        const head = structuredClone(answer) as Json;
        for (const step of bridge.up) step(head);
        return head;
      };
      return [name, { ...handler, handle }];
    }),
  );
}

/** The head's name for a field the backend calls `nativePath` on `target` (the renames above the native version, followed). */
export function headPath(loaded: LoadedContract, target: Target, nativePath: string): string {
  let path = nativePath;
  for (let v = NATIVE_VERSION + 1; v <= loaded.head; v++) {
    for (const change of loaded.byVersion.get(v)!.changes) {
      if (change.kind === 'fieldRenamed' && change.from === path && JSON.stringify(change.target) === JSON.stringify(target)) path = change.to;
    }
  }
  return path;
}
