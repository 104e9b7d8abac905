import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFile, parseConfig } from '../../src/config/load.js';
import { statusAt } from '../../src/core/lifecycle/calendar.js';

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
    expect(calendar.entries.map((e) => e.version)).toEqual([1, 2]);
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
    expect(problemsOf(() => parseConfig({ lifecycle }, { PORT: 'eighty' }))[0]).toMatch(/^PORT: not an integer/);
    expect(problemsOf(() => parseConfig({ lifecycle }, { UPSTREAM_URL: 'ftp://x' }))[0]).toMatch(/^upstream\.url: /);
  });
});
