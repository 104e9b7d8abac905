// The nginx front (`nginx-front`): real nginx runs the generated file in front of a gateway and a web upstream.
// Plain web traffic goes straight to the upstream under the pass-through's header rules; /rpc/ in every
// spelling, the gateway's routes, the excluded prefixes and whatever nginx cannot prove plain go to the gateway,
// so the grammar-generated targets of test/hostile never reach a kept-away path.

import { once } from 'node:events';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { findNginx, type RunningNginx, startNginxWith } from '../../bench/nginx.js';
import { freePort } from '../../bench/free-port.js';
import { nginxFront } from '../../src/cli/nginx-front.js';
import { parseConfig } from '../../src/config/load.js';
import { CALENDAR, type Stack, startStack } from '../helpers/stack.js';
import { head, post, rawExchange } from '../helpers/raw-socket.js';
import { keptAwayBy, readings, requestTarget } from '../helpers/request-targets.js';
import { ASSETS, PAGE, type WebUpstream, startWebUpstream } from '../helpers/web-upstream.js';

const nginxBinary = findNginx();
if (!nginxBinary) throw new Error('nginx not found: install the Debian package nginx-light (npm run test:all does)');

const EXCLUDED = ['/metrics', '/internal/admin'];
/** Plain paths made of the words that matter, in any case: what nginx decides alone. */
const plainTarget = fc
  .array(fc.constantFrom('rpc', 'RPC', 'Rpc', 'metrics', 'Metrics', 'internal', 'admin', 'ADMIN', 'assets', 'app.js', '.well-known', 'x'), { minLength: 1, maxLength: 4 })
  .chain((segments) => fc.constantFrom(`/${segments.join('/')}`, `/${segments.join('/')}/`, `/${segments.join('/')}?q=/rpc`));
const keptAway = keptAwayBy(EXCLUDED);

let web: WebUpstream;
let stack: Stack;
let nginx: RunningNginx;
const gatewayPort = () => new URL(stack.url).port;
const nginxPort = () => new URL(nginx.url).port;

/** Starts nginx with the file `nginx-front` prints for the running gateway's config. */
const startFront = (config = stack.gateway.runtime().config) =>
  startNginxWith(nginxBinary, (listen) => nginxFront(config, { gateway: new URL(stack.url), listen }));

beforeAll(async () => {
  web = await startWebUpstream();
  stack = await startStack({ upstreamUrl: web.url, config: { passthrough: { enabled: true, exclude: EXCLUDED } } });
  nginx = await startFront();
});
afterAll(async () => {
  await nginx?.stop();
  await stack?.close();
  await web?.close();
});

async function get(path: string, headers: readonly (readonly [string, string])[] = [['host', '127.0.0.1']]) {
  const result = await rawExchange(nginx.url, [Buffer.from(head(`GET ${path} HTTP/1.1`, [...headers, ['connection', 'close']]), 'latin1')], {
    deadlineMs: 5_000,
  });
  expect(result.closedBy).not.toBe('deadline');
  return result.responses[0];
}

/** Which hop sent a request the upstream saw: nginx's X-Forwarded-Port is its own port, the gateway's is the gateway's. */
const sentBy = (request: { headers: Record<string, unknown> }) =>
  request.headers['x-forwarded-port'] === nginxPort() ? 'nginx' : request.headers['x-forwarded-port'] === gatewayPort() ? 'gateway' : 'unknown';

