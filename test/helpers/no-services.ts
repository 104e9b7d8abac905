// Contract services for migration contexts whose migrations must use none (synthetic contracts): any use throws.

import type { ContractServices } from '../../src/core/contract-model/services.js';

const unused = (): never => {
  throw new Error('this migration context has no services: a migration used one');
};

export const NO_SERVICES: ContractServices = {
  legacyKeys: { resolve: unused },
  pageTokens: { maxWalkCalls: 0, getMany: unused, set: unused },
};
