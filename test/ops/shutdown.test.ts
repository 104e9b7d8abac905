// Stopping the gateway (child process `serve`): SIGTERM drains requests in flight, refuses new connections,
// closes idle keep-alive connections at once and exits 0 within shutdown.drainMs; what outlives the drain
// is cut.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FaultUpstream, startFaultUpstream } from '../helpers/fault-upstream.js';
import {
  ROOT,
  configDoc,
  parseJsonLines,
  postRpc,
  type PlainResponse,
  type ServeProcess,
  startServeProcess,
  tempDir,
  yamlOf,
} from '../helpers/serve-process.js';
import { until } from '../helpers/until.js';

/** Room for process teardown on a loaded 2-core machine, on top of drainMs. */
const MARGIN_MS = 5_000;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** RPC requests the upstream received (serve also asks GET /ping once at start). */
const rpcRequests = (upstream: FaultUpstream) => upstream.requests.filter((r) => r.path.startsWith('/rpc/')).length;

async function startGateway(upstream: FaultUpstream, extra: Record<string, unknown>): Promise<ServeProcess> {
  const dir = tempDir('dlgw-shutdown-');
  const configPath = join(dir, 'gateway.yaml');
  writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: upstream.url, extra })));
  const gw = await startServeProcess(configPath);
  cleanups.push(() => gw.kill());
  return gw;
}

/** Resolves with the connection's fate: 'refused' or 'accepted' (then closed at once). */
function tryConnect(url: string): Promise<'refused' | 'accepted' | string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (e: Error & { code?: string }) => resolve(e.code === 'ECONNREFUSED' ? 'refused' : String(e.code)));
  });
}

