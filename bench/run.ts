// `npm run bench`: throughput and latency of the gateway against the floor (a bare Node keep-alive proxy)
// and the backend itself, then the gateway's memory and connection behaviour. See bench/README.md.
//
// Every server runs in its own child process on 127.0.0.1 (ephemeral ports); the load generator
// (autocannon) runs here. Figures are medians over interleaved rounds.
//
// Flags: --quick (1 round of 2 s; a smoke run), --rounds N, --duration S, --warmup S, --connections N,
//        --paced-rounds N, --paced-duration S, --no-memory, --no-nginx, --gateway-log (pay for the
//        per-request log line, written to /dev/null), --profile ROW (profile the gateway under one row for
//        10 s with --cpu-prof and print the top functions; no table), --strict (exit 1 on a MISS too).

import { copyFileSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Child, killAllChildren, startNodeChild } from './control.js';
import type { GatewayChildOptions } from './gateway-process.js';
import { type PacedResult, type RunResult, type Target, blast, median, once, paced } from './load.js';
import { MIB, abortedRequests, bigUpdateBody, postStream } from './memory.js';
import { type RunningNginx, findNginx, startNginx } from './nginx.js';
import { summariseProfile } from './profile-summary.js';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    'paced-rounds': { type: 'string' },
    'paced-duration': { type: 'string' },
    'no-memory': { type: 'boolean', default: false },
    'no-nginx': { type: 'boolean', default: false },
    'gateway-log': { type: 'boolean', default: false },
    profile: { type: 'string' },
    strict: { type: 'boolean', default: false },
  },
  strict: true,
});

const num = (value: string | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`not a positive number: ${value}`);
  return n;
};
const quick = flags.quick === true;
const ROUNDS = num(flags.rounds, quick ? 1 : 3);
const DURATION_S = num(flags.duration, quick ? 2 : 5);
const WARMUP_S = num(flags.warmup, quick ? 1 : 2);
const CONNECTIONS = num(flags.connections, 32);
const PACED_ROUNDS = num(flags['paced-rounds'], quick ? 1 : 2);
const PACED_DURATION_S = num(flags['paced-duration'], quick ? 2 : 4);

// Targets (the task's acceptance figures).
const PASS_THROUGH_MIN = 0.8;
const TRANSLATION_MIN = 0.7;
const ADDED_P99_MAX_MS = 2;
const PEAK_RSS_MAX = 150 * MIB;

// The gateway child's limits: bodies up to 2 MiB (the 1 MiB stream), checked answers capped at 64 KiB.
const GATEWAY_LIMITS = { bodyBytes: 2 * MIB, responseBytes: 64 * 1024 };

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const V1_GET_KEY = 'reports/marketing/bench-get';
const V1_CREATE_KEY = 'reports/marketing/bench';

const mb = (bytes: number) => `${(bytes / MIB).toFixed(0)} MB`;
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a');
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const log = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`  · ${line}\n`);
const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

interface GatewayStats {
  rss: number;
  peakRss: number;
  maxRss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  inFlight: number;
  sockets: number;
  freeSockets: number;
}
interface BackendStats {
  accepted: number;
  open: number;
  rss: number;
}

const children: Child[] = [];
let nginx: RunningNginx | undefined;
let problems = 0; // failed checks and runs with errors: exit code 1
let misses = 0;
const problem = (what: string) => {
  problems++;
  log(`  !! ${what}`);
};

async function stopAll(): Promise<void> {
  await Promise.allSettled([...children.map((c) => c.stop()), nginx?.stop()]);
}

process.on('exit', () => killAllChildren());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping the benchmark's processes\n`);
    void stopAll().finally(() => process.exit(130));
  });
}

