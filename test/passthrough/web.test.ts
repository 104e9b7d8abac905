// Pass-through: everything outside /rpc/ and the gateway's own routes reaches the upstream as sent, under the
// same header rules as /rpc; the versioned API is never reachable through it; upstream failures are the /rpc
// problems; a client that leaves cancels its upstream request.

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultUpstream } from '../helpers/fault-upstream.js';
import { expectProblem, send } from '../helpers/http.js';
import { serve } from '../../src/cli/serve.js';
import { configDoc, memoryLog, sampleValue, tempDir, yamlOf } from '../helpers/serve-process.js';
import { head, rawExchange } from '../helpers/raw-socket.js';
import { pino } from 'pino';
import { parseConfig } from '../../src/config/load.js';
import { shippedContract } from '../../src/contract/index.js';
import { createRuntime } from '../../src/gateway/index.js';
import { HEAD } from '../helpers/calendar.js';
import { CALENDAR, type Stack, rpc, startStack } from '../helpers/stack.js';
import { ASSETS, PAGE, type WebUpstream, startWebUpstream } from '../helpers/web-upstream.js';

const ON = { passthrough: { enabled: true } };

describe('pass-through in front of the web side of the service', () => {
  let web: WebUpstream;
  let stack: Stack;
  beforeAll(async () => {
    web = await startWebUpstream();
    stack = await startStack({ upstreamUrl: web.url, config: ON });
  });
  afterAll(async () => {
    await stack.close();
    await web.close();
  });

  it('serves a static page and each of its assets byte for byte, with their content types', async () => {
    const page = await fetch(`${stack.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toBe(PAGE);
    const links = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(links.sort()).toEqual(Object.keys(ASSETS).sort());
    for (const link of links) {
      const res = await fetch(new URL(link, `${stack.url}/`));
      expect(res.status, link).toBe(200);
      expect(res.headers.get('content-type'), link).toBe(ASSETS[link]!.type);
      expect(res.headers.get('cache-control'), link).toBe('max-age=60');
      expect(Buffer.from(await res.arrayBuffer()).equals(ASSETS[link]!.body), link).toBe(true);
      expect(res.headers.get('x-request-id'), link).toBeTruthy();
    }
  });

  it('passes the upstream\'s own answers through, 404s included, and HEAD without a body', async () => {
    const missing = await fetch(`${stack.url}/no/such/page?x=1`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('upstream: not found');
    expect(web.requests.at(-1)?.url).toBe('/no/such/page?x=1');
    const headOnly = await fetch(`${stack.url}/assets/logo.png`, { method: 'HEAD' });
    expect(headOnly.status).toBe(200);
    expect(headOnly.headers.get('content-length')).toBe(String(ASSETS['/assets/logo.png']!.body.length));
  });

  it('keeps an upload\'s Content-Encoding: the body streams as the client encoded it (only /rpc decodes)', async () => {
    const res = await fetch(`${stack.url}/echo-headers`, {
      method: 'POST',
      headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' },
      body: gzipSync('{"a":1}'),
    });
    expect(res.status).toBe(200);
    const echoed = (await res.json()) as Record<string, string>;
    expect(echoed['content-encoding']).toBe('gzip');
    expect(echoed['content-length']).toBe(String(gzipSync('{"a":1}').length));
  });

  it('strips a spoofed x-dl-client-api-version (every spelling) and the other gateway-owned and hop-by-hop headers', async () => {
    const res = await send(stack.url, {
      method: 'GET',
      path: '/echo-headers',
      headers: {
        'x-dl-client-api-version': '1',
        x_dl_client_api_version: '1',
        'X-DL-Client-API-Version': '1',
        'x-dl-api-version': '1',
        'x-forwarded-for': '6.6.6.6',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        forwarded: 'for=6.6.6.6',
        'x-real-ip': '6.6.6.6',
        connection: 'keep-alive, x-secret-hop',
        'x-secret-hop': 'do-not-forward',
        te: 'trailers',
        'proxy-authorization': 'Basic cHJveHk6c2VjcmV0',
        authorization: 'Bearer user-token',
        'x-dl-org-id': 'org-1',
        cookie: 'session=abc',
        'x-request-id': 'req-pass-1',
      },
    });
    expect(res.status).toBe(200);
    const seen = res.body as Record<string, string>;
    for (const name of ['x-dl-client-api-version', 'x_dl_client_api_version', 'x-dl-api-version', 'forwarded', 'x-real-ip', 'x-secret-hop', 'te', 'proxy-authorization']) {
      expect(seen, name).not.toHaveProperty(name);
    }
    expect(JSON.stringify(seen)).not.toContain('6.6.6.6');
    expect(JSON.stringify(seen)).not.toContain('evil.example');
    // What the backend needs passes; the gateway says who the client is and which id the request has.
    expect(seen).toMatchObject({
      authorization: 'Bearer user-token',
      'x-dl-org-id': 'org-1',
      cookie: 'session=abc',
      'x-request-id': 'req-pass-1',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': new URL(stack.url).host,
      host: new URL(web.url).host,
    });
    // The upstream's hop-by-hop answer headers stay on its hop.
    expect(res.headers).not.toHaveProperty('x-upstream-hop');
    expect(String(res.headers['keep-alive'] ?? '')).not.toContain('max=7');
    expect(res.headers['x-request-id']).toBe('req-pass-1');
  });

  it('passes a chunked upload (no content-length) and a bodiless DELETE through', async () => {
    const parts = ['first part, ', 'second part, ', 'the end'];
    const res = await send(stack.url, { method: 'POST', path: '/upload', headers: { 'content-type': 'text/plain' }, chunks: parts });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: parts.join('').length, sha256: createHash('sha256').update(parts.join('')).digest('hex') });
    expect(web.requests.at(-1)?.headers['transfer-encoding']).toBe('chunked');
    const removed = await send(stack.url, { method: 'DELETE', path: '/assets/app.css' });
    expect(removed.status).toBe(200);
    expect(web.requests.at(-1)?.method).toBe('DELETE');
  });

  it.each([
    '/rpc',
    '/rpc?method=getReport',
    '/RPC/getReport',
    '/Rpc/getReport',
    '/%72pc/getReport',
    '/%2572pc/getReport',
    '//rpc/getReport',
    '/./rpc/getReport',
    '/assets/../rpc/getReport',
    '/assets/%2e%2e/rpc/getReport',
    '/assets%2f..%2frpc/getReport',
    '/assets\\..\\rpc\\getReport',
    '/rpc;jsessionid=1/getReport',
    '/%20rpc/getReport',
    '/rpc%00/getReport',
    '/rpc./getReport',
    '/rpc%09/getReport',
    '//evil.example/rpc/getReport',
    '//evil.example/',
  ])('never passes %s (a way to the backend\'s /rpc) through', async (path) => {
    const before = web.requests.length;
    const res = await send(stack.url, { method: 'POST', path, headers: { 'content-type': 'application/json', 'x-dl-api-version': '2' }, body: '{"reportId":"x"}' });
    expect([400, 404]).toContain(res.status);
    if (res.status === 404) expectProblem(res, 404, 'ENDPOINT_NOT_FOUND');
    expect(web.requests.slice(before).map((r) => r.url)).toEqual([]);
  });

  it('still answers /rpc itself, and the probes, whatever passes through', async () => {
    const res = await rpc(stack.url, 'getReport', { reportId: 'x' }, '2');
    // The web upstream is no DataLens backend: /rpc wraps its plain-text 404 in the problem body.
    expectProblem(res, 404, 'UPSTREAM_ERROR');
    expect(web.requests.at(-1)).toMatchObject({ method: 'POST', url: '/rpc/getReport' });
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    expect(web.requests.some((r) => r.url === '/healthz')).toBe(false);
  });

  it('serves a POST /rpc/<method> that asks for an h2c upgrade as the plain request it also is', async () => {
    const res = await send(stack.url, {
      method: 'POST',
      path: '/rpc/getReport',
      headers: { connection: 'Upgrade, HTTP2-Settings', upgrade: 'h2c', 'http2-settings': 'AAMAAABkAAQCAAAAAAIAAAAA', 'content-type': 'application/json', 'x-dl-api-version': 'nope' },
      body: '{}',
    });
    expectProblem(res, 400, 'INVALID_API_VERSION_HEADER');
  });

  it('cancels the upstream request when the client leaves in the middle of a streamed answer', async () => {
    const path = `/download?bytes=${256 * 1024 * 1024}`;
    const closed = new Promise<string>((resolve) => web.events.once('request-closed', resolve));
    await new Promise<void>((resolve, reject) => {
      const req = request(`${stack.url}${path}`, (res) => {
        res.once('data', () => {
          res.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
      req.once('error', reject);
      req.end();
    });
    expect(await closed).toBe(path);
    // Far from all of it was sent: the upstream stopped when the gateway's request went away.
    expect(web.downloadSent()).toBeLessThan(128 * 1024 * 1024);
  });

  it('cancels the upstream request when the client leaves before the answer', async () => {
    const closed = new Promise<string>((resolve) => web.events.once('request-closed', resolve));
    const arrived = new Promise<void>((resolve) => {
      const check = () => (web.requests.some((r) => r.url === '/never') ? resolve() : setImmediate(check));
      check();
    });
    const req = request(`${stack.url}/never`);
    req.on('error', () => {});
    req.end();
    await arrived;
    req.destroy();
    expect(await closed).toBe('/never');
  });
});

describe('the gateway\'s own routes under a prefix', () => {
  let web: WebUpstream;
  let stack: Stack;
  beforeAll(async () => {
    web = await startWebUpstream();
    stack = await startStack({ upstreamUrl: web.url, config: { ...ON, routes: { prefix: '/_gateway' } } });
  });
  afterAll(async () => {
    await stack.close();
    await web.close();
  });

  it('serves versions, documents, changelog and reference pages under the prefix', async () => {
    const versions = await fetch(`${stack.url}/_gateway/versions`);
    expect(versions.status).toBe(200);
    expect(await versions.json()).toMatchObject({ latest: HEAD });
    for (const path of ['/_gateway/json/', '/_gateway/json', '/_gateway/1/json/', '/_gateway/2/json']) {
      const doc = await fetch(`${stack.url}${path}`);
      expect(doc.status, path).toBe(200);
      expect(((await doc.json()) as { openapi: string }).openapi, path).toBe('3.1.0');
    }
    const changelog = await fetch(`${stack.url}/_gateway/changelog`);
    expect(changelog.headers.get('content-type')).toMatch(/^text\/markdown/);
    for (const path of ['/_gateway/1/', '/_gateway/2/', '/_gateway/latest/']) {
      const page = await fetch(`${stack.url}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type'), path).toMatch(/^text\/html/);
    }
    expect(web.requests.filter((r) => r.url.startsWith('/_gateway'))).toEqual([]);
  });

  it('leaves the unprefixed paths to the service, and keeps the probes where they were', async () => {
    for (const path of ['/versions', '/json/', '/1/json/', '/changelog', '/1/', '/latest/']) {
      const res = await fetch(`${stack.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toBe('upstream: not found');
    }
    expect(web.requests.map((r) => r.url)).toEqual(expect.arrayContaining(['/versions', '/json/', '/1/json/', '/changelog', '/1/', '/latest/']));
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${stack.url}/_gateway/healthz`)).status).toBe(404);
  });
});

