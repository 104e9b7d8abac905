// Resolves a v1 report key to a workbook: the operator's folder prefixes (longest wins), then the backend, cached.

import { LRUCache } from 'lru-cache';
import { BackendCallError } from '../core/errors.js';
import type { LegacyKeyResolver } from '../contract/deps.js';

export interface LegacyKeyResolverOptions {
  readonly prefixes: Readonly<Record<string, string>>;
  readonly cacheSize: number;
  readonly cacheTtlMs: number;
}

type Resolution = { workbookId: string; via: 'config' | 'backend' };

export function createLegacyKeyResolver(options: LegacyKeyResolverOptions): LegacyKeyResolver {
  // Longest prefix first, so the first match is the most specific one.
  const prefixes = Object.entries(options.prefixes).sort(([a], [b]) => b.length - a.length);
  // Negative answers are cached too (as null), so a stream of unknown keys does not hammer the backend.
  const cache = new LRUCache<string, Resolution | { none: true }>({ max: options.cacheSize, ttl: options.cacheTtlMs });

  return {
    async resolve(key, ctx) {
      for (const [prefix, workbookId] of prefixes) {
        if (key.startsWith(prefix)) return { workbookId, via: 'config' };
      }
      // Per caller: what a key resolves to may depend on who asks.
      const cacheKey = `${ctx.principal}\0${key}`;
      const cached = cache.get(cacheKey);
      if (cached) return 'none' in cached ? undefined : cached;
      try {
        const answer = await ctx.callBackend('resolveLegacyKey', { key });
        const workbookId = answer.workbookId;
        if (typeof workbookId !== 'string' || !workbookId) return undefined;
        const found: Resolution = { workbookId, via: 'backend' };
        cache.set(cacheKey, found);
        return found;
      } catch (e) {
        if (e instanceof BackendCallError && e.status === 404) {
          cache.set(cacheKey, { none: true });
          return undefined;
        }
        throw e;
      }
    },
  };
}
