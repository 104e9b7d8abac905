// Signals during serve's start-up (child processes): SIGTERM/SIGINT end it with exit 0 once what is open is closed,
// connections the public port accepted meanwhile included; SIGHUP is remembered and reloads once the gateway started.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENV_OVERRIDES } from '../../src/config/load.js';
import { startFaultUpstream, type FaultUpstream } from '../helpers/fault-upstream.js';
import { ROOT, configDoc, parseJsonLines, tempDir, yamlOf } from '../helpers/serve-process.js';
import { until } from '../helpers/until.js';

const OVERRIDES = [...Object.keys(ENV_OVERRIDES), 'ADMIN_TOKEN', 'ADMIN_TOKEN_FILE', 'GATEWAY_CONFIG'];

/** A port free now (bound, then released): the test must know the public port before serve says it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Child {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  logs(): Record<string, any>[];
  /** Resolves once a log line satisfies `match`. */
  logged(match: (e: Record<string, any>) => boolean, what: string): Promise<void>;
}

const children: ChildProcessWithoutNullStreams[] = [];
const upstreams: FaultUpstream[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
});

function serveChild(doc: Record<string, unknown>): Child {
  const path = join(tempDir('dlgw-signals-'), 'gateway.yaml');
  writeFileSync(path, yamlOf(doc));
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  for (const name of OVERRIDES) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--config', path], { cwd: ROOT, env });
  children.push(child);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.resume();
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  const logs = () => parseJsonLines(out);
  return { child, exited, logs, logged: (match, what) => until(child.stdout, 'data', () => logs().some(match), what, 30_000) };
}

/** An upstream that accepts and never answers: serve's start-up readiness probe waits on it with the port open. */
async function hangingUpstream(): Promise<FaultUpstream> {
  const upstream = await startFaultUpstream('hang');
  upstreams.push(upstream);
  return upstream;
}

const probed = (upstream: FaultUpstream) =>
  until(upstream.events, 'request', () => upstream.requests.some((r) => r.path === '/ping'), 'the start-up readiness probe', 30_000);

const listeningLine = (e: Record<string, any>) => /listening on http/.test(String(e.msg));

describe('a stop signal while the public port accepts and start-up still waits for the readiness probe', { timeout: 60_000 }, () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s: the request accepted meanwhile is answered, then exit 0 without waiting for the probe', async (signal) => {
    const upstream = await hangingUpstream();
    const port = await freePort();
    // The probe waits up to a minute: only the stop signal can end start-up within the test's time.
    const gw = serveChild(
      configDoc({
        upstreamUrl: upstream.url,
        extra: {
          listen: { host: '127.0.0.1', port },
          upstream: { url: upstream.url, timeoutMs: 60_000 },
          readiness: { timeoutMs: 60_000 },
        },
      }),
    );
    await probed(upstream);
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    socket.write('GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n');
    await until(socket, 'data', () => /\r\n\r\n/.test(answer), 'the answer to the request accepted during start-up');
    const closed = once(socket, 'close');
    gw.child.kill(signal);
    expect(await gw.exited).toEqual({ code: 0, signal: null });
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(gw.logs().find((e) => /^stop signal during start-up/.test(String(e.msg)))).toMatchObject({ signal });
    expect(gw.logs().some((e) => e.msg === 'stopped')).toBe(true);
    // Start-up never finished: it never said it was listening.
    expect(gw.logs().some(listeningLine)).toBe(false);
  });
});

describe('SIGHUP during start-up', { timeout: 60_000 }, () => {
  it('is logged, does not stop the process, and reloads the config once the gateway has started', async () => {
    const upstream = await hangingUpstream();
    // The probe gives up after a second: start-up then completes.
    const gw = serveChild(configDoc({ upstreamUrl: upstream.url, extra: { readiness: { timeoutMs: 1_000 } } }));
    await probed(upstream);
    gw.child.kill('SIGHUP');
    await gw.logged((e) => e.msg === 'config reloaded', 'the reload after start-up');
    const msgs = gw.logs().map((e) => String(e.msg));
    const held = msgs.findIndex((m) => /^SIGHUP during start-up/.test(m));
    expect(held).toBeGreaterThanOrEqual(0);
    // In this order: the signal noted, the gateway listening, then the reload.
    expect(msgs.findIndex((m) => /listening on http/.test(m))).toBeGreaterThan(held);
    expect(msgs.indexOf('config reloaded')).toBeGreaterThan(msgs.findIndex((m) => /listening on http/.test(m)));
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toEqual({ code: 0, signal: null });
  });
});

describe('SIGTERM at the first line serve writes (the embedded backend started, before the public port)', { timeout: 60_000 }, () => {
  it('exits 0 after closing what is open', async () => {
    const gw = serveChild(configDoc({ upstreamUrl: 'embedded' }));
    await gw.logged(() => true, 'the first log line');
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toEqual({ code: 0, signal: null });
    expect(gw.logs().some((e) => e.msg === 'stopped')).toBe(true);
  });
});