describe('web traffic through the nginx front', () => {
  it('serves the page and its assets byte for byte, straight from the upstream', async () => {
    const before = web.requests.length;
    const page = await fetch(`${nginx.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(PAGE);
    for (const [path, asset] of Object.entries(ASSETS)) {
      const res = await fetch(`${nginx.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(asset.type);
      expect(Buffer.from(await res.arrayBuffer()).equals(asset.body), path).toBe(true);
      expect(res.headers.get('x-request-id'), path).toMatch(/^[0-9a-f]{32}$/);
    }
    const seen = web.requests.slice(before);
    expect(seen.map((r) => r.url).sort()).toEqual(['/', ...Object.keys(ASSETS)].sort());
    expect(seen.map(sentBy)).toEqual(seen.map(() => 'nginx'));
  });

  it('clears the gateway-owned, hop-by-hop and "_" headers, and sets X-Forwarded-* and the request id as the gateway does', async () => {
    const res = await get('/echo-headers', [
      ['host', 'bi.example'],
      ['x-dl-client-api-version', '1'],
      ['x_dl_client_api_version', '1'],
      ['x-dl-api-version', '1'],
      ['x-forwarded-for', '6.6.6.6'],
      ['x-forwarded-host', 'evil.example'],
      ['x-forwarded-proto', 'https'],
      ['forwarded', 'for=6.6.6.6'],
      ['x-real-ip', '6.6.6.6'],
      ['x-original-url', '/rpc/deleteWorkbook'],
      ['x-rewrite-url', '/rpc/deleteWorkbook'],
      ['proxy-authorization', 'Basic secret'],
      ['te', 'trailers'],
      ['x-request-id', 'trace-42'],
      ['x-kept', 'yes'],
    ]);
    expect(res?.status).toBe(200);
    const echoed = res?.body as Record<string, string>;
    for (const name of ['x-dl-client-api-version', 'x_dl_client_api_version', 'x-dl-api-version', 'forwarded', 'x-real-ip', 'x-original-url', 'x-rewrite-url', 'proxy-authorization', 'te']) {
      expect(echoed[name], name).toBeUndefined();
    }
    expect(echoed).toMatchObject({
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-host': 'bi.example',
      'x-forwarded-proto': 'http',
      'x-forwarded-port': nginxPort(),
      'x-request-id': 'trace-42',
      'x-kept': 'yes',
    });
    expect(res?.headers['x-request-id']).toBe('trace-42');
  });

  it('sends a request whose Connection header lists another header to the gateway, which drops that header', async () => {
    const before = web.requests.length;
    const res = await get('/echo-headers', [['host', '127.0.0.1'], ['connection', 'x-secret-hop'], ['x-secret-hop', 'do-not-forward']]);
    expect(res?.status).toBe(200);
    expect((res?.body as Record<string, string>)['x-secret-hop']).toBeUndefined();
    expect(web.requests.slice(before).map(sentBy)).toEqual(['gateway']);
  });

  it('carries a WebSocket straight to the upstream, both ways', async () => {
    const ws = new WebSocket(`${nginx.url.replace('http', 'ws')}/ws`);
    await once(ws, 'open');
    ws.send('hello');
    const [data] = await once(ws, 'message');
    expect(String(data)).toContain('hello');
    ws.close();
    await once(ws, 'close');
    expect(web.requests.filter((r) => r.url === '/ws').map(sentBy)).toEqual(['nginx']);
  });
});

describe('what the nginx front keeps for the gateway', () => {
  it.each(['/rpc/getWorkbook', '/RPC/getWorkbook', '/rpc', '/Rpc/', '/metrics', '/METRICS/x', '/internal/admin/users'])(
    '%s goes to the gateway, never straight to the upstream',
    async (path) => {
      const before = web.requests.length;
      await get(path);
      expect(web.requests.slice(before).filter((r) => sentBy(r) === 'nginx')).toEqual([]);
    },
  );

  it('an unknown method under /rpc/ gets the gateway\'s own 404', async () => {
    const result = await rawExchange(nginx.url, [post('/rpc/noSuchMethod', '{}', [['x-dl-api-version', 'latest'], ['connection', 'close']])], { deadlineMs: 5_000 });
    expect(result.responses[0]?.status).toBe(404);
    expect(result.responses[0]?.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it("the gateway's own routes and probes answer through nginx", async () => {
    const versions = await fetch(`${nginx.url}/versions`);
    expect(versions.status).toBe(200);
    expect(((await versions.json()) as { versions: unknown[] }).versions.length).toBeGreaterThan(0);
    expect((await fetch(`${nginx.url}/healthz`)).status).toBe(200);
  });

  it('grammar-generated request-targets never reach /rpc or an excluded prefix, however the upstream reads them', async () => {
    const hops = { nginx: 0, gateway: 0, unknown: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof(requestTarget, plainTarget), async (url) => {
        const before = web.requests.length;
        const res = await get(url);
        expect(res?.status, url).toBeGreaterThanOrEqual(200);
        for (const request of web.requests.slice(before)) {
          hops[sentBy(request)]++;
          for (const path of readings(request.url)) expect(keptAway(path), `${url} reached the upstream as ${request.url} (from ${sentBy(request)})`).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
    // Both hops were exercised: plain targets went straight to the upstream, the others through the gateway.
    expect(hops.nginx).toBeGreaterThan(20);
    expect(hops.gateway).toBeGreaterThan(20);
    expect(hops.unknown).toBe(0);
  });

  it('two Host fields get 400, forwarding nothing', async () => {
    const before = web.requests.length;
    const res = await get('/assets/app.css', [['host', '127.0.0.1'], ['Host', 'evil.example']]);
    expect(res?.status).toBe(400);
    expect(web.requests.slice(before)).toEqual([]);
  });
});

describe('an upstream that is down', () => {
  it('gets the gateway\'s 502 problem from nginx, with a request id', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const { config } = parseConfig({ listen: { host: '127.0.0.1', port: 0 }, upstream: { url: closed }, lifecycle: CALENDAR, passthrough: { enabled: true } });
    const front = await startFront(config);
    try {
      const res = await fetch(`${front.url}/assets/app.css`);
      expect(res.status).toBe(502);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const body = (await res.json()) as { code: string; requestId: string };
      expect(body.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(body.requestId).toBe(res.headers.get('x-request-id'));
    } finally {
      await front.stop();
    }
  });
});

describe('configs with no nginx front', () => {
  it.each([
    ['the embedded backend', { upstream: { url: 'embedded' } }, /embedded/],
    ['pass-through off', { upstream: { url: 'http://127.0.0.1:1' }, passthrough: { enabled: false } }, /passthrough\.enabled is false/],
  ])('%s is refused with the reason', (_name, doc, reason) => {
    const { config } = parseConfig({ listen: { host: '127.0.0.1', port: 0 }, lifecycle: CALENDAR, ...doc });
    expect(() => nginxFront(config, { gateway: new URL('http://127.0.0.1:8080'), listen: '80' })).toThrow(reason);
  });
});