describe('pass-through and the prefix on reload', () => {
  it('take effect for the requests after a reload', async () => {
    const web = await startWebUpstream();
    const path = join(tempDir('dlgw-pass-reload-'), 'gateway.yaml');
    const write = (extra: Record<string, unknown>) => writeFileSync(path, yamlOf(configDoc({ upstreamUrl: web.url, extra })));
    write({ passthrough: { enabled: true } });
    const serving = await serve({ configPath: path, logger: memoryLog('silent').logger, env: {}, watch: false });
    try {
      expect((await fetch(`${serving.url}/versions`)).status).toBe(200);
      expect(await (await fetch(`${serving.url}/assets/app.css`)).text()).toBe(ASSETS['/assets/app.css']!.body.toString());

      write({ passthrough: { enabled: true }, routes: { prefix: '/_gw' } });
      expect(serving.reload()).toEqual({ ok: true });
      expect(await (await fetch(`${serving.url}/versions`)).text()).toBe('upstream: not found');
      expect((await fetch(`${serving.url}/_gw/versions`)).status).toBe(200);

      write({ passthrough: { enabled: false }, routes: { prefix: '/_gw' } });
      expect(serving.reload()).toEqual({ ok: true });
      expectProblem(await send(serving.url, { method: 'GET', path: '/assets/app.css' }), 404, 'ENDPOINT_NOT_FOUND');
    } finally {
      await serving.stop();
      await web.close();
    }
  });
});

