// In-flight accounting cannot leak: a client that pipelines requests behind a slow one and leaves ends
// every one of them (Node never emits 'close' on a response queued behind another), a reload in between
// retires the old runtime and closes its upstream pool, and SIGTERM then exits within shutdown.drainMs + 1 s,
// also when the process's stdout and stderr readers are gone.

import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FaultUpstream, startFaultUpstream } from '../helpers/fault-upstream.js';
import { post } from '../helpers/raw-socket.js';
import {
  configDoc,
  memoryLog,
  postRpc,
  type ServeProcess,
  startServeProcess,
  tempDir,
  waitFor,
  yamlOf,
} from '../helpers/serve-process.js';
import { startStack } from '../helpers/stack.js';
import { until } from '../helpers/until.js';

const DRAIN_MS = 2_000;
/** What the issue allows on top of the drain. */
const EXIT_BOUND_MS = DRAIN_MS + 1_000;
/** The slow upstream answers after this long: longer than any step below waits for. */
const SLOW_MS = 1_500;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function slowUpstream(): Promise<FaultUpstream> {
  const upstream = await startFaultUpstream('slow', { delayMs: SLOW_MS, body: '{"entries":[]}' });
  cleanups.push(() => upstream.close());
  return upstream;
}

/** Writes two pipelined v2 getEntries on one connection and resolves once both reached the upstream. */
async function pipelineTwo(url: string, upstream: FaultUpstream): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  cleanups.push(async () => socket.destroy());
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const before = upstream.requests.length;
  const request = (id: string) =>
    post('/rpc/getEntries', '{"pageSize":1}', [
      ['Host', `${hostname}:${port}`],
      ['Content-Type', 'application/json'],
      ['x-dl-api-version', '2'],
      ['x-request-id', id],
    ]);
  socket.write(Buffer.concat([request('first-slow'), request('second-queued')]));
  await until(upstream.events, 'request', () => upstream.requests.length >= before + 2, 'both pipelined requests at the upstream', 10_000);
  return socket;
}

describe('a client that pipelines two requests behind a slow one and leaves (in process)', () => {
  it('ends both: nothing stays in flight, both are logged as 499, and the retired runtime can close', async () => {
    const upstream = await slowUpstream();
    const log = memoryLog();
    const stack = await startStack({ upstreamUrl: upstream.url, logger: log.logger });
    cleanups.push(() => stack.close());
    const runtime = stack.gateway.runtime();

    const socket = await pipelineTwo(stack.url, upstream);
    expect(runtime.inFlight()).toBe(2);
    socket.destroy();

    await waitFor(() => runtime.inFlight() === 0, 'no request in flight', { timeoutMs: 5_000, intervalMs: 10 });
    const lines = log.entries().filter((e) => e.msg === 'request');
    expect(lines.map((e) => [e.requestId, e.status]).sort()).toEqual([
      ['first-slow', 499],
      ['second-queued', 499],
    ]);
    // retire() resolves only once the runtime has nothing in flight.
    await expect(Promise.race([runtime.retire().then(() => 'retired'), new Promise((r) => setTimeout(r, 2_000, 'stuck'))])).resolves.toBe(
      'retired',
    );
  });
});

describe('the same as a process, with a reload in between', () => {
  async function startGateway(upstream: FaultUpstream): Promise<{ gw: ServeProcess }> {
    const dir = tempDir('dlgw-inflight-');
    const configPath = join(dir, 'gateway.yaml');
    // A long upstream keep-alive: only closing the pool (not an idle timer) can close its connections.
    const doc = configDoc({ upstreamUrl: upstream.url, extra: { shutdown: { drainMs: DRAIN_MS } } });
    (doc.upstream as Record<string, unknown>).keepAliveMs = 60_000;
    writeFileSync(configPath, yamlOf(doc));
    const gw = await startServeProcess(configPath);
    cleanups.push(() => gw.kill());
    return { gw };
  }

  async function sigtermExitMs(gw: ServeProcess): Promise<number> {
    const signalledAt = Date.now();
    gw.child.kill('SIGTERM');
    const exit = await Promise.race([gw.exited, new Promise((r) => setTimeout(r, EXIT_BOUND_MS + 2_000, 'still running'))]);
    expect(exit).toEqual({ code: 0, signal: null });
    return Date.now() - signalledAt;
  }

  it('SIGTERM exits within drainMs + 1 s after the client left (no reload)', async () => {
    const upstream = await slowUpstream();
    const { gw } = await startGateway(upstream);
    const socket = await pipelineTwo(gw.url, upstream);
    socket.destroy();
    expect(await sigtermExitMs(gw)).toBeLessThan(EXIT_BOUND_MS);
  }, 30_000);

  it('the runtime retired by a reload closes its upstream connections once its requests ended; SIGTERM then exits in time', async () => {
    const upstream = await slowUpstream();
    const { gw } = await startGateway(upstream);
    const socket = await pipelineTwo(gw.url, upstream);
    const reloaded = await fetch(`${gw.adminUrl}/reload`, { method: 'POST' });
    expect(reloaded.status).toBe(200);
    socket.destroy();
    // The old pool's connections close; the new runtime has opened none.
    await until(upstream.events, 'socket-close', () => upstream.openUsed === 0, 'the retired runtime to close its upstream connections');
    // The new runtime serves.
    const answer = await postRpc(gw.url, 'getEntries', { pageSize: 1 });
    expect(answer.status).toBe(200);
    expect(await sigtermExitMs(gw)).toBeLessThan(EXIT_BOUND_MS);
  }, 30_000);

  it('SIGTERM exits within drainMs + 1 s when the readers of stdout and stderr are gone', async () => {
    const upstream = await slowUpstream();
    const { gw } = await startGateway(upstream);
    gw.child.stdout.destroy();
    gw.child.stderr.destroy();
    // The drain's own log lines are the first writes into the broken pipes.
    expect(await sigtermExitMs(gw)).toBeLessThan(EXIT_BOUND_MS);
  }, 30_000);

  it('keeps serving when the readers of stdout and stderr are gone, and still stops in time', async () => {
    const upstream = await startFaultUpstream('slow', { delayMs: 0, body: '{"entries":[]}' });
    cleanups.push(() => upstream.close());
    const { gw } = await startGateway(upstream);
    gw.child.stdout.destroy();
    gw.child.stderr.destroy();
    // Each request writes a log line into the broken pipe.
    for (let i = 0; i < 3; i++) expect((await postRpc(gw.url, 'getEntries', { pageSize: 1 })).status).toBe(200);
    expect(await sigtermExitMs(gw)).toBeLessThan(EXIT_BOUND_MS);
  }, 30_000);
});
