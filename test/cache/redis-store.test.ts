import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics, type Metrics } from '../../src/admin/metrics.js';
import { createMemoryStore } from '../../src/adapters/cache/memory-store.js';
import { createRedisLink, type RedisLink } from '../../src/adapters/cache/redis-link.js';
import { createRedisStore, MAX_VALUE_CHARS, redisKey } from '../../src/adapters/cache/redis-store.js';
import { createLegacyKeyResolver } from '../../src/adapters/legacy-key-resolver.js';
import type { CacheStore } from '../../src/core/cache-store.js';
import type { Json, MigrationContext } from '../../src/core/contract-model/types.js';
import { BackendCallError } from '../../src/core/errors.js';
import { memoryLog, sampleValue, waitFor } from '../helpers/serve-process.js';
import { freePort } from '../../bench/free-port.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { NO_SERVICES } from '../helpers/no-services.js';

// The shared cache against a real redis-server of the test's own: what one replica stores another reads,
// keys reveal nothing, and Redis down, frozen, refusing or talking garbage only ever reads as a miss.

const TTL = 60_000;
const NOT_FOUND_TTL = 5_000;
let redis: TestRedis;
const links: RedisLink[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const link of links) await link.close();
  await redis.dispose();
});

interface Replica {
  readonly link: RedisLink;
  readonly store: CacheStore;
  readonly metrics: Metrics;
  readonly log: ReturnType<typeof memoryLog>;
  errors(labels?: Record<string, string>): Promise<number>;
  connected(): Promise<number | undefined>;
}

function replica(url: string, options: { localSize?: number; prefix?: string; timeoutMs?: number; stuckMs?: number; name?: string } = {}): Replica {
  const metrics = createMetrics({ maxClients: 10, defaultMetrics: false });
  const log = memoryLog();
  // A generous timeout unless a test is about timeouts: a busy CI machine must not turn a slow answer into a miss.
  const link = createRedisLink({
    url,
    timeoutMs: options.timeoutMs ?? 1_000,
    logger: log.logger,
    metrics,
    ...(options.stuckMs !== undefined && { stuckMs: options.stuckMs }),
    ...(options.name !== undefined && { name: options.name }),
  });
  links.push(link);
  const store = createRedisStore({ link, keyPrefix: options.prefix ?? 'test:', namespace: 'page', localSize: options.localSize ?? 0, localTtlMs: TTL });
  const text = () => metrics.registry.metrics();
  return {
    link,
    store,
    metrics,
    log,
    errors: async (labels = {}) => sampleValue(await text(), 'dlgw_cache_errors_total', labels) ?? 0,
    connected: async () => sampleValue(await text(), 'dlgw_cache_redis_connected'),
  };
}

const ready = (r: Replica) => waitFor(async () => (await r.connected()) === 1, 'the Redis connection');
const get = async (r: Replica, key: string) => (await r.store.getMany([key]))[0];

