// check-config, serve and reload give the same verdict on the same file and environment: one table of good and
// bad configs (the calendar against the contract, impossible dates, environment overrides, the admin token).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheckConfig } from '../../src/cli/check-config.js';
import { serve, type Serving } from '../../src/cli/serve.js';
import { ConfigError } from '../../src/config/load.js';
import { createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { HEAD } from '../helpers/calendar.js';
import { configDoc, liveCalendar, memoryLog, replaceFile, tempDir, yamlOf } from '../helpers/serve-process.js';

interface Row {
  readonly name: string;
  /** The config document, given the backend's URL. */
  readonly doc: (upstreamUrl: string) => Record<string, unknown>;
  readonly env?: Record<string, string>;
  /** undefined: valid; otherwise a pattern every path's problems must match. */
  readonly refused?: RegExp;
}

const cal = liveCalendar();
const { versions } = cal.calendar;
const withVersions = (url: string, versions: unknown[]) => {
  const doc = configDoc({ upstreamUrl: url });
  return { ...doc, lifecycle: { supportWindowDays: 365, versions } };
};

const ROWS: Row[] = [
  { name: 'the live calendar', doc: (url) => configDoc({ upstreamUrl: url }) },
  { name: 'a real leap day as sunset', doc: (url) => configDoc({ upstreamUrl: url, v1Sunset: '2028-02-29' }) },
  {
    name: 'a calendar without the head version',
    doc: (url) => withVersions(url, versions.slice(0, -1)),
    refused: new RegExp(`version ${HEAD} of the API contract has no release date`),
  },
  {
    name: 'a calendar adding a version the contract lacks',
    doc: (url) => withVersions(url, [...versions, { version: HEAD + 1, released: '2030-01-01' }]),
    refused: new RegExp(`version ${HEAD + 1} is not in the API contract`),
  },
  {
    name: 'sunset 2027-02-30',
    doc: (url) => configDoc({ upstreamUrl: url, v1Sunset: '2027-02-30' }),
    refused: /lifecycle\.versions\.0\.sunset: not a date: 2027-02-30 \(that day does not exist\)/,
  },
  {
    name: 'sunset 2027-04-31',
    doc: (url) => configDoc({ upstreamUrl: url, v1Sunset: '2027-04-31' }),
    refused: /lifecycle\.versions\.0\.sunset: not a date: 2027-04-31/,
  },
  {
    name: 'a brownout ending on 2027-02-29 (not a leap year)',
    doc: (url) => configDoc({ upstreamUrl: url, v1: { brownouts: [{ start: '2027-02-28T09:00:00Z', end: '2027-02-29T10:00:00Z' }] } }),
    refused: /lifecycle\.versions\.0\.brownouts\.0\.end: not a date/,
  },
  {
    name: 'a sunset before the deprecation',
    doc: (url) => configDoc({ upstreamUrl: url, v1Sunset: cal.sunsetBeforeDeprecation }),
    refused: /lifecycle\.versions: /,
  },
  {
    name: 'an unknown key',
    doc: (url) => ({ ...configDoc({ upstreamUrl: url }), metrics: { maxClient: 5 } }),
    refused: /metrics\.maxClient: unknown key/,
  },
  {
    name: 'an admin listener on 0.0.0.0 without a token',
    doc: (url) => ({ ...configDoc({ upstreamUrl: url }), admin: { host: '0.0.0.0', port: 0 } }),
    refused: /admin\.host: 0\.0\.0\.0 is beyond loopback/,
  },
  {
    name: 'an admin listener on 0.0.0.0 with ADMIN_TOKEN',
    doc: (url) => ({ ...configDoc({ upstreamUrl: url }), admin: { host: '0.0.0.0', port: 0 } }),
    env: { ADMIN_TOKEN: 'a-token' },
  },
  {
    name: 'UPSTREAM_URL=localhost:1',
    doc: (url) => configDoc({ upstreamUrl: url }),
    env: { UPSTREAM_URL: 'localhost:1' },
    refused: /^UPSTREAM_URL \(environment variable, overrides upstream\.url\): /,
  },
  {
    name: 'UPSTREAM_TIMEOUT_MS=soon',
    doc: (url) => configDoc({ upstreamUrl: url }),
    env: { UPSTREAM_TIMEOUT_MS: 'soon' },
    refused: /^UPSTREAM_TIMEOUT_MS \(environment variable, overrides upstream\.timeoutMs\): not an integer/,
  },
];

let backend: ReferenceBackend;
let backendUrl: string;
const dir = tempDir('dlgw-one-validation-');
/** A gateway serving a good config, whose file each row is reloaded into. */
let running: Serving;
const runningPath = join(dir, 'running.yaml');

beforeAll(async () => {
  backend = createReferenceBackend();
  backendUrl = await backend.listen(0, '127.0.0.1');
  writeFileSync(runningPath, yamlOf(configDoc({ upstreamUrl: backendUrl })));
  running = await serve({ configPath: runningPath, logger: memoryLog('silent').logger, env: {}, watch: false });
});
afterAll(async () => {
  await running?.stop();
  await backend?.close();
});

/** check-config's verdict: the problems it printed, or [] for valid. */
function checkConfigVerdict(path: string, env: Record<string, string>): { code: number; problems: string[] } {
  const err: string[] = [];
  const code = runCheckConfig({ out: () => {}, err: (l) => err.push(l) }, path, env);
  const problems = err.join('\n').split('\n').filter((l) => l.startsWith('  - ')).map((l) => l.slice(4));
  return { code, problems };
}

/** serve's verdict: the problems it refused to start with, or [] when it started (then stopped). */
async function serveVerdict(path: string, env: Record<string, string>): Promise<string[]> {
  try {
    const serving = await serve({ configPath: path, logger: memoryLog('silent').logger, env, watch: false });
    await serving.stop();
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return [...e.problems];
    throw e;
  }
}

describe('one validation for check-config, serve and reload', () => {
  it.each(ROWS)('$name: the three agree', async (row) => {
    const path = join(dir, `${row.name.replace(/\W+/g, '-')}.yaml`);
    const text = yamlOf(row.doc(backendUrl));
    writeFileSync(path, text);
    const env = row.env ?? {};

    const check = checkConfigVerdict(path, env);
    const started = await serveVerdict(path, env);
    expect(check.code).toBe(row.refused ? 1 : 0);
    expect(started).toEqual(check.problems);
    if (row.refused) {
      expect(check.problems.length).toBeGreaterThan(0);
      for (const p of check.problems) expect(p).toMatch(row.refused);
    }

    // The environment is the running process's: rows that depend on their own environment are checked above.
    if (!row.env) {
      replaceFile(runningPath, text);
      const reloaded = running.reload();
      expect(reloaded).toEqual(row.refused ? { ok: false, problems: check.problems } : { ok: true });
      replaceFile(runningPath, yamlOf(configDoc({ upstreamUrl: backendUrl })));
      expect(running.reload()).toEqual({ ok: true });
    }
  });
});
