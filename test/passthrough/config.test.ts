// The pass-through keys of the config: defaults by upstream kind, and the shapes refused with their key.

import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { passthroughEnabled } from '../../src/config/schema.js';
import { CALENDAR } from '../helpers/stack.js';

const parse = (extra: Record<string, unknown>, upstream = 'http://backend:8081') => parseConfig({ lifecycle: CALENDAR, upstream: { url: upstream }, ...extra });
const problems = (extra: Record<string, unknown>) => {
  try {
    parse(extra);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe('passthrough and routes in the config', () => {
  it('pass through by default in front of a real upstream, not in front of the embedded backend', () => {
    expect(passthroughEnabled(parse({}).config)).toBe(true);
    expect(passthroughEnabled(parse({}, 'embedded').config)).toBe(false);
    expect(passthroughEnabled(parse({ passthrough: { enabled: true } }, 'embedded').config)).toBe(true);
    expect(passthroughEnabled(parse({ passthrough: { enabled: false } }).config)).toBe(false);
    expect(parse({}).config.routes.prefix).toBeUndefined();
    expect(parse({}).config.passthrough.exclude).toEqual([]);
  });

  it('accept a prefix of plain segments and exclusions as path prefixes', () => {
    expect(parse({ routes: { prefix: '/_gateway' } }).config.routes.prefix).toBe('/_gateway');
    expect(parse({ routes: { prefix: '/api/gw-1' } }).config.routes.prefix).toBe('/api/gw-1');
    expect(parse({ passthrough: { exclude: ['/metrics', '/internal/admin'] } }).config.passthrough.exclude).toEqual(['/metrics', '/internal/admin']);
  });

  it.each([
    ['/_gateway/', 'routes.prefix'],
    ['_gateway', 'routes.prefix'],
    ['/rpc', 'routes.prefix'],
    ['/RPC/x', 'routes.prefix'],
    ['/a/../b', 'routes.prefix'],
    ['/a?b', 'routes.prefix'],
  ])('refuses the prefix %s, naming %s', (prefix, key) => {
    expect(problems({ routes: { prefix } }).join('\n')).toContain(key);
  });

  it.each(['metrics', '/metrics/', '/a?b', '/a#b', '/a%2fb', ''])('refuses the exclusion %j', (prefix) => {
    expect(problems({ passthrough: { exclude: [prefix] } }).join('\n')).toContain('passthrough.exclude.0');
  });

  it('refuses unknown keys in both sections', () => {
    expect(problems({ passthrough: { enable: true } }).join('\n')).toContain('passthrough.enable');
    expect(problems({ routes: { base: '/x' } }).join('\n')).toContain('routes.base');
  });
});
