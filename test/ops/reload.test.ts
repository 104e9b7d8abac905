// Reloading the config while the gateway runs: by serving.reload(), POST /reload, a file change (temp file
// renamed over the config) and SIGHUP; bad files are refused, logged with their key and counted, and the
// old config keeps serving; a reload under load fails no request.

import { mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../src/cli/serve.js';
import { DEMO_ENTRIES, DEMO_WORKBOOKS, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { startFaultUpstream } from '../helpers/fault-upstream.js';
import { HEAD } from '../helpers/calendar.js';
import { rpc } from '../helpers/stack.js';
import {
  configDoc,
  liveCalendar,
  memoryLog,
  type MemoryLog,
  replaceFile,
  sampleValue,
  scrape,
  startServeProcess,
  tempDir,
  waitFor,
  yamlOf,
} from '../helpers/serve-process.js';
import { until } from '../helpers/until.js';

const cal = liveCalendar();

interface VersionsBody {
  latest: number | null;
  versions: { version: number; status: string; sunsetAt: string | null; deprecatedAt: string | null }[];
}

async function versionsOf(url: string): Promise<VersionsBody> {
  const res = await fetch(`${url}/versions`);
  expect(res.status).toBe(200);
  return (await res.json()) as VersionsBody;
}
const v1SunsetOf = async (url: string) => (await versionsOf(url)).versions.find((v) => v.version === 1)?.sunsetAt;
const v1Status = async (url: string) => (await rpc(url, 'getEntries', { pageSize: 1 }, '1')).status;
const reloads = async (adminUrl: string, result: 'success' | 'failure') =>
  sampleValue(await scrape(adminUrl), 'dlgw_config_reloads_total', { result }) ?? NaN;

let backend: ReferenceBackend;
let backendUrl: string;

beforeAll(async () => {
  backend = createReferenceBackend({ seed: { workbooks: [...DEMO_WORKBOOKS], entries: [...DEMO_ENTRIES] } });
  backendUrl = await backend.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await backend.close();
});

/** Starts the gateway in-process on a fresh config folder. */
async function startInProcess(options: { watch: boolean; doc?: Record<string, unknown> }) {
  const dir = tempDir('dlgw-reload-');
  const configPath = join(dir, 'gateway.yaml');
  writeFileSync(configPath, yamlOf(options.doc ?? configDoc({ upstreamUrl: backendUrl })));
  const log = memoryLog('info');
  const serving = await serve({ configPath, logger: log.logger, env: {}, watch: options.watch });
  return { dir, configPath, log, serving };
}

describe('a reload by serving.reload() and POST /reload', () => {
  let serving: Serving;
  let configPath: string;
  let log: MemoryLog;
  beforeAll(async () => {
    ({ serving, configPath, log } = await startInProcess({ watch: false }));
  });
  afterAll(() => serving?.stop());

  it('serves v1 (deprecated) under the initial config', async () => {
    expect(await v1Status(serving.url)).toBe(200);
    expect(await v1SunsetOf(serving.url)).toBe(cal.v1DefaultSunset);
  });

  it('applies an explicit past sunset for v1: v1 answers 410 and GET /versions shows the new date', async () => {
    writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset: cal.pastSunset })));
    const before = await reloads(serving.adminUrl!, 'success');
    expect(serving.reload()).toEqual({ ok: true });
    const res = await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1');
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('API_VERSION_SUNSET');
    const body = await versionsOf(serving.url);
    expect(body.versions[0]).toMatchObject({ version: 1, status: 'sunset', sunsetAt: cal.pastSunset });
    expect(await reloads(serving.adminUrl!, 'success')).toBe(before + 1);
    expect(log.entries().some((e) => e.msg === 'config reloaded')).toBe(true);
    // v2 is untouched.
    expect((await rpc(serving.url, 'getEntries', { pageSize: 1 }, '2')).status).toBe(200);
  });

  it('answers POST /reload on the admin listener with 422 and the problems for a bad file, and 200 for a good one', async () => {
    writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl, extra: { upstream: { url: backendUrl, timeoutMs: -1 } } })));
    const bad = await fetch(`${serving.adminUrl}/reload`, { method: 'POST' });
    expect(bad.status).toBe(422);
    const badBody = (await bad.json()) as { ok: boolean; problems: string[] };
    expect(badBody.ok).toBe(false);
    expect(badBody.problems.join('\n')).toMatch(/upstream\.timeoutMs/);
    // The past sunset from the previous test still rules.
    expect(await v1Status(serving.url)).toBe(410);

    writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset: cal.laterSunset })));
    const good = await fetch(`${serving.adminUrl}/reload`, { method: 'POST' });
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ ok: true });
    expect(await v1Status(serving.url)).toBe(200);
    expect(await v1SunsetOf(serving.url)).toBe(cal.laterSunset);
  });

  it('keeps the running listeners and logs a warning naming listen.* and admin.* when they changed', async () => {
    const logged = log.entries().length;
    writeFileSync(
      configPath,
      yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset: cal.laterSunset, extra: { admin: { host: '127.0.0.1', port: 1 } } })),
    );
    // Reloaded twice: the second reload still warns, as the listener still runs on the old address.
    for (let i = 0; i < 2; i++) expect(serving.reload()).toEqual({ ok: true });
    const adminWarnings = log
      .entries()
      .slice(logged)
      .filter((e) => e.level === 40 && /admin/.test(e.msg));
    expect(adminWarnings).toHaveLength(2);
    expect(adminWarnings[0]!.msg).toMatch(/restart/);
    // Both listeners still answer where they were.
    expect((await fetch(`${serving.adminUrl}/metrics`)).status).toBe(200);
    expect(await v1Status(serving.url)).toBe(200);

    const before = log.entries().length;
    writeFileSync(
      configPath,
      yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset: cal.laterSunset, extra: { listen: { host: '127.0.0.1', port: 1 } } })),
    );
    expect(serving.reload()).toEqual({ ok: true });
    const listenWarning = log
      .entries()
      .slice(before)
      .find((e) => e.level === 40 && /listen/.test(e.msg));
    expect(listenWarning?.msg).toMatch(/restart/);
    expect(await v1Status(serving.url)).toBe(200);
  });

  it('is not served on the public listener', async () => {
    const res = await fetch(`${serving.url}/reload`, { method: 'POST' });
    expect(res.status).toBe(404);
  });
});

