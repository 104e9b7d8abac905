import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFile, parseConfig } from '../../src/config/load.js';
import { statusAt } from '../../src/core/lifecycle/calendar.js';
import { VERSIONS } from '../helpers/calendar.js';

const dir = mkdtempSync(join(tmpdir(), 'dlgw-config-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const lifecycle = {
  versions: [
    { version: 1, released: '2025-01-15' },
    { version: 2, released: '2026-10-01' },
  ],
};
const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return [...e.problems];
    throw e;
  }
  throw new Error('expected a ConfigError');
};

describe('config loading', () => {
  it('accepts the shipped config/gateway.yaml with its defaults filled in', () => {
    const { config, calendar } = loadConfigFile(new URL('../../config/gateway.yaml', import.meta.url).pathname, {});
    expect(config.upstream.url).toBe('embedded');
    expect(config.listen.port).toBe(8080);
    expect(calendar.entries.map((e) => e.version)).toEqual(VERSIONS);
    expect(Object.isFrozen(config.limits)).toBe(true);
  });

  it('derives deprecation from the next release and sunset from the support window', () => {
    const { calendar } = parseConfig({ lifecycle: { ...lifecycle, supportWindowDays: 30 } });
    const v1 = calendar.entries[0]!;
    expect(v1.deprecatedAt?.toISOString()).toBe('2026-10-01T00:00:00.000Z');
    expect(v1.sunsetAt?.toISOString()).toBe('2026-10-31T00:00:00.000Z');
    expect(statusAt(v1, new Date('2026-10-30T23:59:59Z'))).toBe('deprecated');
    expect(statusAt(v1, new Date('2026-10-31T00:00:00Z'))).toBe('sunset');
    expect(calendar.entries[1]?.sunsetAt).toBeUndefined();
  });

  it('takes an explicit sunset over the window', () => {
    const { calendar } = parseConfig({
      lifecycle: { versions: [{ version: 1, released: '2025-01-15', sunset: '2027-01-01' }, lifecycle.versions[1]] },
    });
    expect(calendar.entries[0]?.sunsetAt?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('refuses an unknown key and names it', () => {
    expect(problemsOf(() => parseConfig({ lifecycle, upstream: { url: 'embedded', timeout: 5 } }))).toEqual([
      'upstream.timeout: unknown key',
    ]);
  });

  it('refuses a sunset before the deprecation and names the version', () => {
    const problems = problemsOf(() =>
      parseConfig({ lifecycle: { versions: [{ version: 1, released: '2025-01-15', sunset: '2026-01-01' }, lifecycle.versions[1]] } }),
    );
    expect(problems[0]).toMatch(/^lifecycle\.versions: version 1: sunset .* is before its deprecation/);
  });

  it('refuses a bad date, a duplicate version and a missing calendar with their keys', () => {
    expect(problemsOf(() => parseConfig({ lifecycle: { versions: [{ version: 1, released: 'soon' }] } }))[0]).toMatch(
      /^lifecycle\.versions\.0\.released: not a date/,
    );
    expect(problemsOf(() => parseConfig({ lifecycle: { versions: [lifecycle.versions[0], lifecycle.versions[0]] } }))[0]).toMatch(
      /listed twice/,
    );
    expect(problemsOf(() => parseConfig({}))[0]).toMatch(/^lifecycle: /);
  });

  it('refuses a file that is not YAML, or missing, with the reason', () => {
    expect(problemsOf(() => loadConfigFile(file('bad.yaml', 'lifecycle: [unclosed'), {}))[0]).toMatch(/not valid YAML/);
    expect(problemsOf(() => loadConfigFile(join(dir, 'absent.yaml'), {}))[0]).toMatch(/cannot read the file/);
  });

  it('lets PORT and UPSTREAM_URL from the environment win over the file', () => {
    const { config } = parseConfig({ lifecycle }, { PORT: '9999', UPSTREAM_URL: 'http://10.0.0.1:81/base' });
    expect(config.listen.port).toBe(9999);
    expect(config.upstream.url).toBe('http://10.0.0.1:81/base');
    // A wrong variable is named as such, not as the file key it overrides.
    expect(problemsOf(() => parseConfig({ lifecycle }, { PORT: 'eighty' }))[0]).toMatch(/^PORT \(environment variable, overrides listen\.port\): not an integer/);
    expect(problemsOf(() => parseConfig({ lifecycle }, { UPSTREAM_URL: 'ftp://x' }))[0]).toMatch(/^UPSTREAM_URL \(environment variable, overrides upstream\.url\): /);
    expect(problemsOf(() => parseConfig({ lifecycle }, { UPSTREAM_URL: 'localhost:1' }))[0]).toMatch(/^UPSTREAM_URL /);
    expect(problemsOf(() => parseConfig({ lifecycle }, { ADMIN_PORT: '90x' }))[0]).toMatch(/^ADMIN_PORT /);
    expect(problemsOf(() => parseConfig({ lifecycle }, { UPSTREAM_TIMEOUT_MS: '0' }))[0]).toMatch(/^UPSTREAM_TIMEOUT_MS /);
  });

  it.each([
    ['2027-02-30', 'February has no 30th'],
    ['2027-04-31', 'April has 30 days'],
    ['2027-02-29', '2027 is not a leap year'],
    ['2027-02-30T00:00:00Z', 'an instant on a day that does not exist'],
  ])('refuses the impossible date %s (%s) instead of rolling it over', (day) => {
    const doc = { lifecycle: { versions: [{ version: 1, released: '2025-01-15', sunset: day }, lifecycle.versions[1]] } };
    expect(problemsOf(() => parseConfig(doc))).toEqual([`lifecycle.versions.0.sunset: not a date: ${day} (that day does not exist)`]);
  });

  it('accepts a real leap day', () => {
    const doc = { lifecycle: { versions: [{ version: 1, released: '2025-01-15', sunset: '2028-02-29' }, lifecycle.versions[1]] } };
    expect(parseConfig(doc).calendar.entries[0]?.sunsetAt?.toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('refuses an admin listener beyond loopback without a token, and reads the token from ADMIN_TOKEN or a file', () => {
    expect(problemsOf(() => parseConfig({ lifecycle, admin: { host: '0.0.0.0' } }))[0]).toMatch(/^admin\.host: 0\.0\.0\.0 is beyond loopback.*ADMIN_TOKEN_FILE/);
    expect(problemsOf(() => parseConfig({ lifecycle }, { ADMIN_HOST: '::' }))[0]).toMatch(/^ADMIN_HOST: :: is beyond loopback/);
    expect(parseConfig({ lifecycle, admin: { host: '0.0.0.0' } }, { ADMIN_TOKEN: 's3cret' }).adminToken).toBe('s3cret');
    const tokenFile = file('token', 's3cret-from-file\n');
    expect(parseConfig({ lifecycle, admin: { host: '0.0.0.0' } }, { ADMIN_TOKEN_FILE: tokenFile }).adminToken).toBe('s3cret-from-file');
    expect(parseConfig({ lifecycle, admin: { host: '0.0.0.0', tokenFile } }).adminToken).toBe('s3cret-from-file');
    expect(problemsOf(() => parseConfig({ lifecycle }, { ADMIN_TOKEN_FILE: join(dir, 'no-token') }))[0]).toMatch(/^ADMIN_TOKEN_FILE \(environment variable\): cannot read the token file/);
    // Loopback needs none; the disabled listener needs none.
    expect(parseConfig({ lifecycle, admin: { host: '127.0.0.1' } }).adminToken).toBeUndefined();
    expect(parseConfig({ lifecycle, admin: { host: '0.0.0.0', enabled: false } }).adminToken).toBeUndefined();
    // The token is never part of the config object (which may be logged).
    expect(JSON.stringify(parseConfig({ lifecycle }, { ADMIN_TOKEN: 's3cret' }).config)).not.toContain('s3cret');
  });

  it('has readiness defaults: GET /ping, 2 s, version checked', () => {
    expect(parseConfig({ lifecycle }).config.readiness).toEqual({ path: '/ping', timeoutMs: 2000, checkVersion: true });
    expect(problemsOf(() => parseConfig({ lifecycle, readiness: { path: 'ping' } }))[0]).toMatch(/^readiness\.path: /);
  });
});
