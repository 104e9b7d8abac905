// The shipped contract's head version, read once: its method names and request schemas are what this backend
// serves and validates with (one source of truth for the argument shapes).

import { shippedContract } from '../../contract/index.js';
import type { MethodSpec, VersionSpec } from '../../core/contract-model/types.js';

const versions = shippedContract.versions;

/** The shipped contract's head version. */
export const HEAD: VersionSpec = versions[versions.length - 1]!;

/** The head version's methods, by name. */
export const HEAD_METHODS: Readonly<Record<string, MethodSpec>> = HEAD.methods;
