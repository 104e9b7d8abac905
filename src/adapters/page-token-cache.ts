// Page tokens seen for page-numbered v1 listings, so that paging forward costs one backend call per page;
// held in a cache store (in process by default, shared through Redis when configured).

import { DEFAULTS } from '../config/schema.js';
import type { CacheStore } from '../core/cache-store.js';
import type { PageTokenCache } from '../core/contract-model/services.js';
import { createMemoryStore } from './cache/memory-store.js';

export function createPageTokenCache(options: { size: number; ttlMs: number; maxWalkCalls?: number; store?: CacheStore }): PageTokenCache {
  const store = options.store ?? createMemoryStore({ size: options.size });
  return {
    maxWalkCalls: options.maxWalkCalls ?? DEFAULTS.pagingMaxWalkCalls,
    getMany: (keys) => store.getMany(keys),
    set: (key, token) => store.set(key, token, options.ttlMs),
  };
}
