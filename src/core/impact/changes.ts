// What the contract declares will change for a call: for a method at a client's version, every incompatible
// change of each later version that touches the method, its request fields or its answer.

import { perCall } from './per-call.js';
import { isIncompatible } from '../contract-model/check.js';
import { methodAt, type LoadedContract } from '../contract-model/load.js';
import type { Change, Target } from '../contract-model/types.js';

/** One declared change a call at an older version will meet. */
export interface Impact {
  /** The version that brings the change (the client's call changes once it moves to it, or its version is sunset). */
  readonly version: number;
  readonly method: string;
  /** method: the method disappears; request: a request field the client may send; response: the method's answer. */
  readonly scope: 'method' | 'request' | 'response';
  /** The request field's path in the contract's syntax (scope "request" only). */
  readonly path?: string;
  readonly kind: Change['kind'];
  readonly description: string;
}

/** Joins an object's location with a path inside it ("" is the body itself). */
const within = (base: string, path: string) => (base === '' ? path : `${base}.${path}`);

/** The field paths a field change reads in the old shape (a rename's source, or its one path). */
function oldPaths(change: Change): readonly { target: Target; path: string }[] {
  switch (change.kind) {
    case 'fieldRemoved':
    case 'fieldToArray':
    case 'fieldAdded':
      return [{ target: change.target, path: change.path }];
    case 'fieldRenamed':
      return [{ target: change.target, path: change.from }];
    case 'custom':
      return change.covers;
    default:
      return [];
  }
}

/** The impacts one change of `version` has on `method` as the previous version declares it. */
function impactsOf(loaded: LoadedContract, version: number, method: string, change: Change): Impact[] {
  const base = { version, method, kind: change.kind, description: change.description };
  if (change.kind === 'methodRemoved') return change.method === method ? [{ ...base, scope: 'method' }] : [];
  const spec = methodAt(loaded, version - 1, method);
  const out: Impact[] = [];
  for (const { target, path } of oldPaths(change)) {
    if ('request' in target && target.request === method) out.push({ ...base, scope: 'request', path });
    else if ('response' in target && target.response === method) out.push({ ...base, scope: 'response' });
    else if ('object' in target && spec) {
      for (const loc of spec.requestObjects ?? []) if (loc.type === target.object) out.push({ ...base, scope: 'request', path: within(loc.path, path) });
      if (spec.objects?.some((loc) => loc.type === target.object)) out.push({ ...base, scope: 'response' });
    }
  }
  // A custom change that migrates the method's bodies without naming a covered path still changes the call.
  if (change.kind === 'custom' && out.length === 0 && (change.request?.[method] || change.response?.[method])) out.push({ ...base, scope: 'method' });
  // One entry per scope and path: a change covering several paths of one answer is one answer change.
  return out.filter((a, i) => out.findIndex((b) => b.scope === a.scope && b.path === a.path) === i);
}

/** Every incompatible change after `version` that a call of `method` at `version` meets, oldest version first. */
export const impactsAfter = perCall((loaded, version, method): readonly Impact[] => {
  const found: Impact[] = [];
  for (const v of loaded.versions) {
    if (v <= version) continue;
    const spec = loaded.byVersion.get(v);
    for (const change of spec?.changes ?? []) if (isIncompatible(change)) found.push(...impactsOf(loaded, v, method, change));
  }
  return Object.freeze(found);
});