describe('pass-through across config generations', () => {
  it('leaves no listener on the server per generation (HPM subscribes one to its close event)', async () => {
    const web = await startWebUpstream();
    const stack = await startStack({ upstreamUrl: web.url, config: ON });
    try {
      const loaded = parseConfig({ listen: { host: '127.0.0.1', port: 0 }, lifecycle: CALENDAR, upstream: { url: web.url }, ...ON });
      const counts: number[] = [];
      for (let i = 0; i < 12; i++) {
        const next = createRuntime({ loaded, contract: shippedContract, upstreamUrl: web.url, clock: () => new Date(), logger: pino({ level: 'silent' }), metrics: stack.metrics });
        await stack.gateway.swap(next).retire();
        expect((await fetch(`${stack.url}/assets/app.js`)).status).toBe(200);
        counts.push(stack.gateway.server.listenerCount('close'));
      }
      expect(new Set(counts.slice(1)).size, counts.join(' ')).toBe(1);
    } finally {
      await stack.close();
      await web.close();
    }
  });
});

describe('pass-through switched off', () => {
  let web: WebUpstream;
  let stack: Stack;
  beforeAll(async () => {
    web = await startWebUpstream();
    stack = await startStack({ upstreamUrl: web.url, config: { passthrough: { enabled: false }, routes: { prefix: '/_gateway' } } });
  });
  afterAll(async () => {
    await stack.close();
    await web.close();
  });

  it('answers 404 outside /rpc and the own routes, and forwards nothing', async () => {
    for (const path of ['/', '/assets/app.css', '/versions']) {
      const res = await send(stack.url, { method: 'GET', path });
      expectProblem(res, 404, 'ENDPOINT_NOT_FOUND');
    }
    expect((await fetch(`${stack.url}/_gateway/versions`)).status).toBe(200);
    expect(web.requests).toEqual([]);
  });
});

