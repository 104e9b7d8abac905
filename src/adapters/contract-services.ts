// Builds the services migrations reach through their context from a config: the legacy-key resolver and the
// page-token cache, each on an in-process store, or on Redis (with a local cache in front) when cache.redis is set.

import type { Logger } from 'pino';
import type { CacheMetrics } from '../ports/metrics.js';
import type { GatewayConfig } from '../config/schema.js';
import type { ContractServices } from '../core/contract-model/services.js';
import { createRedisLink } from './cache/redis-link.js';
import { createRedisStore } from './cache/redis-store.js';
import { createLegacyKeyResolver } from './legacy-key-resolver.js';
import { createPageTokenCache } from './page-token-cache.js';

export interface ContractServicesHandle {
  readonly services: ContractServices;
  /** Where the caches live: "memory" (this process) or "redis" (shared). */
  readonly where: string;
  /** Releases the Redis connection, if any. */
  close(): Promise<void>;
}

export function createContractServices(config: GatewayConfig, io: { logger: Logger; metrics: CacheMetrics }): ContractServicesHandle {
  const redis = config.cache.redis;
  const { legacyKeys, paging } = config;
  if (!redis) {
    io.metrics.setCacheConnected(undefined);
    return {
      services: {
        legacyKeys: createLegacyKeyResolver({
          prefixes: legacyKeys.prefixes,
          cacheSize: legacyKeys.cacheSize,
          cacheTtlMs: legacyKeys.cacheTtlMs,
          notFoundTtlMs: legacyKeys.notFoundTtlMs,
        }),
        pageTokens: createPageTokenCache({ size: paging.tokenCacheSize, ttlMs: paging.tokenCacheTtlMs, maxWalkCalls: paging.maxWalkCalls }),
      },
      where: 'memory',
      close: async () => {},
    };
  }
  const link = createRedisLink({ url: redis.url, timeoutMs: redis.timeoutMs, logger: io.logger, metrics: io.metrics });
  const store = (namespace: string, ttlMs: number) =>
    createRedisStore({ link, keyPrefix: redis.keyPrefix, namespace, localSize: redis.localCacheSize, localTtlMs: ttlMs });
  return {
    services: {
      legacyKeys: createLegacyKeyResolver({
        prefixes: legacyKeys.prefixes,
        cacheSize: legacyKeys.cacheSize,
        cacheTtlMs: legacyKeys.cacheTtlMs,
        notFoundTtlMs: legacyKeys.notFoundTtlMs,
        // A copy read from Redis does not know how long Redis keeps it: locally, no longer than a "not found" lives.
        store: store('legacy', Math.min(legacyKeys.cacheTtlMs, legacyKeys.notFoundTtlMs)),
      }),
      pageTokens: createPageTokenCache({
        size: paging.tokenCacheSize,
        ttlMs: paging.tokenCacheTtlMs,
        maxWalkCalls: paging.maxWalkCalls,
        store: store('page', paging.tokenCacheTtlMs),
      }),
    },
    where: 'redis',
    close: () => link.close(),
  };
}
