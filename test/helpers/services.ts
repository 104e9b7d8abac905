// Contract services for migration contexts that tests build outside a gateway: the adapters' in-process caches.

import { createLegacyKeyResolver } from '../../src/adapters/legacy-key-resolver.js';
import { createPageTokenCache } from '../../src/adapters/page-token-cache.js';
import type { ContractServices } from '../../src/core/contract-model/services.js';

/** The in-process resolver (with these folder prefixes) and page-token cache, each holding `size` entries. */
export const memoryServices = (prefixes: Record<string, string> = {}, size = 1000): ContractServices => ({
  legacyKeys: createLegacyKeyResolver({ prefixes, cacheSize: size, cacheTtlMs: 60_000, notFoundTtlMs: 60_000 }),
  pageTokens: createPageTokenCache({ size, ttlMs: 60_000 }),
});
