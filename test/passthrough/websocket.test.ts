// WebSocket upgrades through pass-through: messages both ways (text and binary), close codes both ways, the
// handshake under the same header rules as any pass-through request, refusals and failures as answers on the
// socket, and upgrades outside pass-through served as the plain requests they also are.

import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startFaultUpstream } from '../helpers/fault-upstream.js';
import { type Stack, startStack } from '../helpers/stack.js';
import { type WebUpstream, startWebUpstream } from '../helpers/web-upstream.js';

const wsUrl = (httpUrl: string, path: string) => `${httpUrl.replace(/^http/, 'ws')}${path}`;

/** Opens a WebSocket and resolves once it is open, or rejects with the HTTP answer that refused it. */
function connect(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() })));
    });
    ws.once('error', reject);
  });
}

const nextMessage = (ws: WebSocket) =>
  once(ws, 'message').then(([data, isBinary]) => ({ data: data as Buffer, isBinary: isBinary as boolean }));

describe('WebSockets through pass-through', () => {
  let web: WebUpstream;
  let stack: Stack;
  beforeAll(async () => {
    web = await startWebUpstream();
    stack = await startStack({ upstreamUrl: web.url, config: { passthrough: { enabled: true } } });
  });
  afterAll(async () => {
    await stack.close();
    await web.close();
  });

  it('carries text and binary messages both ways, in order', async () => {
    const ws = await connect(wsUrl(stack.url, '/ws'));
    for (const text of ['hello', 'second', 'x'.repeat(100_000)]) {
      ws.send(text);
      const echo = await nextMessage(ws);
      expect(echo.isBinary).toBe(false);
      expect(echo.data.toString()).toBe(text);
    }
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i & 0xff));
    ws.send(bytes);
    const echo = await nextMessage(ws);
    expect(echo.isBinary).toBe(true);
    expect(Buffer.compare(echo.data, bytes)).toBe(0);
    ws.close(1000, 'done');
    const [code] = await once(ws, 'close');
    expect(code).toBe(1000);
  });

  it('passes the upstream\'s close code and reason to the client', async () => {
    const ws = await connect(wsUrl(stack.url, '/ws'));
    ws.send('close 4001 upstream says bye');
    const [code, reason] = await once(ws, 'close');
    expect(code).toBe(4001);
    expect(String(reason)).toBe('upstream says bye');
  });

  it('passes the client\'s close code and reason to the upstream', async () => {
    const ws = await connect(wsUrl(stack.url, '/ws'));
    const closed = once(web.events, 'ws-closed');
    ws.close(4002, 'client says bye');
    const [code, reason] = await closed;
    expect(code).toBe(4002);
    expect(reason).toBe('client says bye');
  });

  it('strips a spoofed x-dl-client-api-version from the handshake and sets the request id and X-Forwarded-*', async () => {
    const seen = once(web.events, 'ws-connection');
    const ws = await connect(wsUrl(stack.url, '/ws'), {
      'x-dl-client-api-version': '1',
      x_dl_client_api_version: '1',
      'x-forwarded-for': '6.6.6.6',
      'x-request-id': 'ws-req-1',
      authorization: 'Bearer user-token',
    });
    const [headers] = (await seen) as [Record<string, string>];
    expect(headers).not.toHaveProperty('x-dl-client-api-version');
    expect(headers).not.toHaveProperty('x_dl_client_api_version');
    expect(headers).toMatchObject({ 'x-request-id': 'ws-req-1', 'x-forwarded-for': '127.0.0.1', authorization: 'Bearer user-token', upgrade: 'websocket' });
    ws.close();
  });

  it('relays the upstream\'s refusal of an upgrade as a sound HTTP answer', async () => {
    const refused = await connect(wsUrl(stack.url, '/not-a-socket')).catch((e: unknown) => e as { status: number; body: string });
    expect(refused).toMatchObject({ status: 403, body: 'forbidden' });
  });

  it('serves an upgrade to /rpc or to an own route as the plain request, never as a tunnel', async () => {
    const rpc = await connect(wsUrl(stack.url, '/rpc/getReport')).catch((e: unknown) => e as { status: number; body: string });
    expect(rpc).toMatchObject({ status: 405 });
    expect(JSON.parse((rpc as { body: string }).body)).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    const versions = await connect(wsUrl(stack.url, '/versions')).catch((e: unknown) => e as { status: number });
    expect(versions).toMatchObject({ status: 200 });
    expect(web.requests.some((r) => r.url.startsWith('/rpc') || r.url === '/versions')).toBe(false);
  });
});

describe('WebSockets on excluded paths', () => {
  it('refuses the handshake with the 404 problem and tells the upstream nothing', async () => {
    const web = await startWebUpstream();
    const stack = await startStack({ upstreamUrl: web.url, config: { passthrough: { enabled: true, exclude: ['/internal'] } } });
    try {
      const err = (await connect(wsUrl(stack.url, '/Internal/ws')).catch((e: unknown) => e)) as { status: number; body: string };
      expect(err.status).toBe(404);
      expect(JSON.parse(err.body)).toMatchObject({ code: 'ENDPOINT_NOT_FOUND' });
      expect(web.requests).toEqual([]);
    } finally {
      await stack.close();
      await web.close();
    }
  });
});

describe('WebSockets and shutdown', () => {
  it('lets an open tunnel run until the drain time is over, then cuts it so that the shutdown ends', async () => {
    const web = await startWebUpstream();
    const stack = await startStack({ upstreamUrl: web.url, config: { passthrough: { enabled: true } } });
    try {
      const ws = await connect(wsUrl(stack.url, '/ws'));
      const closed = once(ws, 'close');
      await stack.gateway.shutdown(200);
      const [code] = await closed;
      expect(code).toBe(1006);
    } finally {
      await stack.close();
      await web.close();
    }
  });
});

describe('WebSockets when the upstream fails', () => {
  it('answers the handshake with 502 UPSTREAM_UNAVAILABLE when the upstream refuses connections', async () => {
    const refuse = await startFaultUpstream('refuse');
    const stack = await startStack({ upstreamUrl: refuse.url, config: { passthrough: { enabled: true } } });
    try {
      const err = (await connect(wsUrl(stack.url, '/ws')).catch((e: unknown) => e)) as { status: number; headers: Record<string, string>; body: string };
      expect(err.status).toBe(502);
      expect(err.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(err.body)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', requestId: err.headers['x-request-id'] });
    } finally {
      await stack.close();
      await refuse.close();
    }
  });

  it('answers the handshake with 504 UPSTREAM_TIMEOUT when the upstream never answers it', async () => {
    const hang = await startFaultUpstream('hang');
    const stack = await startStack({ upstreamUrl: hang.url, config: { passthrough: { enabled: true }, upstream: { timeoutMs: 300 } } });
    try {
      const err = (await connect(wsUrl(stack.url, '/ws')).catch((e: unknown) => e)) as { status: number; body: string };
      expect(err.status).toBe(504);
      expect(JSON.parse(err.body)).toMatchObject({ code: 'UPSTREAM_TIMEOUT', details: { timeoutMs: 300 } });
    } finally {
      await stack.close();
      await hang.close();
    }
  });
});