/** Opens a raw keep-alive connection, completes one GET /healthz on it and leaves it idle. */
async function idleKeepAliveSocket(url: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  let received = '';
  const answered = new Promise<string>((resolve) => {
    socket.on('data', (c: Buffer) => {
      received += c.toString('latin1');
      const headEnd = received.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(received);
      if (headEnd >= 0 && length && received.length >= headEnd + 4 + Number(length[1])) resolve(received);
    });
  });
  socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`);
  const head = await answered;
  expect(head).toMatch(/^HTTP\/1\.1 200 /);
  expect(head.toLowerCase()).not.toMatch(/connection: close/);
  return { socket, closed };
}

describe('SIGTERM while requests are in flight', () => {
  it('lets all 20 finish with 200 and Connection: close, refuses new connections, and exits 0 within drainMs', async () => {
    const upstream = await startFaultUpstream('slow', { delayMs: 2_500 });
    cleanups.push(() => upstream.close());
    const drainMs = 6_000;
    const gw = await startGateway(upstream, { shutdown: { drainMs } });
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    cleanups.push(async () => agent.destroy());

    const answers: Promise<PlainResponse | Error>[] = [];
    for (let i = 0; i < 20; i++) {
      answers.push(postRpc(gw.url, 'getEntries', { pageSize: 1 }, { agent, version: '2' }).catch((e: Error) => e));
    }
    await until(upstream.events, 'request', () => rpcRequests(upstream) >= 20, 'all 20 requests to reach the upstream', 15_000);
    let exitedAt = 0;
    void gw.exited.then(() => (exitedAt = Date.now()));
    const signalledAt = Date.now();
    gw.child.kill('SIGTERM');

    const draining = await gw.waitForLog((e) => e.msg === 'draining, then stopping', 'the draining line');
    expect(draining).toMatchObject({ signal: 'SIGTERM', drainMs, inFlight: 20 });
    expect(await tryConnect(gw.url)).toBe('refused');

    const settled = await Promise.all(answers);
    const finishedAt = Date.now();
    const failed = settled.filter((r) => r instanceof Error || r.status !== 200);
    expect(failed).toEqual([]);
    for (const r of settled as PlainResponse[]) {
      expect(JSON.parse(r.text)).toEqual({ ok: true });
      expect(r.headers.connection).toBe('close');
    }
    const exit = await gw.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(exitedAt).toBeGreaterThanOrEqual(finishedAt - 1_000); // it did not leave before the answers were out
    expect(exitedAt - signalledAt).toBeLessThan(drainMs + MARGIN_MS);
    expect(gw.logs().some((e) => e.msg === 'stopped')).toBe(true);
  }, 60_000);
});

describe('SIGTERM with an idle keep-alive connection open', () => {
  it('closes the idle connection at once, long before the keep-alive timeout, while a slow request still drains', async () => {
    const upstream = await startFaultUpstream('slow', { delayMs: 3_000 });
    cleanups.push(() => upstream.close());
    const gw = await startGateway(upstream, { shutdown: { drainMs: 10_000 } });

    const idle = await idleKeepAliveSocket(gw.url);
    cleanups.push(async () => idle.socket.destroy());
    let slowDone = false;
    const slow = postRpc(gw.url, 'getEntries', { pageSize: 1 }).finally(() => (slowDone = true));
    await until(upstream.events, 'request', () => rpcRequests(upstream) >= 1, 'the slow request to reach the upstream');

    gw.child.kill('SIGTERM');
    await idle.closed;
    // The server's keep-alive timeout is 5 s and the slow answer takes 3 s: closing before the slow
    // answer is out means the idle connection was closed by the shutdown, not by a timeout.
    expect(slowDone).toBe(false);
    expect(gw.child.exitCode).toBeNull();

    const res = await slow;
    expect(res.status).toBe(200);
    expect(await gw.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});

describe('SIGTERM with a request the upstream never answers', () => {
  it('cuts it after shutdown.drainMs (300 ms) and still exits 0 within drainMs plus a margin', async () => {
    const upstream = await startFaultUpstream('hang');
    cleanups.push(() => upstream.close());
    const drainMs = 300;
    const gw = await startGateway(upstream, { shutdown: { drainMs }, upstream: { url: upstream.url, timeoutMs: 60_000 } });

    const stuck = postRpc(gw.url, 'getEntries', { pageSize: 1 }).catch((e: Error) => e);
    await until(upstream.events, 'request', () => rpcRequests(upstream) >= 1, 'the request to reach the upstream');
    const signalledAt = Date.now();
    gw.child.kill('SIGTERM');
    const exit = await gw.exited;
    const elapsed = Date.now() - signalledAt;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(elapsed).toBeLessThan(drainMs + MARGIN_MS);
    // The client's request was cut, not answered.
    const outcome = await stuck;
    expect(outcome).toBeInstanceOf(Error);
  }, 60_000);
});

describe('SIGINT', () => {
  it('stops the gateway like SIGTERM: it logs the drain and exits 0', async () => {
    const upstream = await startFaultUpstream('slow', { delayMs: 0 });
    cleanups.push(() => upstream.close());
    const gw = await startGateway(upstream, {});
    expect((await postRpc(gw.url, 'getEntries', { pageSize: 1 })).status).toBe(200);
    gw.child.kill('SIGINT');
    expect(await gw.exited).toEqual({ code: 0, signal: null });
    expect(gw.logs().find((e) => e.msg === 'draining, then stopping')).toMatchObject({ signal: 'SIGINT', inFlight: 0 });
    expect(await tryConnect(gw.url)).toBe('refused');
  }, 60_000);
});

describe('starting with a bad config file', () => {
  it('fails fast with exit status 2 and the key of the mistake', async () => {
    const dir = tempDir('dlgw-badstart-');
    const configPath = join(dir, 'gateway.yaml');
    writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: 'http://127.0.0.1:9', extra: { shutdown: { drainMs: -5 } } })));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--config', configPath], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', PORT: '', UPSTREAM_URL: '', ADMIN_PORT: '', ADMIN_HOST: '', HOST: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(async () => child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(2);
    const fatal = parseJsonLines(out).find((e) => e.level === 60);
    expect(fatal?.msg).toMatch(/shutdown\.drainMs: /);
    expect(out).not.toMatch(/listening on/);
  }, 60_000);
});
