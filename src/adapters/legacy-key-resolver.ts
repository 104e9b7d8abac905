// Resolves a v1 report key to a workbook: the operator's folder prefixes (longest wins), then the backend, cached.

import { BackendCallError, GatewayError } from '../core/errors.js';
import type { CacheStore } from '../core/cache-store.js';
import type { LegacyKeyResolution, LegacyKeyResolver, OnBehalfOf } from '../core/contract-model/services.js';
import { createMemoryStore } from './cache/memory-store.js';

export interface LegacyKeyResolverOptions {
  readonly prefixes: Readonly<Record<string, string>>;
  readonly cacheSize: number;
  /** How long a found key's workbook is kept. */
  readonly cacheTtlMs: number;
  /** How long "the backend knows no such key" is kept: shorter, so that a key created since is found soon. */
  readonly notFoundTtlMs: number;
  /** Where lookups are cached; an in-process store of `cacheSize` entries when absent. */
  readonly store?: CacheStore;
}

/** The cached value of a key the backend does not know (a workbook id is never empty). */
const NOT_FOUND = '';

export function createLegacyKeyResolver(options: LegacyKeyResolverOptions): LegacyKeyResolver {
  // Longest prefix first, so the first match is the most specific one.
  const prefixes = Object.entries(options.prefixes).sort(([a], [b]) => b.length - a.length);
  const store = options.store ?? createMemoryStore({ size: options.cacheSize });

  const fromCache = (cached: string): LegacyKeyResolution | undefined => (cached === NOT_FOUND ? undefined : { workbookId: cached, via: 'backend' });

  /** The shared store, then the backend. */
  async function lookUp(key: string, cacheKey: string, ctx: OnBehalfOf): Promise<LegacyKeyResolution | undefined> {
    const [cached] = await store.getMany([cacheKey]);
    if (cached !== undefined) return fromCache(cached);
    try {
      const answer = await ctx.callBackend('resolveLegacyKey', { key });
      const workbookId = answer.workbookId;
      if (typeof workbookId !== 'string' || !workbookId) {
        throw new GatewayError('UPSTREAM_UNAVAILABLE', 'the backend answered resolveLegacyKey without a workbookId', {
          reason: 'resolveLegacyKey answer without workbookId',
        });
      }
      await store.set(cacheKey, workbookId, options.cacheTtlMs);
      return { workbookId, via: 'backend' };
    } catch (e) {
      // "No such key" is a 404 with the backend's JSON error body; a bare or HTML 404 is a refusal like any other.
      // Negative answers are cached too, so a stream of unknown keys does not hammer the backend.
      if (e instanceof BackendCallError && e.status === 404 && e.body !== undefined) {
        await store.set(cacheKey, NOT_FOUND, options.notFoundTtlMs);
        return undefined;
      }
      throw e;
    }
  }

  return {
    resolve(key, ctx) {
      for (const [prefix, workbookId] of prefixes) {
        if (key.startsWith(prefix)) return { workbookId, via: 'config' };
      }
      // Per caller: what a key resolves to may depend on who asks.
      const cacheKey = `${ctx.principal}\0${key}`;
      const cached = store.peek(cacheKey);
      return cached !== undefined ? fromCache(cached) : lookUp(key, cacheKey, ctx);
    },
  };
}
