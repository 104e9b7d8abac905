// The nginx front follows the gateway's header rules: the same request, sent once to the gateway alone and once to
// nginx with the generated file in front of it (the gateway trusting nginx: listen.trustedProxies), reaches the
// upstream with the same Host and X-Forwarded-For/-Host/-Proto, and X-Forwarded-Port naming the port the client
// connected to; on nginx's direct path, on its way through the gateway, and on /rpc. The client connects from
// 127.0.0.2, so the gateway (trusting 127.0.0.1, nginx) believes nginx's X-Forwarded-* and never the client's.

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, type RunningNginx, startNginxWith } from '../../bench/nginx.js';
import { nginxFront } from '../../src/cli/nginx-front.js';
import { type AnyUpgradeUpstream, type SeenRequest, startAnyUpgradeUpstream } from '../helpers/any-upgrade-upstream.js';
import { head } from '../helpers/raw-socket.js';
import { type Stack, startStack } from '../helpers/stack.js';

const nginxBinary = findNginx();
if (!nginxBinary) throw new Error('nginx not found: install the Debian package nginx-light (npm run test:all does)');

/** The client's address: another loopback address than nginx's, which the gateway trusts (127.0.0.1). */
const CLIENT = '127.0.0.2';

let upstream: AnyUpgradeUpstream;
let stack: Stack;
let nginx: RunningNginx;

beforeAll(async () => {
  upstream = await startAnyUpgradeUpstream();
  stack = await startStack({
    upstreamUrl: upstream.url,
    config: { listen: { host: '127.0.0.1', port: 0, trustedProxies: ['127.0.0.1'] }, passthrough: { enabled: true, exclude: ['/metrics'] } },
  });
  nginx = await startNginxWith(nginxBinary, (listen) => nginxFront(stack.gateway.runtime().config, { gateway: new URL(stack.url), listen }));
});
afterAll(async () => {
  await nginx?.stop();
  await stack?.close();
  await upstream?.close();
});

type Headers = readonly (readonly [string, string])[];
interface Probe {
  readonly method: string;
  readonly path: string;
  readonly headers: Headers;
  readonly body?: string;
}

/** What a client puts in to pose as someone else: neither hop may pass it on. */
const SPOOFED: Headers = [
  ['x-forwarded-for', '6.6.6.6'],
  ['x-forwarded-host', 'evil.example'],
  ['x-forwarded-proto', 'https'],
  ['x-forwarded-port', '1'],
];

let probes = 0;

/** Sends `probe` to `base` and returns what the upstream received for it (found by its x-request-id). */
function through(base: string, probe: Probe): Promise<SeenRequest> {
  const id = `probe-${++probes}`;
  const { hostname, port } = new URL(base);
  const body = probe.body ?? '';
  const headers: Headers = [['host', 'bi.example'], ['x-request-id', id], ...probe.headers, ...(body ? [['content-length', String(Buffer.byteLength(body))] as const] : [])];
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress: CLIENT });
    const timer = setTimeout(() => done(new Error(`${probe.method} ${probe.path} never reached the upstream through ${base}`)), 5_000);
    const poll = setInterval(() => {
      const seen = upstream.requests.find((r) => r.headers['x-request-id'] === id);
      if (seen) done(undefined, seen);
    }, 5);
    function done(error?: Error, seen?: SeenRequest) {
      clearTimeout(timer);
      clearInterval(poll);
      socket.destroy();
      if (seen) resolve(seen);
      else reject(error);
    }
    socket.once('error', (e) => done(e));
    socket.write(head(`${probe.method} ${probe.path} HTTP/1.1`, headers) + body, 'latin1');
  });
}

