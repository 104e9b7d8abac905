// The shipped contract as the replay suites read it: each version's methods and their response schemas.

import { shippedContract } from '../../src/contract/index.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { MethodSpec } from '../../src/core/contract-model/types.js';

export const CONTRACT = loadContract(shippedContract);

/** Every method of every version, sorted. */
export const ALL_METHODS: readonly string[] = [...CONTRACT.availableIn.keys()].sort();

/** The method's spec at `version`, or undefined where the version does not have it. */
export function specAt(version: number, method: string): MethodSpec | undefined {
  const methods = CONTRACT.byVersion.get(version)!.methods;
  return Object.hasOwn(methods, method) ? methods[method] : undefined;
}
