// Deprecations inside a supported version (VersionSpec.deprecations): which apply to a call at a version, and
// which of them a body uses.

import { perCall } from './per-call.js';
import { methodAt, type LoadedContract } from '../contract-model/load.js';
import type { Deprecation } from '../contract-model/types.js';
import { collect } from '../translate/paths.js';

/** A deprecation as it applies: with the version that declared it and its instant. */
export interface ActiveDeprecation extends Deprecation {
  readonly declaredIn: number;
  readonly sinceMs: number;
}

/** The deprecations of `method` at `version`: declared there or in an earlier version, while the method exists. */
export const deprecationsFor = perCall((loaded, version, method): readonly ActiveDeprecation[] => {
  const list: ActiveDeprecation[] = [];
  if (methodAt(loaded, version, method)) {
    for (const v of loaded.versions) {
      if (v > version) break;
      for (const d of loaded.byVersion.get(v)?.deprecations ?? []) {
        if (d.method === method) list.push({ ...d, declaredIn: v, sinceMs: Date.parse(d.since) });
      }
    }
  }
  return Object.freeze(list);
});

/** The deprecations in force at `at` (ms) that a call with this body uses: the method's own, and the fields it sent. */
export function deprecationsUsed(loaded: LoadedContract, version: number, method: string, body: unknown, at: number): ActiveDeprecation[] | undefined {
  const all = deprecationsFor(loaded, version, method);
  if (all.length === 0) return undefined;
  let used: ActiveDeprecation[] | undefined;
  for (const d of all) {
    if (at < d.sinceMs) continue;
    if (d.path === undefined || collect(body, d.path).length > 0) (used ??= []).push(d);
  }
  return used;
}