async function rpcJson(url: string, headers: Record<string, string>, body: unknown) {
  const res = await once({ url, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
  let json: any;
  try {
    json = JSON.parse(res.text);
  } catch {
    json = undefined;
  }
  return { ...res, json };
}

/** Creates a report directly on the backend, saved as a client of `clientVersion` (undefined: the web UI). */
async function createBackendReport(backendUrl: string, clientVersion: number | undefined, body: Record<string, unknown>): Promise<string> {
  const headers: Record<string, string> = { 'x-dl-api-version': '2' };
  if (clientVersion !== undefined) headers['x-dl-client-api-version'] = String(clientVersion);
  const res = await rpcJson(`${backendUrl}/rpc/createReport`, headers, body);
  if (res.status !== 200 || typeof res.json?.id !== 'string') throw new Error(`createReport on the backend: ${res.status} ${res.text.slice(0, 300)}`);
  return res.json.id as string;
}

function makeTargets(urls: { backend: string; bare: string; gateway: string; nginx?: string | undefined }, reportId: string): Target[] {
  const get = JSON.stringify({ reportId });
  const direct = { ...JSON_HEADERS, 'x-dl-api-version': '2' };
  const targets: Target[] = [
    { name: 'backend', description: 'backend directly: getReport, v2', url: `${urls.backend}/rpc/getReport`, headers: direct, body: get },
    { name: 'bare-proxy', description: 'bare Node proxy → backend', url: `${urls.bare}/rpc/getReport`, headers: direct, body: get },
  ];
  if (urls.nginx) {
    targets.push({ name: 'nginx', description: 'nginx → backend', url: `${urls.nginx}/rpc/getReport`, headers: direct, body: get });
  }
  targets.push(
    {
      name: 'gw-latest',
      description: 'gateway, latest: pass-through getReport',
      url: `${urls.gateway}/rpc/getReport`,
      headers: { ...JSON_HEADERS, 'x-dl-api-version': 'latest' },
      body: get,
    },
    {
      name: 'gw-v1-create',
      description: 'gateway, v1 createReport: request translated',
      url: `${urls.gateway}/rpc/createReport`,
      headers: { ...JSON_HEADERS, 'x-dl-api-version': '1' },
      body: JSON.stringify({ key: V1_CREATE_KEY, config: { a: 1 } }),
    },
    {
      name: 'gw-v1-get',
      description: 'gateway, v1 getReport: answer checked, migrated down',
      url: `${urls.gateway}/rpc/getReport`,
      headers: { ...JSON_HEADERS, 'x-dl-api-version': '1' },
      body: get,
    },
  );
  return targets;
}

/** One request per target before measuring: right status and the shape each row is meant to exercise. */
async function smokeCheck(targets: Target[], reportId: string): Promise<void> {
  for (const t of targets) {
    const res = await once(t);
    let json: any;
    try {
      json = JSON.parse(res.text);
    } catch {
      json = undefined;
    }
    const fail = (why: string) => {
      throw new Error(`smoke check of ${t.name} failed: ${why}; got ${res.status} ${res.text.slice(0, 300)}`);
    };
    if (res.status !== 200) fail('status is not 200');
    const deprecated = typeof res.headers.deprecation === 'string' && typeof res.headers.sunset === 'string';
    switch (t.name) {
      case 'gw-v1-create':
        if (json?.key !== V1_CREATE_KEY || 'workbookId' in json || typeof json.id !== 'string') fail('expected a v1 report with its key');
        if (!deprecated) fail('expected Deprecation and Sunset headers at v1');
        break;
      case 'gw-v1-get':
        if (json?.id !== reportId || json.key !== V1_GET_KEY || 'workbookId' in json) fail('expected the report migrated down to v1');
        if (!deprecated) fail('expected Deprecation and Sunset headers at v1');
        break;
      default:
        if (json?.id !== reportId || json.workbookId !== 'wb_demo_marketing' || json.version !== 1) fail('expected the v2 report');
        if (t.name === 'gw-latest' && res.headers['x-dl-api-version'] !== '2') fail('expected x-dl-api-version: 2');
    }
  }
}

function pad(cells: string[], widths: number[], right: boolean[]): string {
  return cells.map((c, i) => (right[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ');
}

function table(header: string[], rows: string[][], right: boolean[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  return [pad(header, widths, right), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map((r) => pad(r, widths, right))];
}

function statusSummary(results: RunResult[]): string {
  const total: Record<string, number> = {};
  for (const r of results) for (const [code, n] of Object.entries(r.statuses)) total[code] = (total[code] ?? 0) + n;
  return Object.entries(total)
    .map(([code, n]) => `${code}×${n}`)
    .join(' ');
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const profileRow = flags.profile;
  const profileDir = profileRow ? mkdtempSync(join(tmpdir(), 'dlgw-bench-prof-')) : undefined;

  // --- the processes
  const backend = await startNodeChild('backend', 'bench/backend-process.ts');
  children.push(backend);
  const backendUrl = backend.ready.url as string;
  const reportId = await createBackendReport(backendUrl, 1, {
    workbookId: 'wb_demo_marketing',
    config: { a: 1, rows: 10 },
    description: 'bench',
    legacyKey: V1_GET_KEY,
  });
  const bare = await startNodeChild('bare-proxy', 'bench/bare-proxy.ts', { args: [backendUrl] });
  children.push(bare);
  const gatewayOptions: GatewayChildOptions = { upstream: backendUrl, ...GATEWAY_LIMITS, log: flags['gateway-log'] ? 'info' : 'silent' };
  const gateway = await startNodeChild('gateway', 'bench/gateway-process.ts', {
    nodeArgs: ['--expose-gc', ...(profileDir ? ['--cpu-prof', '--cpu-prof-interval', '250', `--cpu-prof-dir=${profileDir}`] : [])],
    args: [JSON.stringify(gatewayOptions)],
  });
  children.push(gateway);
  const gatewayUrl = gateway.ready.url as string;
  const nginxBinary = flags['no-nginx'] || profileRow ? undefined : findNginx();
  if (nginxBinary) {
    try {
      nginx = await startNginx(nginxBinary, backendUrl);
    } catch (e) {
      log(`nginx row skipped: ${(e as Error).message}`);
    }
  }

  const targets = makeTargets({ backend: backendUrl, bare: bare.ready.url as string, gateway: gatewayUrl, nginx: nginx?.url }, reportId);
  await smokeCheck(targets, reportId);
  const byName = new Map(targets.map((t) => [t.name, t]));
  const target = (name: string) => byName.get(name) as Target;

  // --- profile mode: one row, 10 s, then the profile's top functions
  if (profileRow && profileDir) {
    const t = byName.get(profileRow);
    if (!t) throw new Error(`--profile: no row ${profileRow} (rows: ${[...byName.keys()].join(', ')})`);
    progress(`warm-up ${t.name}`);
    await blast(t, { connections: CONNECTIONS, durationS: WARMUP_S });
    progress(`profiling the gateway under ${t.name} for 10 s`);
    const r = await blast(t, { connections: CONNECTIONS, durationS: 10 });
    log(`${t.name}: ${r.rps.toFixed(0)} req/s, p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, errors ${r.errors} (the profiler slows the gateway down)`);
    await gateway.stop();
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no .cpuprofile written in ${profileDir}`);
    const kept = join(tmpdir(), `dlgw-gateway-${t.name}-${Date.now()}.cpuprofile`);
    rmSync(kept, { force: true });
    try {
      renameSync(join(profileDir, file), kept);
    } catch {
      copyFileSync(join(profileDir, file), kept);
    }
    rmSync(profileDir, { recursive: true, force: true });
    log('');
    log(summariseProfile(kept, 30));
    log(`\n(open ${kept} in Chrome DevTools → Performance, or speedscope, for the call tree)`);
    return;
  }

  log(`dl-version-gateway benchmark: ${CONNECTIONS} connections, pipelining 1, ${ROUNDS} interleaved round(s) of ${DURATION_S} s per target after a ${WARMUP_S} s warm-up`);
  log(`node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}); load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (!nginxBinary && !flags['no-nginx']) log('nginx row skipped: no nginx binary found');
  log('');

  // --- warm-up, then interleaved rounds
  for (const t of targets) {
    progress(`warm-up ${t.name}`);
    await blast(t, { connections: CONNECTIONS, durationS: WARMUP_S });
  }
  const results = new Map<string, RunResult[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const t of targets) {
      const r = await blast(t, { connections: CONNECTIONS, durationS: DURATION_S });
      results.get(t.name)?.push(r);
      progress(`round ${round}/${ROUNDS} ${t.name}: ${r.rps.toFixed(0)} req/s, p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, errors ${r.errors}`);
    }
  }
  const summary = new Map(
    targets.map((t) => {
      const rs = results.get(t.name) ?? [];
      return [
        t.name,
        {
          rps: median(rs.map((r) => r.rps)),
          p50: median(rs.map((r) => r.p50)),
          p99: median(rs.map((r) => r.p99)),
          errors: rs.reduce((n, r) => n + r.errors, 0),
          perRound: rs.map((r) => r.rps),
          statuses: statusSummary(rs),
        },
      ] as const;
    }),
  );
  const bareRps = summary.get('bare-proxy')?.rps ?? Number.NaN;

  // --- latency at half of the bare proxy's maximum rate (open loop)
  const pacedRate = Math.max(1, Math.round(bareRps / 2));
  const pacedNames = ['bare-proxy', 'gw-latest', 'gw-v1-create', 'gw-v1-get'];
  const pacedResults = new Map<string, PacedResult[]>(pacedNames.map((n) => [n, []]));
  for (let round = 1; round <= PACED_ROUNDS; round++) {
    for (const name of pacedNames) {
      const r = await paced(target(name), { rate: pacedRate, durationS: PACED_DURATION_S, connections: CONNECTIONS });
      pacedResults.get(name)?.push(r);
      progress(
        `paced ${round}/${PACED_ROUNDS} ${name} at ${pacedRate} req/s: got ${r.rps.toFixed(0)} req/s, p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, errors ${r.errors}, send lag p99 ${ms(r.sendLagP99)} ms`,
      );
    }
  }
  const pacedSummary = new Map(
    pacedNames.map((n) => {
      const rs = pacedResults.get(n) ?? [];
      return [
        n,
        {
          rps: median(rs.map((r) => r.rps)),
          p50: median(rs.map((r) => r.p50)),
          p99: median(rs.map((r) => r.p99)),
          errors: rs.reduce((s, r) => s + r.errors, 0),
          lag: median(rs.map((r) => r.sendLagP99)),
        },
      ] as const;
    }),
  );
  const gwAfterLoad = await gateway.call<GatewayStats>('stats');
  const gatewayPeak = Math.max(gwAfterLoad.peakRss, gwAfterLoad.maxRss);

  // --- the table
  log(`throughput (${CONNECTIONS} connections, medians of ${ROUNDS} round(s) of ${DURATION_S} s)`);
  const rows = targets.map((t) => {
    const s = summary.get(t.name)!;
    return [
      t.name,
      t.description,
      s.rps.toFixed(0),
      ms(s.p50),
      ms(s.p99),
      s.errors === 0 ? '0' : `${s.errors} (${s.statuses})`,
      (s.rps / bareRps).toFixed(2),
      s.perRound.map((v) => v.toFixed(0)).join(' / '),
    ];
  });
  for (const line of table(['target', 'what', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'vs bare', 'req/s per round'], rows, [false, false, true, true, true, true, true, false])) {
    log(line);
  }
  log('');
  log(`latency at half of the bare proxy's maximum rate: ${pacedRate} req/s, open loop, up to ${CONNECTIONS} connections, medians of ${PACED_ROUNDS} round(s) of ${PACED_DURATION_S} s`);
  const bareP99 = pacedSummary.get('bare-proxy')?.p99 ?? Number.NaN;
  const pacedRows = pacedNames.map((n) => {
    const s = pacedSummary.get(n)!;
    return [n, s.rps.toFixed(0), ms(s.p50), ms(s.p99), n === 'bare-proxy' ? '' : `${s.p99 - bareP99 >= 0 ? '+' : ''}${ms(s.p99 - bareP99)}`, String(s.errors), ms(s.lag)];
  });
  for (const line of table(['target', 'req/s', 'p50 ms', 'p99 ms', 'p99 vs bare', 'errors', 'send lag p99 ms'], pacedRows, [false, true, true, true, true, true, true])) {
    log(line);
  }
  log('');

  // --- headlines
  const ratio = (name: string) => (summary.get(name)?.rps ?? Number.NaN) / bareRps;
  const headline = (label: string, value: string, target: string, ok: boolean) => {
    if (!ok) misses++;
    log(`${label.padEnd(46)} ${value.padStart(10)}   target ${target.padEnd(9)} ${verdict(ok)}`);
  };
  headline('pass-through ratio (gw-latest / bare-proxy)', ratio('gw-latest').toFixed(2), `≥ ${PASS_THROUGH_MIN}`, ratio('gw-latest') >= PASS_THROUGH_MIN);
  headline('translation ratio (gw-v1-create / bare-proxy)', ratio('gw-v1-create').toFixed(2), `≥ ${TRANSLATION_MIN}`, ratio('gw-v1-create') >= TRANSLATION_MIN);
  headline('response-check ratio (gw-v1-get / bare-proxy)', ratio('gw-v1-get').toFixed(2), `≥ ${TRANSLATION_MIN}`, ratio('gw-v1-get') >= TRANSLATION_MIN);
  for (const n of pacedNames.slice(1)) {
    const added = (pacedSummary.get(n)?.p99 ?? Number.NaN) - bareP99;
    headline(`added p99 at ${pacedRate} req/s, ${n}`, `${ms(added)} ms`, `≤ ${ADDED_P99_MAX_MS} ms`, added <= ADDED_P99_MAX_MS);
  }
  headline('gateway peak RSS (throughput + latency runs)', mb(gatewayPeak), `≤ ${mb(PEAK_RSS_MAX)}`, gatewayPeak <= PEAK_RSS_MAX);
  const runErrors = [...summary.values()].reduce((n, s) => n + s.errors, 0) + [...pacedSummary.values()].reduce((n, s) => n + s.errors, 0);
  if (runErrors > 0) problem(`${runErrors} errors or non-2xx answers during the runs (see the errors columns)`);
  else log(`${'errors and non-2xx answers in all runs'.padEnd(46)} ${'0'.padStart(10)}   target 0         PASS`);

  // --- memory, response cap, connection reuse
  if (!flags['no-memory']) {
    log('');
    log(`gateway memory and upstream connections (limits.bodyBytes ${GATEWAY_LIMITS.bodyBytes}, limits.responseBytes ${GATEWAY_LIMITS.responseBytes})`);
    await memorySection(backend, gateway, backendUrl, gatewayUrl, reportId);
  }

  log('');
  log(`total ${((performance.now() - startedAt) / 1000).toFixed(0)} s; figures are medians of interleaved rounds, on a machine whose other load is not controlled`);
}

async function memorySection(backend: Child, gateway: Child, backendUrl: string, gatewayUrl: string, reportId: string): Promise<void> {
  const rssLine = (before: GatewayStats, peak: number, after: GatewayStats, afterGc: GatewayStats) =>
    `RSS before ${mb(before.rss)}, peak ${mb(peak)}, after ${mb(after.rss)}, after GC ${mb(afterGc.rss)} (heap ${mb(before.heapUsed)} → ${mb(afterGc.heapUsed)})`;
  const v2 = { ...JSON_HEADERS, 'x-dl-api-version': '2' };

  // 1. A stream of 1 MiB bodies, pass-through (read in full, validated, forwarded; the 1 MiB answer streams back).
  const bigId = await createBackendReport(backendUrl, undefined, { workbookId: 'wb_demo_sandbox', config: {} });
  const body = bigUpdateBody(bigId, MIB);
  const before = await gateway.call<GatewayStats>('gc');
  await gateway.call('resetPeak');
  const stream = await postStream(`${gatewayUrl}/rpc/updateReport`, v2, body, 200, 8);
  const afterStream = await gateway.call<GatewayStats>('stats');
  const afterStreamGc = await gateway.call<GatewayStats>('gc');
  const streamOk = stream.failures === 0 && stream.statuses['200'] === 200;
  const streamGrowth = afterStreamGc.rss - before.rss;
  const streamBounded = streamGrowth <= 32 * MIB && afterStream.peakRss - before.rss <= 128 * MIB;
  log(
    `  200 × 1 MiB updateReport at v2, 8 at a time: ${Object.entries(stream.statuses).map(([c, n]) => `${c}×${n}`).join(' ')}` +
      `${stream.failures ? `, ${stream.failures} failed` : ''} in ${stream.seconds.toFixed(1)} s (${mb(stream.bytesIn)} read back)`,
  );
  log(`    ${rssLine(before, afterStream.peakRss, afterStream, afterStreamGc)}`);
  log(`    bounded (peak ≤ before + 128 MB, after GC ≤ before + 32 MB): ${verdict(streamBounded)}`);
  if (!streamOk) problem('the 1 MiB stream did not get 200 for every request');
  if (!streamBounded) misses++;

  // 2. Requests abandoned mid-body.
  await gateway.call('resetPeak');
  const before2 = afterStreamGc;
  const aborted = await abortedRequests(`${gatewayUrl}/rpc/updateReport`, v2, MIB, MIB / 2, 500, 25);
  await sleep(300);
  const afterAbort = await gateway.call<GatewayStats>('stats');
  const afterAbortGc = await gateway.call<GatewayStats>('gc');
  const stillServes = await once(target2(gatewayUrl, reportId));
  const abortBounded = afterAbortGc.rss - before2.rss <= 32 * MIB && afterAbort.inFlight === 0;
  log(`  500 requests sending headers + 512 KiB of a 1 MiB body, then destroying the socket, 25 at a time: ${aborted.seconds.toFixed(1)} s, ${aborted.answered} answered early`);
  log(`    ${rssLine(before2, afterAbort.peakRss, afterAbort, afterAbortGc)}; requests in flight afterwards ${afterAbort.inFlight}; next request → ${stillServes.status}`);
  log(`    bounded (after GC ≤ before + 32 MB, nothing left in flight): ${verdict(abortBounded)}`);
  if (stillServes.status !== 200) problem(`the gateway answered ${stillServes.status} after the aborted requests`);
  if (!abortBounded) misses++;

  // 3. A checked (v1) answer larger than limits.responseBytes → 502; the same report at latest streams.
  const bigReportId = await createBackendReport(backendUrl, 1, {
    workbookId: 'wb_demo_marketing',
    config: { blob: 'y'.repeat(200 * 1024) },
    legacyKey: 'reports/marketing/bench-big',
  });
  const capped = await rpcJson(`${gatewayUrl}/rpc/getReport`, { 'x-dl-api-version': '1' }, { reportId: bigReportId });
  const streamed = await rpcJson(`${gatewayUrl}/rpc/getReport`, { 'x-dl-api-version': 'latest' }, { reportId: bigReportId });
  const capOk = capped.status === 502 && capped.json?.code === 'UPSTREAM_UNAVAILABLE';
  log(
    `  v1 getReport of a report whose backend answer is ${(Buffer.byteLength(streamed.text) / 1024).toFixed(0)} KiB (> ${GATEWAY_LIMITS.responseBytes / 1024} KiB): ` +
      `${capped.status} ${capped.json?.code ?? ''} (${JSON.stringify(capped.json?.details ?? capped.text.slice(0, 120))}) ${verdict(capOk)}`,
  );
  log(`    the same report at latest (streamed, not buffered): ${streamed.status}, ${(Buffer.byteLength(streamed.text) / 1024).toFixed(0)} KiB`);
  if (!capOk) problem('the oversized checked answer was not refused with 502');

  // 4. Upstream connection reuse: empty every pool to the backend, then 5 s of gw-latest.
  await backend.call('dropIdle');
  await sleep(300);
  const gwBefore = await gateway.call<GatewayStats>('stats');
  const b0 = await backend.call<BackendStats>('stats');
  const connTarget = {
    name: 'gw-latest',
    description: '',
    url: `${gatewayUrl}/rpc/getReport`,
    headers: { ...JSON_HEADERS, 'x-dl-api-version': 'latest' },
    body: JSON.stringify({ reportId }),
  };
  const run = await blast(connTarget, { connections: CONNECTIONS, durationS: 5 });
  const b1 = await backend.call<BackendStats>('stats');
  const gwAfter = await gateway.call<GatewayStats>('stats');
  const opened = b1.accepted - b0.accepted;
  const reuseOk = opened <= CONNECTIONS + 8 && run.errors === 0;
  log(
    `  upstream connections: 5 s of gw-latest with ${CONNECTIONS} client connections, ${run.responses} requests (${run.rps.toFixed(0)} req/s, errors ${run.errors}) → ` +
      `the backend accepted ${opened} new TCP connection(s) (gateway pool before ${gwBefore.sockets + gwBefore.freeSockets}, after ${gwAfter.sockets} busy + ${gwAfter.freeSockets} idle) ${verdict(reuseOk)}`,
  );
  if (!reuseOk) misses++;
}

/** A small v2 getReport through the gateway. */
function target2(gatewayUrl: string, reportId: string) {
  return { url: `${gatewayUrl}/rpc/getReport`, headers: { ...JSON_HEADERS, 'x-dl-api-version': '2' }, body: JSON.stringify({ reportId }) };
}

try {
  await main();
} catch (e) {
  problems++;
  process.stderr.write(`\nbenchmark failed: ${(e as Error).stack ?? String(e)}\n`);
} finally {
  await stopAll();
}
process.exitCode = problems > 0 || (flags.strict && misses > 0) ? 1 : 0;