const FIELDS = ['host', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port'] as const;
const fieldsOf = (seen: SeenRequest) => Object.fromEntries(FIELDS.map((name) => [name, seen.headers[name]]));
const portOf = (url: string) => new URL(url).port;

const PASS_THROUGH: readonly [string, Probe, 'nginx' | 'gateway'][] = [
  ['a plain asset', { method: 'GET', path: '/assets/app.js', headers: SPOOFED }, 'nginx'],
  ['an upload', { method: 'POST', path: '/upload', headers: [...SPOOFED, ['content-type', 'text/plain']], body: 'hello' }, 'nginx'],
  ['a path nginx cannot prove plain', { method: 'GET', path: '/assets/%61pp.js', headers: SPOOFED }, 'gateway'],
  ['a Connection header naming another header', { method: 'GET', path: '/assets/app.js', headers: [...SPOOFED, ['connection', 'x-hop'], ['x-hop', '1']] }, 'gateway'],
  ['a WebSocket handshake', { method: 'GET', path: '/ws', headers: [...SPOOFED, ['connection', 'upgrade'], ['upgrade', 'websocket'], ['sec-websocket-version', '13'], ['sec-websocket-key', 'dGhlIHNhbXBsZSBub25jZQ==']] }, 'nginx'],
];

describe('the backend gets the same Host and X-Forwarded-* from the gateway alone and through the nginx front', () => {
  it.each(PASS_THROUGH)('pass-through: %s', async (_name, probe) => {
    const alone = await through(stack.url, probe);
    const fronted = await through(nginx.url, probe);
    expect(fieldsOf(alone)).toEqual({
      host: new URL(upstream.url).host,
      'x-forwarded-for': CLIENT,
      'x-forwarded-host': 'bi.example',
      'x-forwarded-proto': 'http',
      'x-forwarded-port': portOf(stack.url),
    });
    expect(fieldsOf(fronted)).toEqual({ ...fieldsOf(alone), 'x-forwarded-port': portOf(nginx.url) });
  });

  it('/rpc: Host and X-Forwarded-For/-Proto/-Port the same, and no X-Forwarded-Host, either way', async () => {
    const probe: Probe = { method: 'POST', path: '/rpc/getWorkbook', headers: [...SPOOFED, ['content-type', 'application/json'], ['x-dl-api-version', 'latest']], body: '{"workbookId":"wb_1"}' };
    const alone = await through(stack.url, probe);
    const fronted = await through(nginx.url, probe);
    expect(fieldsOf(alone)).toEqual({
      host: new URL(upstream.url).host,
      'x-forwarded-for': CLIENT,
      'x-forwarded-host': undefined,
      'x-forwarded-proto': 'http',
      'x-forwarded-port': portOf(stack.url),
    });
    expect(fieldsOf(fronted)).toEqual({ ...fieldsOf(alone), 'x-forwarded-port': portOf(nginx.url) });
  });

  it('each pass-through case took the route it names (straight from nginx, or through the gateway)', async () => {
    for (const [name, probe, route] of PASS_THROUGH) {
      const { hostname, port } = new URL(nginx.url);
      // Without the client's own id, nginx's direct path sends its 32-hex $request_id and the gateway a UUID.
      const seen = await new Promise<SeenRequest>((resolve, reject) => {
        const before = upstream.requests.length;
        const socket = connect({ port: Number(port), host: hostname, localAddress: CLIENT });
        const body = probe.body ?? '';
        const headers: Headers = [['host', 'bi.example'], ...probe.headers, ...(body ? [['content-length', String(body.length)] as const] : [])];
        const timer = setTimeout(() => reject(new Error(`${name}: nothing reached the upstream`)), 5_000);
        const poll = setInterval(() => {
          const got = upstream.requests[before];
          if (!got) return;
          clearTimeout(timer);
          clearInterval(poll);
          socket.destroy();
          resolve(got);
        }, 5);
        socket.write(head(`${probe.method} ${probe.path} HTTP/1.1`, headers) + body, 'latin1');
      });
      expect(/^[0-9a-f]{32}$/.test(String(seen.headers['x-request-id'])) ? 'nginx' : 'gateway', name).toBe(route);
    }
  });
});
