// /healthz (the process is up) and /readyz (the backend is reachable and speaks the contract's head version).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultUpstream, startFaultUpstream } from '../helpers/fault-upstream.js';
import { HEAD } from '../helpers/calendar.js';
import { UUID } from '../helpers/http.js';
import { type Stack, startStack } from '../helpers/stack.js';

/** A tiny backend that announces `apiVersion` on GET /ping and counts the pings. */
async function startAnnouncingBackend(apiVersion: number): Promise<{ url: string; pings: () => number; close: () => Promise<void> }> {
  let pings = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/ping') {
      pings += 1;
      const body = JSON.stringify({ status: 'ok', apiVersion });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-dl-api-version': String(apiVersion) });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pings: () => pings,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
};

describe('health and readiness in front of the reference backend', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('answers /healthz with 200 and a request id', async () => {
    const res = await get(`${stack.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it('answers /readyz with 200 and the backend\'s version when the backend speaks version 2', async () => {
    const before = stack.backend!.requests.length;
    const res = await get(`${stack.url}/readyz`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ready', backendVersion: HEAD });
    // It really asked the backend.
    const pings = stack.backend!.requests.slice(before).filter((r) => r.url === '/ping');
    expect(pings).toHaveLength(1);
    expect(pings[0]!.method).toBe('GET');
  });
});

describe('readiness when the upstream refuses connections', () => {
  let upstream: FaultUpstream;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startFaultUpstream('refuse');
    stack = await startStack({ upstreamUrl: upstream.url });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it('answers /readyz with 503 and a reason, while /healthz stays 200', async () => {
    const ready = await get(`${stack.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('not ready');
    expect(ready.body.reason).toEqual(expect.any(String));
    expect((await get(`${stack.url}/healthz`)).status).toBe(200);
  });
});

describe('readiness when the upstream never answers (upstream.timeoutMs 300)', () => {
  let upstream: FaultUpstream;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startFaultUpstream('hang');
    stack = await startStack({ upstreamUrl: upstream.url, config: { upstream: { timeoutMs: 300 } } });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it('answers /readyz with 503 once the timeout passes', async () => {
    const ready = await get(`${stack.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('not ready');
    expect(upstream.requests.at(-1)?.path).toBe('/ping');
  });
});

describe('readiness in front of a backend that speaks another version', () => {
  let backend: Awaited<ReturnType<typeof startAnnouncingBackend>>;
  let stack: Stack;
  beforeAll(async () => {
    backend = await startAnnouncingBackend(HEAD + 1);
    stack = await startStack({ upstreamUrl: backend.url });
  });
  afterAll(async () => {
    await stack.close();
    await backend.close();
  });

  it('answers /readyz with 503 naming both versions when the backend announces the version after the head', async () => {
    const ready = await get(`${stack.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('not ready');
    expect(String(ready.body.reason)).toContain(`version ${HEAD + 1}`);
    expect(String(ready.body.reason)).toContain(`version ${HEAD}`);
    expect(backend.pings()).toBe(1);
  });
});

describe('readiness in front of a backend that announces the head version itself', () => {
  let backend: Awaited<ReturnType<typeof startAnnouncingBackend>>;
  let stack: Stack;
  beforeAll(async () => {
    backend = await startAnnouncingBackend(HEAD);
    stack = await startStack({ upstreamUrl: backend.url });
  });
  afterAll(async () => {
    await stack.close();
    await backend.close();
  });

  it('answers /readyz with 200: readiness depends on the announced version, not on which server it is', async () => {
    const ready = await get(`${stack.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', backendVersion: HEAD });
  });
});
