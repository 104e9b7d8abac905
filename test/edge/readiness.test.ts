// The /readyz contract: GET readiness.path on the backend, 2xx within readiness.timeoutMs (2 s by default),
// announcing the contract's latest version unless readiness.checkVersion is off.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../helpers/calendar.js';
import { type FaultUpstream, startFaultUpstream } from '../helpers/fault-upstream.js';
import { type Stack, startStack } from '../helpers/stack.js';

/** A backend answering `routes[path]` (status, content type, body) and 404 elsewhere; it records the paths asked. */
async function startBackend(routes: Record<string, { status: number; type: string; body: string }>) {
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    const route = routes[req.url ?? ''];
    res.writeHead(route?.status ?? 404, { 'content-type': route?.type ?? 'application/json' });
    res.end(route?.body ?? '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const readyz = async (stack: Stack) => {
  const res = await fetch(`${stack.url}/readyz`);
  return { status: res.status, body: (await res.json()) as { status: string; reason?: string; backendVersion?: number } };
};

const stacks: Stack[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const s of stacks) await s.close();
  for (const c of closers) await c();
});
const stackOn = async (upstreamUrl: string, readiness?: Record<string, unknown>, upstream?: Record<string, unknown>) => {
  const stack = await startStack({ upstreamUrl, config: { ...(readiness && { readiness }), ...(upstream && { upstream }) } });
  stacks.push(stack);
  return stack;
};

describe('a backend that announces its version on another path', () => {
  let backend: Awaited<ReturnType<typeof startBackend>>;
  beforeAll(async () => {
    backend = await startBackend({ '/health': { status: 200, type: 'application/json', body: JSON.stringify({ apiVersion: HEAD }) } });
    closers.push(backend.close);
  });

  it('is not ready by the default path (GET /ping answers 404)', async () => {
    const res = await readyz(await stackOn(backend.url));
    expect(res).toEqual({ status: 503, body: { status: 'not ready', reason: 'the backend answered GET /ping with 404' } });
  });

  it('is ready with readiness.path: /health', async () => {
    const res = await readyz(await stackOn(backend.url, { path: '/health' }));
    expect(res).toEqual({ status: 200, body: { status: 'ready', backendVersion: HEAD } });
    expect(backend.asked).toContain('GET /health');
  });
});

describe('a backend whose health answer names no version', () => {
  let backend: Awaited<ReturnType<typeof startBackend>>;
  beforeAll(async () => {
    backend = await startBackend({ '/ping': { status: 200, type: 'text/plain', body: 'OK' } });
    closers.push(backend.close);
  });

  it('is not ready while the version is checked', async () => {
    const res = await readyz(await stackOn(backend.url));
    expect(res.status).toBe(503);
    expect(res.body.reason).toBe(`the backend speaks API version unknown (GET /ping); this gateway's contract ends at version ${HEAD}`);
  });

  it('is ready with readiness.checkVersion: false', async () => {
    expect(await readyz(await stackOn(backend.url, { checkVersion: false }))).toEqual({ status: 200, body: { status: 'ready' } });
  });
});

describe('a backend that never answers', () => {
  let hung: FaultUpstream;
  beforeAll(async () => {
    hung = await startFaultUpstream('hang');
    closers.push(() => hung.close());
  });

  it('is not ready after readiness.timeoutMs, not after the 30 s upstream timeout', async () => {
    const res = await readyz(await stackOn(hung.url, { timeoutMs: 150 }));
    expect(res).toEqual({ status: 503, body: { status: 'not ready', reason: 'the backend did not answer GET /ping within 150 ms' } });
  });

  it('never waits longer than upstream.timeoutMs', async () => {
    const res = await readyz(await stackOn(hung.url, { timeoutMs: 5_000 }, { timeoutMs: 120 }));
    expect(res.body.reason).toBe('the backend did not answer GET /ping within 120 ms');
  });

  it('gives up after 2 s by default', async () => {
    const res = await readyz(await stackOn(hung.url));
    expect(res.body.reason).toBe('the backend did not answer GET /ping within 2000 ms');
  });
});
