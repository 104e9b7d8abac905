// A cache store shared through Redis, with a small in-process cache in front: reads try the local cache,
// then Redis; writes go to both. Keys are hashed, so no credential, org id or legacy key is readable in Redis.

import { createHash } from 'node:crypto';
import type { CacheStore } from '../../core/cache-store.js';
import { createMemoryStore } from './memory-store.js';
import type { RedisLink } from './redis-link.js';

/** Longest value kept in Redis (page tokens and workbook ids are far shorter); a longer reply is not ours. */
export const MAX_VALUE_CHARS = 16_384;

export interface RedisStoreOptions {
  readonly link: RedisLink;
  /** Prepended to every key, so that several deployments can share one Redis (e.g. "dlgw:"). */
  readonly keyPrefix: string;
  /** Separates the kinds of entries (e.g. "page", "legacy"). */
  readonly namespace: string;
  /** Entries of the local cache in front of Redis (0: none). */
  readonly localSize: number;
  /** How long a value read from Redis stays in the local cache (the namespace's TTL). */
  readonly localTtlMs: number;
}

/** The Redis key of a cache key: the prefix, the namespace and a sha256 of the key, nothing readable. */
export function redisKey(keyPrefix: string, namespace: string, key: string): string {
  return `${keyPrefix}${namespace}:${createHash('sha256').update(key).digest('base64url')}`;
}

const usable = (reply: unknown): reply is string => typeof reply === 'string' && reply.length <= MAX_VALUE_CHARS;

export function createRedisStore(options: RedisStoreOptions): CacheStore {
  const { link, keyPrefix, namespace } = options;
  const local = createMemoryStore({ size: options.localSize });
  const remoteKey = (key: string) => redisKey(keyPrefix, namespace, key);

  return {
    peek: local.peek,
    async getMany(keys) {
      const values: (string | undefined)[] = keys.map(local.peek);
      const missing: number[] = [];
      for (let i = 0; i < keys.length; i++) if (values[i] === undefined) missing.push(i);
      if (missing.length === 0) return values;
      const reply = await link.command('get', ['MGET', ...missing.map((i) => remoteKey(keys[i] as string))]);
      if (reply === undefined) return values;
      if (!Array.isArray(reply) || reply.length !== missing.length) {
        link.garbage('get', 'MGET answered something other than one value per key');
        return values;
      }
      let garbage = false;
      missing.forEach((index, j) => {
        const value: unknown = reply[j];
        if (value === null || value === undefined) return;
        if (!usable(value)) {
          garbage = true;
          return;
        }
        values[index] = value;
        local.put(keys[index] as string, value, options.localTtlMs);
      });
      if (garbage) link.garbage('get', 'a value that is not a short string');
      return values;
    },
    async set(key, value, ttlMs) {
      // Known here already: this replica stored it (or read it from Redis), so Redis has it too unless it lost it.
      if (options.localSize > 0 && local.peek(key) === value) return;
      local.put(key, value, ttlMs);
      if (value.length > MAX_VALUE_CHARS) return; // kept here only: another replica would take it for garbage
      const reply = await link.command('set', ['SET', remoteKey(key), value, 'PX', String(Math.max(1, Math.round(ttlMs)))]);
      if (reply !== undefined && reply !== 'OK') link.garbage('set', 'SET answered something other than OK');
    },
  };
}
