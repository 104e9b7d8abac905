// One check names every mistake of a file: schema errors do not hide the calendar's, and a wrong upstream URL
// says what is expected.

import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { VERSIONS } from '../helpers/calendar.js';

function problemsOf(document: Record<string, unknown>): readonly string[] {
  try {
    parseConfig(document, {}, '(test)', { contractVersions: VERSIONS });
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe('check-config names every mistake at once', () => {
  it('reports five schema errors and the calendar errors together', () => {
    const problems = problemsOf({
      listen: { port: -1, hots: 'x' },
      limits: { bodyBytes: 0, jsonDepth: 0 },
      upstream: { timeoutMs: 'soon' },
      lifecycle: { versions: [{ version: 1, released: '2026-01-22' }, { version: 1, released: '2026-06-11' }] },
    });
    expect(problems.some((p) => p.startsWith('listen.port'))).toBe(true);
    expect(problems.some((p) => p.includes('listen.hots'))).toBe(true);
    expect(problems.some((p) => p.startsWith('limits.bodyBytes'))).toBe(true);
    expect(problems.some((p) => p.startsWith('limits.jsonDepth'))).toBe(true);
    expect(problems.some((p) => p.startsWith('upstream.timeoutMs'))).toBe(true);
    expect(problems).toContain('lifecycle.versions.1.version: version 1 is listed twice');
  });

  it('reports a schema error and a calendar that misses contract versions together', () => {
    const problems = problemsOf({ listen: { port: 'eighty' }, lifecycle: { versions: [{ version: VERSIONS[0], released: '2026-01-22' }] } });
    expect(problems.some((p) => p.startsWith('listen.port'))).toBe(true);
    for (const v of VERSIONS.slice(1)) expect(problems).toContain(`lifecycle.versions: version ${v} of the API contract has no release date`);
  });

  it.each(['ftp://x', 'backend:8080', 'http://', 'not a url'])('explains what upstream.url %j should be', (url) => {
    const [problem] = problemsOf({ upstream: { url }, lifecycle: { versions: VERSIONS.map((version, i) => ({ version, released: `202${i}-01-01` })) } });
    expect(problem).toMatch(/^upstream\.url: must be "embedded" or the backend's http\(s\) base URL, e\.g\. http:\/\/backend:8080/);
    expect(problem).toContain(JSON.stringify(url));
  });

  it('still accepts embedded and http(s) base URLs', () => {
    for (const url of ['embedded', 'http://backend:8080', 'https://bi.example.com/base/']) {
      expect(problemsOf({ upstream: { url }, lifecycle: { versions: VERSIONS.map((version, i) => ({ version, released: `202${i}-01-01` })) } })).toEqual([]);
    }
  });
});
