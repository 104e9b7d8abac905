// The API contract the gateway ships with. To add a version, see docs/how-to/add-a-version.md.

import type { Contract } from '../core/contract/types.js';
import type { ContractDeps } from './deps.js';
import { version1 } from './v1/index.js';
import { version2 } from './v2/index.js';

export type { ContractDeps } from './deps.js';

export const createShippedContract = (deps: ContractDeps): Contract => ({
  versions: [version1, version2(deps)],
});
