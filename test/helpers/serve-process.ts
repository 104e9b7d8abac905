// Helpers for the operations tests: config files in a temp folder, the gateway in-process (`serve`) or as a
// child process (`node --import tsx src/cli/main.ts serve`), an in-memory pino logger, Prometheus text
// parsing, and bounded polling.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino, type Logger } from 'pino';
import { stringify } from 'yaml';
import { ENV_OVERRIDES } from '../../src/config/load.js';
import { contractCalendar, sunsetOf } from './calendar.js';
import { until } from './until.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Today's midnight (UTC) when this module loaded: every date of the live calendar derives from it. */
const TODAY = Math.floor(Date.now() / DAY_MS) * DAY_MS;

/**
 * A calendar relative to the real clock (the gateway under `serve` reads `new Date()`), built from the
 * contract's versions: v1 released 400 days ago, the head (v2) released 30 days ago, a 365-day window, so
 * v1 is deprecated and served for another 335 days. All instants are midnights, so they survive the
 * second-precision Sunset header.
 */
export function liveCalendar() {
  const now = TODAY;
  const calendar = contractCalendar({ first: iso(now - 400 * DAY_MS), head: iso(now - 30 * DAY_MS), supportWindowDays: 365 });
  return {
    calendar,
    /** v1's sunset under the window: v2's release + 365 days. */
    v1DefaultSunset: sunsetOf(calendar, 1).toISOString(),
    /** A sunset already past but after v1's deprecation: v1 answers 410 with it. */
    pastSunset: iso(now - 10 * DAY_MS),
    /** A sunset before v1's deprecation: refused. */
    sunsetBeforeDeprecation: iso(now - 60 * DAY_MS),
    /** A future sunset other than the default. */
    laterSunset: iso(now + 100 * DAY_MS),
  };
}

export interface ConfigOptions {
  upstreamUrl: string;
  /** v1's explicit sunset (omit for the window's). */
  v1Sunset?: string;
  /** Merged over the document at the top level. */
  extra?: Record<string, unknown>;
  /** Replaces the default lifecycle.versions[0] keys (v1) with these merged in. */
  v1?: Record<string, unknown>;
}

/** A complete config document: both listeners on 127.0.0.1:0, the live calendar, the given upstream. */
export function configDoc(options: ConfigOptions): Record<string, unknown> {
  const { calendar } = liveCalendar();
  const [v1, ...later] = calendar.versions;
  return {
    listen: { host: '127.0.0.1', port: 0 },
    admin: { host: '127.0.0.1', port: 0 },
    upstream: { url: options.upstreamUrl },
    lifecycle: {
      supportWindowDays: calendar.supportWindowDays,
      versions: [{ ...v1, ...(options.v1Sunset && { sunset: options.v1Sunset }), ...options.v1 }, ...later],
    },
    legacyKeys: { prefixes: { 'legacy/finance/': 'wb_demo_sandbox' } },
    ...options.extra,
  };
}

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

let tmpCounter = 0;
/** Writes `text` the way editors and ConfigMaps do: a temp file in the same folder, renamed over the target. */
export function replaceFile(path: string, text: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++tmpCounter}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export const yamlOf = (doc: unknown) => stringify(doc);

// ── Logging ────────────────────────────────────────────────────────────────

export interface MemoryLog {
  readonly logger: Logger;
  /** Everything written so far, raw. */
  text(): string;
  /** Every line parsed as JSON. */
  entries(): Record<string, any>[];
  /** The first entry, from the `from`-th on, that satisfies `match`: now, or as soon as it is written. */
  waitFor(match: (entry: Record<string, any>) => boolean, what: string, options?: { from?: number; timeoutMs?: number }): Promise<Record<string, any>>;
}

/** A pino logger writing to memory. */
export function memoryLog(level = 'info'): MemoryLog {
  const chunks: string[] = [];
  const written = new EventEmitter();
  const logger = pino({ level }, {
    write: (s: string) => {
      chunks.push(s);
      written.emit('line');
    },
  });
  const entries = () => parseJsonLines(chunks.join(''));
  return {
    logger,
    text: () => chunks.join(''),
    entries,
    async waitFor(match, what, { from = 0, timeoutMs = 10_000 } = {}) {
      let found: Record<string, any> | undefined;
      await until(written, 'line', () => (found = entries().slice(from).find(match)) !== undefined, what, timeoutMs);
      return found as Record<string, any>;
    },
  };
}