describe('a reload on a file change (a temp file renamed over the config)', () => {
  let serving: Serving;
  let configPath: string;
  let log: MemoryLog;
  beforeAll(async () => {
    ({ serving, configPath, log } = await startInProcess({ watch: true }));
  });
  afterAll(() => serving?.stop());

  it('applies an explicit past sunset for v1: v1 answers 410 and GET /versions shows the new date', async () => {
    expect(await v1Status(serving.url)).toBe(200);
    const before = await reloads(serving.adminUrl!, 'success');
    const logged = log.entries().length;
    replaceFile(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset: cal.pastSunset })));
    await log.waitFor((e) => e.msg === 'config reloaded', 'the reload after the file change', { from: logged });
    expect(await v1Status(serving.url)).toBe(410);
    expect(await v1SunsetOf(serving.url)).toBe(cal.pastSunset);
    expect(await reloads(serving.adminUrl!, 'success')).toBe(before + 1);
  });

  it('rolls back when the previous file is restored', async () => {
    const successes = await reloads(serving.adminUrl!, 'success');
    const logged = log.entries().length;
    replaceFile(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl })));
    await log.waitFor((e) => e.msg === 'config reloaded', 'the reload after the file is restored', { from: logged });
    expect(await v1Status(serving.url)).toBe(200);
    expect(await v1SunsetOf(serving.url)).toBe(cal.v1DefaultSunset);
    expect(await reloads(serving.adminUrl!, 'success')).toBe(successes + 1);
  });
});

