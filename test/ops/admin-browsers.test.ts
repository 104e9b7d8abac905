// The admin listener and web browsers: on loopback it answers only its own Host names (421 otherwise: DNS
// rebinding), and it refuses a POST /reload a web page could send cross-site (403), while curl, Prometheus and a
// browser on the impact page keep working.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminServer, type AdminServer } from '../../src/admin/server.js';
import { createMetrics } from '../../src/admin/metrics.js';

interface Answer {
  readonly status: number;
  readonly text: string;
}

/** One request with exactly these headers (Host included: fetch would not let a test set it). */
function send(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers, agent: false, setHost: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const servers: AdminServer[] = [];
let reloads = 0;
async function adminOn(host: string, token?: string): Promise<{ url: string; port: number }> {
  const admin = createAdminServer({
    metrics: createMetrics({ maxClients: 10, defaultMetrics: false }),
    reload: () => {
      reloads += 1;
      return { ok: true };
    },
    ...(token !== undefined && { token: () => token }),
  });
  servers.push(admin);
  const url = await admin.listen(0, host);
  return { url, port: Number(new URL(url).port) };
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('an admin listener on 127.0.0.1 without a token', () => {
  let url: string;
  let port: number;
  beforeAll(async () => {
    ({ url, port } = await adminOn('127.0.0.1'));
  });

  it.each(['127.0.0.1:PORT', 'localhost:PORT', 'LOCALHOST:PORT', '[::1]:PORT', 'localhost:9999', 'localhost'])(
    'answers Host %s (Prometheus, curl, a browser through an SSH tunnel to another local port)',
    async (host) => {
      expect((await send(url, 'GET', '/metrics', { host: host.replace('PORT', String(port)) })).status).toBe(200);
      expect((await send(url, 'GET', '/healthz', { host: host.replace('PORT', String(port)) })).status).toBe(200);
    },
  );

  it.each([['a rebound name', 'evil.example:PORT'], ['a rebound name without port', 'evil.example'], ['a subdomain of localhost', 'a.localhost.evil.example:PORT'], ['an IP beyond loopback', '10.0.0.1:PORT']])(
    'answers %s with 421 and reloads nothing',
    async (_what, host) => {
      const before = reloads;
      const headers = { host: host.replace('PORT', String(port)) };
      expect((await send(url, 'GET', '/impact', headers)).status).toBe(421);
      expect((await send(url, 'POST', '/reload', headers)).status).toBe(421);
      expect(reloads).toBe(before);
    },
  );

  it('refuses a request without Host (node:http answers 400 before the admin routes)', async () => {
    const before = reloads;
    expect((await send(url, 'POST', '/reload', {})).status).toBe(400);
    expect(reloads).toBe(before);
  });

  it('reloads on a plain POST /reload (curl -X POST), a JSON one and one from its own origin', async () => {
    const before = reloads;
    const host = `127.0.0.1:${port}`;
    expect((await send(url, 'POST', '/reload', { host })).status).toBe(200);
    expect((await send(url, 'POST', '/reload', { host, 'content-type': 'application/json' }, '{}')).status).toBe(200);
    expect((await send(url, 'POST', '/reload', { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await send(url, 'POST', '/reload', { host: `localhost:${port}`, 'sec-fetch-site': 'none' })).status).toBe(200);
    expect(reloads).toBe(before + 4);
  });

  it.each<[string, Record<string, string>, string?]>([
    ['a foreign Origin', { origin: 'http://evil.example' }],
    ['Origin null (a sandboxed page)', { origin: 'null' }],
    ['an Origin of another loopback port', { origin: 'http://127.0.0.1:1' }],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
    ['a form body without browser headers (an older browser)', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
    ['a text/plain body without browser headers', { 'content-type': 'text/plain;charset=UTF-8' }, 'x'],
    ['a multipart body without browser headers', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--\r\n'],
  ])('refuses POST /reload with %s: 403, nothing reloaded', async (_what, headers, body) => {
    const before = reloads;
    const res = await send(url, 'POST', '/reload', { host: `127.0.0.1:${port}`, ...headers }, body);
    expect(res.status).toBe(403);
    expect(res.text).toMatch(/a web page may not reload the gateway/);
    expect(reloads).toBe(before);
  });

  it('serves the impact page to a browser that navigates to it', async () => {
    const res = await send(url, 'GET', '/impact.html', { host: `localhost:${port}`, 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' });
    // No impact report in this listener: 404 from the route, not a refusal of the browser.
    expect(res.status).toBe(404);
    expect(res.text).toMatch(/impact report is not recorded/);
  });
});

describe('an admin listener beyond loopback, with a token', () => {
  it('answers any Host (its names are not known) and still refuses a cross-site reload, even with the token', async () => {
    const { url, port } = await adminOn('0.0.0.0', 'tok-1');
    const before = reloads;
    expect((await send(url, 'GET', '/metrics', { host: `gateway-0.gateway.svc:${port}` })).status).toBe(200);
    const auth = { authorization: 'Bearer tok-1' };
    expect((await send(url, 'POST', '/reload', { host: `10.0.0.7:${port}`, ...auth })).status).toBe(200);
    expect((await send(url, 'POST', '/reload', { host: `10.0.0.7:${port}`, origin: 'http://evil.example', ...auth })).status).toBe(403);
    expect((await send(url, 'POST', '/reload', { host: `10.0.0.7:${port}` })).status).toBe(401);
    expect(reloads).toBe(before + 1);
  });
});