export function parseJsonLines(text: string): Record<string, any>[] {
  const out: Record<string, any>[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as Record<string, any>);
    } catch {
      /* not a log line */
    }
  }
  return out;
}

// ── Polling ────────────────────────────────────────────────────────────────

/** Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  { timeoutMs = 10_000, intervalMs = 50 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

// ── Prometheus text ────────────────────────────────────────────────────────

export interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] as string] = l[2] as string;
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const matching = parseMetrics(text).filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return matching.length ? matching.reduce((sum, s) => sum + s.value, 0) : undefined;
}

export async function scrape(adminUrl: string): Promise<string> {
  const res = await fetch(`${adminUrl}/metrics`);
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  return res.text();
}

// ── The gateway as a child process ────────────────────────────────────────

/** What serve reads from the environment: the host's own values never reach a test's gateway unless the test sets them. */
const OVERRIDES = [...Object.keys(ENV_OVERRIDES), 'GATEWAY_CONFIG', 'ADMIN_TOKEN', 'ADMIN_TOKEN_FILE'];

export interface ServeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  readonly adminUrl: string;
  /** stdout so far. */
  output(): string;
  stderr(): string;
  /** stdout parsed as JSON lines. */
  logs(): Record<string, any>[];
  /** Resolves with the exit code (or the signal name) once the process exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits until a log entry satisfies `match`. */
  waitForLog(match: (entry: Record<string, any>) => boolean, what: string, timeoutMs?: number): Promise<Record<string, any>>;
  /** SIGKILLs the process if it still runs; resolves once it exited. */
  kill(): Promise<void>;
}

/** `cwd`: the project to run (default this one), e.g. a copy with another contract. */
export async function startServeProcess(configPath: string, env: Record<string, string> = {}, cwd: string = ROOT): Promise<ServeProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...env };
  for (const name of OVERRIDES) if (!(name in env)) delete childEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--config', configPath], {
    cwd,
    env: childEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  // The output has closed (after the exit): nothing more will be logged.
  let closed = false;
  child.once('close', () => (closed = true));
  const logs = () => parseJsonLines(out);
  // Checked on each chunk of output (after the listener above has added it), and once the output has closed.
  const waitForLog = (match: (e: Record<string, any>) => boolean, what: string, timeoutMs = 20_000) =>
    new Promise<Record<string, any>>((resolve, reject) => {
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        child.stdout.off('data', check);
        child.off('close', check);
        settle();
      };
      const check = () => {
        const found = logs().find(match);
        if (found) finish(() => resolve(found));
        else if (closed) {
          finish(() => reject(new Error(`the gateway exited before ${what}; stdout: ${out}\nstderr: ${err}`)));
        }
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`))), timeoutMs);
      child.stdout.on('data', check);
      child.on('close', check);
      check();
    });
  const kill = async () => {
    if (!done) child.kill('SIGKILL');
    await exited;
  };
  try {
    const listening = await waitForLog((e) => /listening on http:\/\//.test(String(e.msg)), 'the listening line', 30_000);
    const admin = await waitForLog((e) => /^admin listener .* on http:\/\//.test(String(e.msg)), 'the admin line', 30_000);
    const url = /listening on (http:\/\/[^\s]+)/.exec(String(listening.msg))![1] as string;
    const adminUrl = / on (http:\/\/[^\s]+)/.exec(String(admin.msg))![1] as string;
    return { child, url, adminUrl, output: () => out, stderr: () => err, logs, exited, waitForLog, kill };
  } catch (e) {
    await kill();
    throw new Error(`${(e as Error).message}\nstdout: ${out}\nstderr: ${err}`);
  }
}

// ── A plain node:http client (keep-alive agents, socket access) ───────────

export interface PlainResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** POST /rpc/<method> through `agent`, resolving with the whole answer. */
export function postRpc(
  url: string,
  method: string,
  body: unknown,
  { version = '2', agent, headers = {} }: { version?: string; agent?: Agent; headers?: Record<string, string> } = {},
): Promise<PlainResponse> {
  const base = new URL(url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method: 'POST',
        path: `/rpc/${method}`,
        ...(agent ? { agent } : { agent: false }),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          'x-dl-api-version': version,
          ...headers,
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}