describe('a reload of an invalid config file', () => {
  let serving: Serving;
  let configPath: string;
  let log: MemoryLog;
  beforeAll(async () => {
    ({ serving, configPath, log } = await startInProcess({ watch: true }));
  });
  afterAll(() => serving?.stop());

  const docWith = (o: Partial<Parameters<typeof configDoc>[0]>) => yamlOf(configDoc({ upstreamUrl: backendUrl, ...o }));
  const cases: [string, () => void, RegExp][] = [
    ['bad YAML', () => replaceFile(configPath, 'lifecycle: [unclosed\n  versions: {\n'), /not valid YAML/],
    [
      'a schema error (upstream.timeoutMs: -1)',
      () => replaceFile(configPath, docWith({ extra: { upstream: { url: backendUrl, timeoutMs: -1 } } })),
      /upstream\.timeoutMs: /,
    ],
    [
      'an unknown key (upstream.timeoutMS)',
      () => replaceFile(configPath, docWith({ extra: { upstream: { url: backendUrl, timeoutMS: 5000 } } })),
      /upstream\.timeoutMS: unknown key/,
    ],
    [
      'a sunset before the deprecation',
      () => replaceFile(configPath, docWith({ v1Sunset: cal.sunsetBeforeDeprecation })),
      /lifecycle\.versions: version 1: sunset .* is before its deprecation/,
    ],
    ['a deleted file', () => unlinkSync(configPath), /cannot read the file/],
  ];

  it.each(cases)('refuses %s: logs the reason with its key, counts a failure, and keeps serving the old config', async (_label, write, problem) => {
    expect(await v1Status(serving.url)).toBe(200);
    const failures = await reloads(serving.adminUrl!, 'failure');
    const successes = await reloads(serving.adminUrl!, 'success');
    const logged = log.entries().length;
    write();
    await log.waitFor((e) => /config reload refused/.test(e.msg), 'the refusal line', { from: logged });
    expect(await reloads(serving.adminUrl!, 'failure')).toBe(failures + 1);
    expect(await reloads(serving.adminUrl!, 'success')).toBe(successes);
    const refusals = log
      .entries()
      .slice(logged)
      .filter((e) => e.level === 50 && /config reload refused, the previous config stays/.test(e.msg));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.msg).toMatch(problem);
    expect(refusals[0]!.problems.join('\n')).toMatch(problem);
    // The old config is still in force.
    expect(await v1Status(serving.url)).toBe(200);
    expect(await v1SunsetOf(serving.url)).toBe(cal.v1DefaultSunset);
  });
});

describe('rapid successive writes', () => {
  let serving: Serving;
  let configPath: string;
  beforeAll(async () => {
    ({ serving, configPath } = await startInProcess({ watch: true }));
  });
  afterAll(() => serving?.stop());

  it('apply the final content of a burst of 10 writes, without a crash', async () => {
    expect(await v1Status(serving.url)).toBe(200);
    const attemptsBefore = (await reloads(serving.adminUrl!, 'success')) + (await reloads(serving.adminUrl!, 'failure'));
    for (let i = 0; i < 9; i++) {
      const text =
        i % 3 === 0
          ? 'lifecycle: [broken\n'
          : yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset: new Date(Date.parse(cal.laterSunset) + i * 86_400_000).toISOString() }));
      // Half in place (as `echo >`), half by rename (as editors).
      if (i % 2 === 0) writeFileSync(configPath, text);
      else replaceFile(configPath, text);
    }
    replaceFile(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset: cal.pastSunset })));
    await waitFor(async () => (await v1SunsetOf(serving.url)) === cal.pastSunset, 'the final content to be in force');
    expect(await v1Status(serving.url)).toBe(410);
    expect((await rpc(serving.url, 'getEntries', { pageSize: 1 }, '2')).status).toBe(200);
    const attempts = (await reloads(serving.adminUrl!, 'success')) + (await reloads(serving.adminUrl!, 'failure'));
    expect(attempts - attemptsBefore).toBeGreaterThanOrEqual(1);
    expect(attempts - attemptsBefore).toBeLessThanOrEqual(10);
  });
});

