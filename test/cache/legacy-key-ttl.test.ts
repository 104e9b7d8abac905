import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/adapters/cache/memory-store.js';
import { createLegacyKeyResolver } from '../../src/adapters/legacy-key-resolver.js';
import type { Json, MigrationContext } from '../../src/core/contract-model/types.js';
import { BackendCallError } from '../../src/core/errors.js';
import { NO_SERVICES } from '../helpers/no-services.js';

// A legacy key the backend does not know is remembered for less time than one it knows: a key created
// after a miss is found once legacyKeys.notFoundTtlMs has passed, while found keys stay cached.

describe('legacy-key lookups, found and not found, each with its TTL', () => {
  it('asks the backend again about an unknown key after notFoundTtlMs, and not about a known one', async () => {
    let now = 1_000; // lru-cache takes a start time of 0 for "no TTL"
    const store = createMemoryStore({ size: 100, now: () => now });
    const resolver = createLegacyKeyResolver({ prefixes: {}, cacheSize: 100, cacheTtlMs: 600_000, notFoundTtlMs: 60_000, store });
    const known = new Set(['reports/known']);
    const asked: string[] = [];
    const ctx: MigrationContext = {
      clientVersion: 1,
      principal: 'caller',
      state: new Map(),
      services: NO_SERVICES,
      callBackend: async (_method, body: Json) => {
        asked.push(String(body.key));
        if (known.has(String(body.key))) return { workbookId: 'wb_1' };
        throw new BackendCallError(404, { code: 'NOT_FOUND', message: 'no such key' });
      },
    };
    expect(await resolver.resolve('reports/known', ctx)).toEqual({ workbookId: 'wb_1', via: 'backend' });
    expect(await resolver.resolve('reports/new', ctx)).toBeUndefined();
    known.add('reports/new'); // created on the backend after the miss
    now = 60_000;
    expect(await resolver.resolve('reports/new', ctx)).toBeUndefined(); // still the cached miss
    now = 62_000;
    expect(await resolver.resolve('reports/new', ctx)).toEqual({ workbookId: 'wb_1', via: 'backend' });
    expect(await resolver.resolve('reports/known', ctx)).toEqual({ workbookId: 'wb_1', via: 'backend' });
    expect(asked).toEqual(['reports/known', 'reports/new', 'reports/new']);
  });
});

describe('legacy-key lookups this process knows', () => {
  it('answer at once, without a promise, from the prefix mapping and from the local cache; unknown keys go to the backend', async () => {
    const resolver = createLegacyKeyResolver({
      prefixes: { 'legacy/finance/': 'wb_fin' },
      cacheSize: 10,
      cacheTtlMs: 600_000,
      notFoundTtlMs: 60_000,
    });
    let calls = 0;
    const ctx: MigrationContext = {
      clientVersion: 1,
      principal: 'caller',
      state: new Map(),
      services: NO_SERVICES,
      callBackend: async () => {
        calls++;
        return { workbookId: 'wb_2' };
      },
    };
    expect(resolver.resolve('legacy/finance/q1', ctx)).toEqual({ workbookId: 'wb_fin', via: 'config' });
    const first = resolver.resolve('reports/q2', ctx);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ workbookId: 'wb_2', via: 'backend' });
    expect(resolver.resolve('reports/q2', ctx)).toEqual({ workbookId: 'wb_2', via: 'backend' });
    // Another caller does not share the first one's entry.
    const other = resolver.resolve('reports/q2', { ...ctx, principal: 'other' });
    expect(other).toBeInstanceOf(Promise);
    await other;
    expect(calls).toBe(2);
  });
});
