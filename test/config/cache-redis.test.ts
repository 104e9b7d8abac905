import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { CALENDAR } from '../helpers/stack.js';

// cache.redis: absent by default (each process caches alone), set by the file or by REDIS_URL.
const doc = (extra: Record<string, unknown> = {}) => ({ lifecycle: CALENDAR, ...extra });
const problems = (document: unknown, env: Record<string, string> = {}) => {
  try {
    parseConfig(document, env);
    return [];
  } catch (e) {
    return (e as ConfigError).problems;
  }
};

describe('cache.redis in the config', () => {
  it('is absent unless configured', () => {
    expect(parseConfig(doc()).config.cache.redis).toBeUndefined();
  });

  it('comes from REDIS_URL with its defaults, over the file', () => {
    const { config } = parseConfig(doc({ cache: { redis: { url: 'redis://file:6379', localCacheSize: 5 } } }), { REDIS_URL: 'rediss://user:pw@env:6380/2' });
    expect(config.cache.redis).toEqual({ url: 'rediss://user:pw@env:6380/2', timeoutMs: 50, localCacheSize: 5, keyPrefix: 'dlgw:' });
    expect(parseConfig(doc(), { REDIS_URL: 'redis://127.0.0.1:6379' }).config.cache.redis?.timeoutMs).toBe(50);
  });

  it('refuses other schemes, unknown keys and long timeouts, naming the key', () => {
    expect(problems(doc({ cache: { redis: { url: 'http://127.0.0.1:6379' } } }))).toEqual([expect.stringMatching(/^cache\.redis\.url: /)]);
    expect(problems(doc(), { REDIS_URL: 'not a url' })).toEqual([expect.stringMatching(/^REDIS_URL \(environment variable, overrides cache\.redis\.url\): /)]);
    expect(problems(doc({ cache: { redis: { url: 'redis://r:6379', timeoutMs: 5_000 } } }))).toEqual([expect.stringMatching(/^cache\.redis\.timeoutMs: /)]);
    expect(problems(doc({ cache: { redis: { url: 'redis://r:6379', ttl: 1 } } }))).toEqual(['cache.redis.ttl: unknown key']);
  });

  it('never echoes a password of a refused URL', () => {
    for (const p of problems(doc({ cache: { redis: { url: 'redis://user:s3cret@host:notaport' } } }))) expect(p).not.toContain('s3cret');
  });
});
