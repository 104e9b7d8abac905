// The shipped contract's head version, read once: its method names and request schemas are what this backend
// serves and validates with (one source of truth for the argument shapes).

import { createShippedContract, type ContractDeps } from '../contract/index.js';
import type { MethodSpec, VersionSpec } from '../core/contract/types.js';

// Only the schemas are read: the migrations that would use these never run here.
const INERT_DEPS: ContractDeps = {
  legacyKeys: { resolve: () => Promise.resolve(undefined) },
  pageTokens: { getMany: (keys) => Promise.resolve(keys.map(() => undefined)), set: () => Promise.resolve(), maxWalkCalls: 0 },
};

const versions = createShippedContract(INERT_DEPS).versions;

/** The shipped contract's head version. */
export const HEAD: VersionSpec = versions[versions.length - 1]!;

/** The head version's methods, by name. */
export const HEAD_METHODS: Readonly<Record<string, MethodSpec>> = HEAD.methods;