describe('paths excluded from pass-through', () => {
  let web: WebUpstream;
  let stack: Stack;
  beforeAll(async () => {
    web = await startWebUpstream();
    stack = await startStack({ upstreamUrl: web.url, config: { passthrough: { enabled: true, exclude: ['/metrics', '/internal/admin'] } } });
  });
  afterAll(async () => {
    await stack.close();
    await web.close();
  });

  it.each(['/metrics', '/metrics/', '/METRICS?x=1', '/%6detrics', '/assets/../metrics', '/metrics;a', '/internal/admin', '/internal/admin/users', '/internal//admin', '/Internal/Admin/x'])(
    'never passes %s through', async (path) => {
      const before = web.requests.length;
      expectProblem(await send(stack.url, { method: 'GET', path }), 404, 'ENDPOINT_NOT_FOUND');
      expect(web.requests.slice(before)).toEqual([]);
    },
  );

  it('passes neighbouring paths through', async () => {
    for (const path of ['/metricsx', '/internal/other', '/internal', '/assets/metrics']) {
      const res = await send(stack.url, { method: 'GET', path });
      expect(res.text, path).toBe('upstream: not found');
    }
  });
});

describe('pass-through in the metrics and the request log', () => {
  it('counts each request by status, and upstream failures with the /rpc ones; one log line each, without the query', async () => {
    const web = await startWebUpstream();
    const log = memoryLog();
    const stack = await startStack({ upstreamUrl: web.url, config: { ...ON, upstream: { timeoutMs: 300 } }, logger: log.logger });
    try {
      await fetch(`${stack.url}/assets/app.css?token=secret`).then((r) => r.text());
      await fetch(`${stack.url}/no/such/page`).then((r) => r.text());
      await fetch(`${stack.url}/never`).then((r) => r.text());
      const text = await stack.metrics.registry.metrics();
      expect(sampleValue(text, 'dlgw_passthrough_requests_total', { status: '200' })).toBe(1);
      expect(sampleValue(text, 'dlgw_passthrough_requests_total', { status: '404' })).toBe(1);
      expect(sampleValue(text, 'dlgw_passthrough_requests_total', { status: '504' })).toBe(1);
      expect(sampleValue(text, 'dlgw_upstream_errors_total', { code: 'UPSTREAM_TIMEOUT' })).toBe(1);
      const lines = log.entries().filter((e) => e.passthrough);
      expect(lines.map((e) => [e.httpMethod, e.path, e.status, e.error])).toEqual([
        ['GET', '/assets/app.css', 200, undefined],
        ['GET', '/no/such/page', 404, undefined],
        ['GET', '/never', 504, 'UPSTREAM_TIMEOUT'],
      ]);
      expect(log.text()).not.toContain('secret');
    } finally {
      await stack.close();
      await web.close();
    }
  });
});