describe('a reload on SIGHUP (child process)', () => {
  // The config path is a symlink into another folder: the gateway watches the config's own folder, so
  // a change to the target is seen only through SIGHUP.
  it('applies a valid file and refuses a bad one, keeping the old config', async () => {
    const dir = tempDir('dlgw-sighup-');
    const realDir = join(dir, 'real');
    const linkDir = join(dir, 'link');
    mkdirSync(realDir);
    mkdirSync(linkDir);
    const target = join(realDir, 'gateway.yaml');
    const configPath = join(linkDir, 'gateway.yaml');
    writeFileSync(target, yamlOf(configDoc({ upstreamUrl: backendUrl })));
    symlinkSync(target, configPath);
    const gw = await startServeProcess(configPath);
    try {
      expect(await v1Status(gw.url)).toBe(200);

      replaceFile(target, 'lifecycle:\n  versions: [ {version: 1, released: 2025-01-15, bogus: 1} ]\n');
      gw.child.kill('SIGHUP');
      const refusal = await gw.waitForLog((e) => /config reload refused/.test(String(e.msg)), 'the refusal line');
      expect(await reloads(gw.adminUrl, 'failure')).toBe(1);
      expect(refusal.msg).toMatch(/lifecycle\.versions\.0\.bogus: unknown key/);
      expect(await v1Status(gw.url)).toBe(200);

      replaceFile(target, yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset: cal.pastSunset })));
      gw.child.kill('SIGHUP');
      await gw.waitForLog((e) => e.msg === 'config reloaded', 'the reload after the second SIGHUP');
      expect(await v1Status(gw.url)).toBe(410);
      expect(await v1SunsetOf(gw.url)).toBe(cal.pastSunset);
      expect(await reloads(gw.adminUrl, 'success')).toBe(1);
      const hups = gw.logs().filter((e) => e.msg === 'reloading the config' && e.signal === 'SIGHUP');
      expect(hups).toHaveLength(2);
      expect(gw.child.exitCode).toBeNull();
    } finally {
      await gw.kill();
    }
  }, 60_000);
});

describe('a valid reload under load', () => {
  let serving: Serving;
  let configPath: string;
  beforeAll(async () => {
    ({ serving, configPath } = await startInProcess({ watch: false }));
  });
  afterAll(() => serving?.stop());

  it('fails no request: 200 requests at concurrency 8 while the config is reloaded 5 times', async () => {
    const TOTAL = 200;
    const RELOAD_EVERY = 35; // after 35, 70, 105, 140, 175 answers
    const sunsets = [cal.laterSunset, cal.v1DefaultSunset];
    let started = 0;
    let finished = 0;
    const statuses: number[] = [];
    const reloadResults: boolean[] = [];
    let lastSunset = cal.v1DefaultSunset;
    const worker = async () => {
      for (let guard = 0; guard < TOTAL && started < TOTAL; guard++) {
        const n = started++;
        const version = n % 2 === 0 ? '1' : '2';
        const res = await rpc(serving.url, 'getEntries', { pageSize: 1 }, version).catch(() => ({ status: 0 }));
        statuses.push(res.status);
        finished++;
        if (finished % RELOAD_EVERY === 0) {
          lastSunset = sunsets[reloadResults.length % 2] as string;
          writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset: lastSunset })));
          reloadResults.push(serving.reload().ok);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(statuses).toHaveLength(TOTAL);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(reloadResults).toEqual([true, true, true, true, true]);
    expect(await reloads(serving.adminUrl!, 'success')).toBe(5);
    // The last reload is the one in force.
    const res = await rpc(serving.url, 'getEntries', { pageSize: 1 }, '1');
    expect(Date.parse(res.headers.get('sunset')!)).toBe(Date.parse(lastSunset));
    expect(lastSunset).toBe(cal.laterSunset);
  }, 60_000);
});

describe('a reload while /readyz is checking the backend', () => {
  // Fixed in src/edge/server/public-server.ts: discovery requests were not counted in flight, so a reload retired the
  // generation at once and destroyed its agent under /readyz's ping (503 "not ready" during a reload).
  it('keeps /readyz ready when the config is reloaded during its backend check', async () => {
    const upstream = await startFaultUpstream('slow', { delayMs: 1_000 });
    const dir = tempDir('dlgw-readyz-');
    const configPath = join(dir, 'gateway.yaml');
    writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: upstream.url })));
    const serving = await serve({ configPath, logger: memoryLog('info').logger, env: {}, watch: false });
    try {
      // serve's own check at start has pinged already: wait for /readyz's ping, the next one.
      const pingsBefore = upstream.requests.filter((r) => r.path === '/ping').length;
      const ready = fetch(`${serving.url}/readyz`);
      await until(upstream.events, 'request', () => upstream.requests.filter((r) => r.path === '/ping').length > pingsBefore, 'the ping to reach the backend');
      expect(serving.reload()).toEqual({ ok: true });
      const res = await ready;
      expect(await res.json()).toEqual({ status: 'ready', backendVersion: HEAD });
      expect(res.status).toBe(200);
    } finally {
      await serving.stop();
      await upstream.close();
    }
  });
});
