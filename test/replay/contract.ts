// The shipped contract as the replay suites read it: each version's methods and their response schemas.

import { createShippedContract } from '../../src/contract/index.js';
import type { ContractDeps } from '../../src/contract/deps.js';
import { loadContract } from '../../src/core/contract/load.js';
import type { MethodSpec } from '../../src/core/contract/types.js';

// Only schemas are read here: no migration runs, so its dependencies are inert.
const INERT: ContractDeps = {
  legacyKeys: { resolve: () => Promise.resolve(undefined) },
  pageTokens: { getMany: (keys) => Promise.resolve(keys.map(() => undefined)), set: () => Promise.resolve(), maxWalkCalls: 0 },
};

export const CONTRACT = loadContract(createShippedContract(INERT));

/** Every method of every version, sorted. */
export const ALL_METHODS: readonly string[] = [...CONTRACT.availableIn.keys()].sort();

/** The method's spec at `version`, or undefined where the version does not have it. */
export function specAt(version: number, method: string): MethodSpec | undefined {
  const methods = CONTRACT.byVersion.get(version)!.methods;
  return Object.hasOwn(methods, method) ? methods[method] : undefined;
}