describe('pass-through when the upstream fails', () => {
  it('answers 502 UPSTREAM_UNAVAILABLE when the upstream refuses the connection', async () => {
    const refuse = await startFaultUpstream('refuse');
    const stack = await startStack({ upstreamUrl: refuse.url, config: ON });
    try {
      const res = await send(stack.url, { method: 'GET', path: '/dashboards/1' });
      expect(expectProblem(res, 502, 'UPSTREAM_UNAVAILABLE').reason).toBe('ECONNREFUSED');
    } finally {
      await stack.close();
      await refuse.close();
    }
  });

  it.each(['garbage', 'reset', 'html'] as const)('answers 502 UPSTREAM_UNAVAILABLE or passes the answer when the upstream sends %s', async (mode) => {
    const fault = await startFaultUpstream(mode);
    const stack = await startStack({ upstreamUrl: fault.url, config: ON });
    try {
      const res = await send(stack.url, { method: 'GET', path: '/dashboards/1' });
      // An HTML page is a fine answer for a web path; the broken ones are the /rpc path's 502.
      if (mode === 'html') expect(res.status).toBeLessThan(500);
      else expectProblem(res, 502, 'UPSTREAM_UNAVAILABLE');
    } finally {
      await stack.close();
      await fault.close();
    }
  });

  it('cuts the client\'s answer when the upstream resets in the middle of its body, so it never looks complete', async () => {
    const fault = await startFaultUpstream('reset-mid-body');
    const stack = await startStack({ upstreamUrl: fault.url, config: ON });
    try {
      const outcome = await new Promise<string>((resolve) => {
        const req = request(`${stack.url}/export.json`, (res) => {
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-length']).toBe('1000');
          let got = 0;
          res.on('data', (c: Buffer) => (got += c.length));
          res.on('end', () => resolve(`complete with ${got} bytes`));
          res.on('error', () => resolve(`cut after ${got} bytes`));
          res.on('aborted', () => resolve(`cut after ${got} bytes`));
        });
        req.on('error', () => resolve('cut'));
        req.end();
      });
      expect(outcome).toMatch(/^cut/);
      // Counted as the upstream's fault, with the status the client was sent, not as a client that left (499);
      // accounted before the client's answer is cut.
      const text = await stack.metrics.registry.metrics();
      expect(sampleValue(text, 'dlgw_upstream_errors_total', { code: 'UPSTREAM_UNAVAILABLE' })).toBe(1);
      expect(sampleValue(text, 'dlgw_passthrough_requests_total', { status: '200' })).toBe(1);
      expect(sampleValue(text, 'dlgw_passthrough_requests_total', { status: '499' })).toBeUndefined();
    } finally {
      await stack.close();
      await fault.close();
    }
  });

  it('answers 504 UPSTREAM_TIMEOUT when the upstream says nothing within upstream.timeoutMs, and cancels it', async () => {
    const web = await startWebUpstream();
    const stack = await startStack({ upstreamUrl: web.url, config: { ...ON, upstream: { timeoutMs: 300 } } });
    try {
      const closed = new Promise<string>((resolve) => web.events.once('request-closed', resolve));
      const res = await send(stack.url, { method: 'GET', path: '/never' });
      expect(expectProblem(res, 504, 'UPSTREAM_TIMEOUT').timeoutMs).toBe(300);
      expect(await closed).toBe('/never');
    } finally {
      await stack.close();
      await web.close();
    }
  });

  it('closes a slow-header (slowloris) client on a pass-through path with the listener\'s limits', async () => {
    const web = await startWebUpstream();
    const stack = await startStack({ upstreamUrl: web.url, config: ON, limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    try {
      // Head never finished: the listener's header timeout ends it, and nothing reaches the upstream.
      const result = await rawExchange(stack.url, [head('GET /assets/app.css HTTP/1.1', [['host', '127.0.0.1']]).slice(0, -2), { pauseMs: 5_000 }], {
        deadlineMs: 10_000,
      });
      expect(result.closedBy).toBe('server');
      if (result.responses[0]) expect(result.responses[0].status).toBe(408);
      expect(web.requests).toEqual([]);
    } finally {
      await stack.close();
      await web.close();
    }
  });
});
