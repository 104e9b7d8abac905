// lifecycle.versions[].migrationGuide is an absolute http(s) URL, and whatever it holds cannot break the
// Link header it goes into: an RFC 8288 reading of the header still finds exactly one rel="deprecation".

import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { CALENDAR, DURING_DEPRECATION, rpc, startStack } from '../helpers/stack.js';

const withGuide = (migrationGuide: string) => ({
  lifecycle: { ...CALENDAR, versions: [{ ...CALENDAR.versions[0]!, migrationGuide }, ...CALENDAR.versions.slice(1)] },
  upstream: { url: 'http://127.0.0.1:1' },
});

function problemsOf(guide: string): string[] {
  try {
    parseConfig(withGuide(guide));
  } catch (e) {
    if (e instanceof ConfigError) return [...e.problems];
    throw e;
  }
  return [];
}

describe('migrationGuide', () => {
  it.each([
    ['a relative path', '/docs/migrate'],
    ['another scheme', 'javascript:alert(1)'],
    ['a mailto', 'mailto:api@example.com'],
    ['credentials', 'https://user:secret@example.com/guide'],
    ['no URL at all', 'see the wiki'],
  ])('refuses %s with its key', (_label, guide) => {
    const problems = problemsOf(guide);
    expect(problems.join('\n')).toMatch(/lifecycle\.versions\.0\.migrationGuide/);
  });

  it.each([
    'https://example.com/a b',
    'https://example.com/x>; rel="other"; a="',
    'https://example.com/q?x="y"&z=<1>',
    'https://example.com/p;param,comma',
  ])('accepts %s and sends a Link with exactly one rel="deprecation" whose target is the URL', async (guide) => {
    expect(problemsOf(guide)).toEqual([]);
    const stack = await startStack({ now: DURING_DEPRECATION, config: { lifecycle: withGuide(guide).lifecycle } });
    try {
      const res = await rpc(stack.url, 'getEntries', { pageSize: 1 }, '1');
      // One link-value: a target with no character that could end it early, then the gateway's parameters.
      const match = /^<([^<>"\s]*)>; rel="deprecation"; type="text\/html", <\/2\/>; rel="successor-version"$/.exec(res.headers.get('link') ?? '');
      expect(match, res.headers.get('link') ?? 'no Link').not.toBeNull();
      expect(new URL(match![1]!).href).toBe(new URL(guide).href);
    } finally {
      await stack.close();
    }
  });
});
