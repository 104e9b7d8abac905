// The in-process cache store (lru-cache): the default, and the local tier in front of Redis.

import { LRUCache } from 'lru-cache';
import type { CacheStore } from '../../core/cache-store.js';

export interface MemoryStore extends CacheStore {
  /** Stores `value` for `ttlMs` now. */
  put(key: string, value: string, ttlMs: number): void;
}

export interface MemoryStoreOptions {
  readonly size: number;
  /** The clock TTLs are measured on, in milliseconds; performance.now() when not given (tests pass their own). */
  readonly now?: () => number;
}

/** At most `size` entries, least recently used evicted first; `size` 0 keeps nothing. */
export function createMemoryStore(options: MemoryStoreOptions): MemoryStore {
  if (options.size <= 0) {
    return { peek: () => undefined, put: () => {}, getMany: async (keys) => keys.map(() => undefined), set: async () => {} };
  }
  // A given clock is read on every check (ttlResolution 0), so that moving it is seen at once.
  const clock = options.now && { perf: { now: options.now }, ttlResolution: 0 };
  const cache = new LRUCache<string, string>({ max: options.size, ...clock });
  const peek = (key: string) => cache.get(key);
  const put = (key: string, value: string, ttlMs: number) => void cache.set(key, value, { ttl: ttlMs });
  return {
    peek,
    put,
    getMany: async (keys) => keys.map(peek),
    set: async (key, value, ttlMs) => put(key, value, ttlMs),
  };
}
