// The request framing rule (docs/architecture.md, "Request framing"), case by case: the smuggling found by raw-socket
// testing (a chunked body on GET, HEAD, DELETE, OPTIONS forwarded unframed, read by the backend as a second
// request) carries nothing upstream; a body the gateway forwards is framed once, by the gateway; what it cannot
// frame is refused before anything reaches the upstream; only a WebSocket handshake on GET is tunnelled.
// test/hostile/framing.test.ts runs the whole grammar of methods × framings × routes.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { head, rawExchange } from '../helpers/raw-socket.js';
import { rpc, type Stack, startStack } from '../helpers/stack.js';

/** The issue's reproduction: a chunked body that is itself a complete request. */
const SMUGGLED =
  'POST /rpc/deleteWorkbook HTTP/1.1\r\nHost: backend\r\nx-dl-api-version: 3\r\ncontent-type: application/json\r\n' +
  'content-length: 33\r\n\r\n{"workbookId": "wb_demo_sandbox"}';
const chunked = (body: string) => `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;

function smuggle(method: string, path = '/favicon.ico'): Buffer {
  // An answer to HEAD has no body to delimit it: the connection's close ends the exchange instead.
  const close = method === 'HEAD' ? ([['connection', 'close']] as const) : [];
  return Buffer.from(`${head(`${method} ${path} HTTP/1.1`, [['host', '127.0.0.1'], ['transfer-encoding', 'chunked'], ...close])}${chunked(SMUGGLED)}`, 'latin1');
}

describe('a chunked body on any method, in front of the reference backend', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ config: { passthrough: { enabled: true } } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it.each(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'POST'])('%s /favicon.ico with the reproduction deletes nothing', async (method) => {
    const before = await rpc(stack.url, 'getWorkbook', { workbookId: 'wb_demo_sandbox' }, '3');
    expect(before.status).toBe(200);
    const result = await rawExchange(stack.url, [smuggle(method)], { deadlineMs: 5_000, ...(method !== 'HEAD' && { responses: 1 }) });
    expect(result.closedBy).not.toBe('deadline');
    expect(result.responses[0]?.status).toBe(404);
    // Let a smuggled request, had one gone through, reach the backend before looking.
    await new Promise((r) => setTimeout(r, 100));
    const after = await rpc(stack.url, 'getWorkbook', { workbookId: 'wb_demo_sandbox' }, '3');
    expect(after.status).toBe(200);
  });

  it('TRACE is refused with 405 and an Allow listing what passes, forwarding nothing', async () => {
    const result = await rawExchange(stack.url, [smuggle('TRACE')], { deadlineMs: 5_000 });
    expect(result.responses[0]?.status).toBe(405);
    expect(result.responses[0]?.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(result.responses[0]?.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED', details: { method: 'TRACE' } });
    const after = await rpc(stack.url, 'getWorkbook', { workbookId: 'wb_demo_sandbox' }, '3');
    expect(after.status).toBe(200);
  });
});

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** An upstream that records every request it parses, with its body, and answers 200 (101 is never given). */
async function recordingUpstream(): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
      res.end(req.method === 'HEAD' ? undefined : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('what the upstream reads', () => {
  let up: Awaited<ReturnType<typeof recordingUpstream>>;
  let stack: Stack;
  beforeAll(async () => {
    up = await recordingUpstream();
    stack = await startStack({ upstreamUrl: up.url, config: { passthrough: { enabled: true } } });
  });
  afterAll(async () => {
    await stack.close();
    up.server.closeAllConnections();
    await new Promise((r) => up.server.close(r));
  });

  async function send(bytes: string): Promise<{ status: number | undefined; seen: Seen[] }> {
    const before = up.seen.length;
    const isHead = bytes.startsWith('HEAD ');
    const result = await rawExchange(stack.url, [Buffer.from(bytes, 'latin1')], { deadlineMs: 5_000, ...(!isHead && { responses: 1 }) });
    expect(result.closedBy).not.toBe('deadline');
    await new Promise((r) => setTimeout(r, 50));
    return { status: result.responses[0]?.status, seen: up.seen.slice(before) };
  }

  it.each(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'PUT', 'PATCH', 'POST'])('%s: a chunked body arrives chunked, as one request with exactly its bytes', async (method) => {
    const { status, seen } = await send(smuggle(method, '/assets/x').toString('latin1'));
    expect(status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method, url: '/assets/x', body: SMUGGLED });
    expect(seen[0]?.headers['transfer-encoding']).toBe('chunked');
    expect(seen[0]?.headers['content-length']).toBeUndefined();
  });

  it('chunk extensions and trailers are the client hop\'s: the body alone goes on', async () => {
    const bytes = `${head('GET /a HTTP/1.1', [['host', 'x'], ['transfer-encoding', 'chunked']])}3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nx-trailer: t\r\n\r\n`;
    const { seen } = await send(bytes);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.body).toBe('abcde');
  });

  it('a Content-Length body keeps its length; no body, no framing field on GET', async () => {
    const withLength = await send(`${head('DELETE /a HTTP/1.1', [['host', 'x'], ['content-length', '5']])}hello`);
    expect(withLength.seen[0]).toMatchObject({ body: 'hello', headers: { 'content-length': '5' } });
    const bare = await send(head('GET /a HTTP/1.1', [['host', 'x']]));
    expect(bare.seen[0]?.headers['content-length']).toBeUndefined();
    expect(bare.seen[0]?.headers['transfer-encoding']).toBeUndefined();
  });

  it.each([
    ['a coding before chunked', 'HTTP/1.1', 'gzip, chunked', 'transfer-coding'],
    ['chunked in HTTP/1.0', 'HTTP/1.0', 'chunked', 'transfer-encoding-http-1.0'],
  ])('refuses %s with 400 before anything reaches the upstream', async (_name, version, te, reason) => {
    const { status, seen } = await send(`${head(`POST /a ${version}`, [['host', 'x'], ['transfer-encoding', te]])}${chunked('abc')}`);
    expect(status).toBe(400);
    expect(seen).toEqual([]);
    const again = await rawExchange(stack.url, [Buffer.from(`${head(`POST /a ${version}`, [['host', 'x'], ['transfer-encoding', te]])}${chunked('abc')}`, 'latin1')], {
      deadlineMs: 5_000,
    });
    expect(again.responses[0]?.body).toMatchObject({ code: 'MALFORMED_REQUEST', details: { reason } });
  });

  it('a Proxy header (httpoxy) never reaches the upstream', async () => {
    const { seen } = await send(head('GET /a HTTP/1.1', [['host', 'x'], ['proxy', 'http://evil.example:8080']]));
    expect(seen[0]?.headers.proxy).toBeUndefined();
  });

  it.each([
    ['h2c on GET (curl --http2)', 'GET', 'h2c', 'Upgrade, HTTP2-Settings'],
    ['an unknown token', 'GET', 'foo', 'upgrade'],
    ['websocket on POST', 'POST', 'websocket', 'upgrade'],
  ])('%s is answered as the plain request it also is, the Upgrade dropped', async (_name, method, token, connection) => {
    const { status, seen } = await send(
      head(`${method} /assets/app.js HTTP/1.1`, [['host', 'x'], ['connection', connection], ['upgrade', token], ['http2-settings', 'AAMAAABkAAQCAAAAAAIAAAAA'], ['content-length', '0']]),
    );
    expect(status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.upgrade).toBeUndefined();
  });

  it('a WebSocket handshake with a body is refused with 400, forwarding nothing', async () => {
    const handshake = [
      ['host', 'x'],
      ['connection', 'Upgrade'],
      ['upgrade', 'websocket'],
      ['sec-websocket-version', '13'],
      ['sec-websocket-key', 'dGhlIHNhbXBsZSBub25jZQ=='],
    ] as const;
    for (const framing of [['content-length', String(SMUGGLED.length)], ['transfer-encoding', 'chunked']] as const) {
      const body = framing[0] === 'content-length' ? SMUGGLED : chunked(SMUGGLED);
      const { status, seen } = await send(`${head('GET /ws HTTP/1.1', [...handshake, framing])}${body}`);
      expect(status, framing[0]).toBe(400);
      expect(seen, framing[0]).toEqual([]);
    }
  });
});
