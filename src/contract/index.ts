// The API contract the gateway ships with: its versions, oldest first. To add one, see docs/how-to/add-a-version.md.

import type { Contract } from '../core/contract-model/types.js';
import { version1 } from './v1/index.js';
import { version2 } from './v2/index.js';
import { version3 } from './v3/index.js';

export const shippedContract: Contract = {
  versions: [version1, version2, version3],
};