describe('the Redis cache store', () => {
  it('lets one replica read what another stored, with the entry TTL', async () => {
    const a = replica(redis.url);
    const b = replica(redis.url);
    await Promise.all([ready(a), ready(b)]);
    await a.store.set('caller-1:query#3', 'token-3', TTL);
    expect(await get(b, 'caller-1:query#3')).toBe('token-3');
    expect(await b.store.getMany(['caller-1:query#3', 'caller-1:query#4', 'caller-2:query#3'])).toEqual(['token-3', undefined, undefined]);
    const pttl = Number(await redis.command(['PTTL', redisKey('test:', 'page', 'caller-1:query#3')]));
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(TTL);
  });

  it('shares legacy-key lookups, found and not found, each with its TTL', async () => {
    const resolvers = [1, 2].map(() => {
      const r = replica(redis.url);
      const store = createRedisStore({ link: r.link, keyPrefix: 'legacy:', namespace: 'legacy', localSize: 0, localTtlMs: TTL });
      return { r, resolver: createLegacyKeyResolver({ prefixes: {}, cacheSize: 10, cacheTtlMs: TTL, notFoundTtlMs: NOT_FOUND_TTL, store }) };
    });
    await Promise.all(resolvers.map(({ r }) => ready(r)));
    let lookups = 0;
    // The backend's resolveLegacyKey: one folder it knows, a JSON 404 for anything else.
    const ctx: MigrationContext = {
      clientVersion: 1,
      principal: 'caller-hash:org-7',
      state: new Map(),
      services: NO_SERVICES,
      callBackend: async (_method, body: Json) => {
        lookups++;
        if (body.key === 'reports/known') return { workbookId: 'wb_known' };
        throw new BackendCallError(404, { code: 'NOT_FOUND', message: 'no such key' });
      },
    };
    const [first, second] = resolvers as [(typeof resolvers)[0], (typeof resolvers)[0]];
    expect(await first.resolver.resolve('reports/known', ctx)).toEqual({ workbookId: 'wb_known', via: 'backend' });
    expect(await first.resolver.resolve('reports/unknown', ctx)).toBeUndefined();
    expect(await second.resolver.resolve('reports/known', ctx)).toEqual({ workbookId: 'wb_known', via: 'backend' });
    expect(await second.resolver.resolve('reports/unknown', ctx)).toBeUndefined();
    expect(lookups).toBe(2);
    // Each with its own TTL: a key the backend does not know is asked again sooner.
    for (const [key, ttl] of [['reports/known', TTL], ['reports/unknown', NOT_FOUND_TTL]] as const) {
      const pttl = Number(await redis.command(['PTTL', redisKey('legacy:', 'legacy', `caller-hash:org-7\0${key}`)]));
      expect(pttl).toBeGreaterThan(ttl === TTL ? NOT_FOUND_TTL : 0);
      expect(pttl).toBeLessThanOrEqual(ttl);
    }
  });

  it('hashes keys, so no credential, org id or legacy key is readable in Redis', async () => {
    const a = replica(redis.url, { prefix: 'hashed:' });
    await ready(a);
    const principal = '9f86d081884c7d659a2feaa0c55ad015:org-secret-42';
    await a.store.set(`${principal}\0reports/marketing/q3`, 'wb_1', TTL);
    const keys = (await redis.command(['KEYS', 'hashed:*'])) as string[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^hashed:page:[A-Za-z0-9_-]{43}$/);
    for (const secret of ['9f86d0', 'org-secret-42', 'marketing', 'reports']) expect(keys[0]).not.toContain(secret);
  });

  it('serves from its local cache in front of Redis', async () => {
    const a = replica(redis.url, { localSize: 10 });
    await ready(a);
    await a.store.set('local:k', 'v', TTL);
    await redis.command(['DEL', redisKey('test:', 'page', 'local:k')]);
    expect(await get(a, 'local:k')).toBe('v');
  });

  it('reads a wrong type or an oversized value as a miss, and counts it', async () => {
    const a = replica(redis.url);
    await ready(a);
    await redis.command(['LPUSH', redisKey('test:', 'page', 'wrong-type'), 'x']);
    await redis.command(['SET', redisKey('test:', 'page', 'too-long'), 'x'.repeat(MAX_VALUE_CHARS + 1)]);
    expect(await a.store.getMany(['wrong-type', 'too-long'])).toEqual([undefined, undefined]);
    expect(await a.errors({ op: 'get', reason: 'garbage' })).toBeGreaterThanOrEqual(1);
    // SET over a list replaces it; a GET-type command on it is refused by Redis: both are survivable.
    await a.store.set('wrong-type', 'fine', TTL);
    expect(await get(a, 'wrong-type')).toBe('fine');
  });

  it('keeps answering while Redis is down, counts it, logs once, and shares again once Redis is back', async () => {
    const a = replica(redis.url, { localSize: 100 });
    const b = replica(redis.url, { localSize: 100 });
    await Promise.all([ready(a), ready(b)]);
    await redis.stop();
    await waitFor(async () => (await a.connected()) === 0 && (await b.connected()) === 0, 'both links to notice');
    for (let i = 0; i < 50; i++) await a.store.set(`down:${i}`, `t${i}`, TTL);
    // a's local cache still has them; b has nothing and no Redis: misses, never a rejection.
    expect(await get(a, 'down:7')).toBe('t7');
    expect(await get(b, 'down:7')).toBeUndefined();
    expect(await a.errors({ op: 'set', reason: 'unavailable' })).toBe(50);
    expect(await b.errors({ op: 'get', reason: 'unavailable' })).toBe(1);
    const warnings = a.log.entries().filter((e) => /^cache: /.test(String(e.msg)) && e.level === 40);
    expect(warnings.length).toBe(1);
    expect(JSON.stringify(a.log.entries())).not.toContain('password');

    await redis.start();
    await Promise.all([ready(a), ready(b)]);
    await a.store.set('back:1', 'shared-again', TTL);
    expect(await get(b, 'back:1')).toBe('shared-again');
  });

  it('gives up on a frozen Redis after its timeout, then skips it for a while, and resumes once it answers', async () => {
    const a = replica(redis.url, { timeoutMs: 30 });
    await ready(a);
    await a.store.set('frozen:1', 'before', TTL);
    redis.pause();
    try {
      expect(await get(a, 'frozen:1')).toBeUndefined();
      expect(await a.errors({ reason: 'timeout' })).toBe(1);
      expect(await get(a, 'frozen:1')).toBeUndefined();
      expect(await a.errors({ reason: 'skipped' })).toBe(1);
    } finally {
      redis.resume();
    }
    expect(await waitFor(async () => (await get(a, 'frozen:1')) ?? false, 'Redis to answer again')).toBe('before');
  });

  it('replaces a connection that stopped answering (a Redis host gone without closing it)', async () => {
    const a = replica(redis.url, { timeoutMs: 20, stuckMs: 150, name: 'stuck-test' });
    await ready(a);
    await a.store.set('stuck:1', 'before', TTL);
    const idOf = async () => /id=(\d+) [^\n]*name=stuck-test /.exec(String(await redis.command(['CLIENT', 'LIST'])))?.[1];
    const before = await idOf();
    expect(before).toBeDefined();
    redis.pause();
    try {
      // Timeouts, then a second of skipping after each, until the connection has been silent for stuckMs.
      await waitFor(async () => (await get(a, 'stuck:1')) === undefined && (await a.connected()) === 0, 'the link to give up on its connection', { timeoutMs: 10_000 });
    } finally {
      redis.resume();
    }
    expect(await waitFor(async () => (await get(a, 'stuck:1')) ?? false, 'Redis to answer again')).toBe('before');
    const after = await waitFor(idOf, 'the new connection');
    expect(after).not.toBe(before);
  });

  it('connects by itself to a Redis that comes up after the gateway', async () => {
    await redis.stop();
    const a = replica(redis.url);
    expect(await get(a, 'late:1')).toBeUndefined();
    await redis.start();
    await ready(a);
    await a.store.set('late:1', 'ok', TTL);
    expect(await get(a, 'late:1')).toBe('ok');
  });

  it('never logs the password of its URL', async () => {
    const port = await freePort(); // nothing listens there
    const a = replica(`redis://dlgw:s3cret-pw@127.0.0.1:${port}`);
    expect(await get(a, 'x')).toBeUndefined();
    await waitFor(() => a.log.entries().some((e) => e.level === 40), 'a warning');
    expect(a.log.text()).not.toContain('s3cret-pw');
    expect(a.log.text()).toContain(`127.0.0.1:${port}`);
  });

  it('survives a server that answers garbage bytes', async () => {
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('data', () => socket.write('?!garbage\r\n\x00\xff$-7\r\n'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const a = replica(`redis://127.0.0.1:${port}`);
      for (let i = 0; i < 20; i++) {
        expect(await get(a, `g:${i}`)).toBeUndefined();
        await a.store.set(`g:${i}`, 'v', TTL);
      }
      expect(await a.errors()).toBe(40);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the in-memory cache store', () => {
  it('keeps entries for their TTL, at most its size', async () => {
    let now = 1_000;
    const store = createMemoryStore({ size: 2, now: () => now });
    await store.set('a', '1', TTL);
    await store.set('b', '2', TTL);
    await store.set('c', '3', TTL);
    expect(await store.getMany(['a', 'b', 'c'])).toEqual([undefined, '2', '3']);
    await store.set('gone', 'x', 5);
    now += 4;
    expect(await store.getMany(['gone'])).toEqual(['x']);
    now += 2;
    expect(await store.getMany(['gone'])).toEqual([undefined]);
  });
});
