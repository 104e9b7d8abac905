// Page tokens seen for page-numbered v1 listings, so that paging forward costs one backend call per page.

import { LRUCache } from 'lru-cache';
import type { PageTokenCache } from '../contract/deps.js';

export function createPageTokenCache(options: { size: number; ttlMs: number }): PageTokenCache {
  const cache = new LRUCache<string, string>({ max: options.size, ttl: options.ttlMs });
  return {
    get: (key) => cache.get(key),
    set: (key, token) => void cache.set(key, token),
  };
}
