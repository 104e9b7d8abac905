// Upgrades at the nginx front follow the gateway's rule: only a WebSocket handshake on GET is tunnelled; any other
// Upgrade (h2c, foo, websocket on POST) is ignored and the request answered as plain HTTP/1.1 (RFC 9110 §7.8), so
// nothing reaches the upstream through a tunnel that the gateway would not have forwarded itself. The upstream here
// grants every upgrade and then reads the connection as HTTP again, as a careless server does.

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, type RunningNginx, startNginxWith } from '../../bench/nginx.js';
import { nginxFront } from '../../src/cli/nginx-front.js';
import { type AnyUpgradeUpstream, startAnyUpgradeUpstream } from '../helpers/any-upgrade-upstream.js';
import { head, rawExchange } from '../helpers/raw-socket.js';
import { type Stack, startStack } from '../helpers/stack.js';

const nginxBinary = findNginx();
if (!nginxBinary) throw new Error('nginx not found: install the Debian package nginx-light (npm run test:all does)');

let upstream: AnyUpgradeUpstream;
let stack: Stack;
let nginx: RunningNginx;

beforeAll(async () => {
  upstream = await startAnyUpgradeUpstream();
  stack = await startStack({ upstreamUrl: upstream.url, config: { passthrough: { enabled: true, exclude: ['/metrics'] } } });
  nginx = await startNginxWith(nginxBinary, (listen) => nginxFront(stack.gateway.runtime().config, { gateway: new URL(stack.url), listen }));
});
afterAll(async () => {
  await nginx?.stop();
  await stack?.close();
  await upstream?.close();
});

type Headers = readonly (readonly [string, string])[];

/** Sends one request head (and body) to nginx and reads the answer's head only: a 101 leaves the socket open. */
function answerHead(path: string, headers: Headers, method = 'GET', body = ''): Promise<string> {
  const { hostname, port } = new URL(nginx.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let got = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer head for ${method} ${path}: ${got}`));
    }, 5_000);
    socket.on('data', (chunk: Buffer) => {
      got += chunk.toString('latin1');
      const end = got.indexOf('\r\n\r\n');
      if (end === -1) return;
      clearTimeout(timer);
      socket.destroy();
      resolve(got.slice(0, end));
    });
    socket.once('error', reject);
    socket.write(head(`${method} ${path} HTTP/1.1`, [['host', '127.0.0.1'], ...headers]) + body, 'latin1');
  });
}

const statusOf = (answerHead: string) => Number(answerHead.split(' ', 2)[1]);
const seenSince = (before: number) => upstream.requests.slice(before);

describe('an Upgrade other than a WebSocket handshake on GET, at the nginx front', () => {
  it.each([
    ['h2c', [['connection', 'upgrade'], ['upgrade', 'h2c']]],
    ['foo', [['connection', 'upgrade'], ['upgrade', 'foo']]],
    ['h2c as curl --http2 sends it', [['connection', 'Upgrade, HTTP2-Settings'], ['upgrade', 'h2c'], ['http2-settings', 'AAMAAABkAAQCAAAAAAIAAAAA']]],
    ['websocket without Connection: upgrade', [['upgrade', 'websocket']]],
  ] as const)('%s on a plain asset path gets the plain answer, and the upstream sees no Upgrade', async (_name, headers) => {
    const before = upstream.requests.length;
    const answer = await answerHead('/assets/app.js', headers);
    expect(statusOf(answer)).toBe(200);
    expect(answer).not.toMatch(/^upgrade:/im);
    const seen = seenSince(before);
    expect(seen.map((r) => [r.method, r.url, r.upgraded, r.tunnelled])).toEqual([['GET', '/assets/app.js', false, false]]);
    expect(seen[0]?.headers.upgrade).toBeUndefined();
    expect(seen[0]?.headers['http2-settings']).toBeUndefined();
  });

  it.each(['h2c', 'foo'])('after Upgrade: %s, requests on the same connection are served one by one, never tunnelled', async (protocol) => {
    const before = upstream.requests.length;
    const result = await rawExchange(
      nginx.url,
      [
        head('GET /assets/app.js HTTP/1.1', [['host', '127.0.0.1'], ['connection', 'upgrade'], ['upgrade', protocol]]),
        head('GET /metrics HTTP/1.1', [['host', '127.0.0.1']]),
        head('POST /rpc/getWorkbook HTTP/1.1', [['host', '127.0.0.1'], ['content-type', 'application/json'], ['content-length', '2'], ['connection', 'close']]) + '{}',
      ],
      { deadlineMs: 5_000 },
    );
    expect(result.closedBy).toBe('server');
    // The asset; the excluded prefix and the unversioned /rpc call answered by the gateway itself.
    expect(result.responses.map((r) => r.status)).toEqual([200, 404, 400]);
    expect(seenSince(before).map((r) => [r.url, r.upgraded, r.tunnelled])).toEqual([['/assets/app.js', false, false]]);
  });

  it('a WebSocket handshake on POST is served as a plain POST', async () => {
    const before = upstream.requests.length;
    const answer = await answerHead('/ws', [['connection', 'upgrade'], ['upgrade', 'websocket'], ['sec-websocket-version', '13'], ['sec-websocket-key', 'dGhlIHNhbXBsZSBub25jZQ=='], ['content-length', '0']], 'POST');
    expect(statusOf(answer)).toBe(200);
    expect(seenSince(before).map((r) => [r.method, r.url, r.upgraded, r.headers.upgrade])).toEqual([['POST', '/ws', false, undefined]]);
  });

  it('a WebSocket handshake with a body goes to the gateway, which refuses it: nothing reaches the upstream', async () => {
    const before = upstream.requests.length;
    const answer = await answerHead('/ws', [['connection', 'upgrade'], ['upgrade', 'websocket'], ['content-length', '5']], 'GET', 'hello');
    expect(statusOf(answer)).toBe(400);
    expect(answer).toMatch(/^content-type: application\/problem\+json/im);
    expect(seenSince(before)).toEqual([]);
  });
});

describe('a WebSocket handshake on GET, at the nginx front', () => {
  it.each(['websocket', 'WebSocket'])('Upgrade: %s is tunnelled straight to the upstream', async (protocol) => {
    const before = upstream.requests.length;
    const answer = await answerHead('/assets/app.js', [['connection', 'keep-alive, Upgrade'], ['upgrade', protocol]]);
    expect(statusOf(answer)).toBe(101);
    const seen = seenSince(before);
    expect(seen.map((r) => [r.method, r.url, r.upgraded, r.headers.upgrade, r.headers.connection])).toEqual([['GET', '/assets/app.js', true, protocol, 'upgrade']]);
    expect(seen[0]?.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('one whose Connection header lists another header goes through the gateway, which tunnels it', async () => {
    const before = upstream.requests.length;
    const answer = await answerHead('/assets/app.js', [['connection', 'upgrade, x-hop'], ['x-hop', 'secret'], ['upgrade', 'websocket']]);
    expect(statusOf(answer)).toBe(101);
    const seen = seenSince(before);
    expect(seen.map((r) => [r.url, r.upgraded, r.headers.upgrade, r.headers['x-hop']])).toEqual([['/assets/app.js', true, 'websocket', undefined]]);
    expect(seen[0]?.headers['x-request-id']).not.toMatch(/^[0-9a-f]{32}$/);
  });
});
