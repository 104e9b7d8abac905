// The in-process cache store (lru-cache): the default, and the local tier in front of Redis.

import { LRUCache } from 'lru-cache';
import type { CacheStore } from '../../core/cache-store.js';

export interface MemoryStore extends CacheStore {
  /** The value of `key` now, without a promise (for the local tier's fast path). */
  peek(key: string): string | undefined;
  /** Stores `value` for `ttlMs` now. */
  put(key: string, value: string, ttlMs: number): void;
}

/** At most `size` entries, least recently used evicted first; `size` 0 keeps nothing. */
export function createMemoryStore(options: { size: number }): MemoryStore {
  if (options.size <= 0) {
    return { peek: () => undefined, put: () => {}, getMany: async (keys) => keys.map(() => undefined), set: async () => {} };
  }
  const cache = new LRUCache<string, string>({ max: options.size });
  const peek = (key: string) => cache.get(key);
  const put = (key: string, value: string, ttlMs: number) => void cache.set(key, value, { ttl: ttlMs });
  return {
    peek,
    put,
    getMany: async (keys) => keys.map(peek),
    set: async (key, value, ttlMs) => put(key, value, ttlMs),
  };
}
