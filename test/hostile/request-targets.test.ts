// Request-targets generated from the RFC 3986 / RFC 9112 grammar (pchar, pct-encoded, query) and the printable
// characters outside it, sent raw to a gateway with pass-through on: whatever reading a backend makes of a
// forwarded target (the raw path, a WHATWG URL parser's, percent-decoded, lower-cased), it never lands on /rpc or
// on an excluded prefix, nor once percent-decoded and parsed again (a decoded `#` or `?` ends the path there).
// A target with `#` gets 400 (a list of spellings missed it: WHATWG parsers cut there).
// Also: headers that route a backend instead of the target never go through, and two Host fields get 400.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/http.js';
import { head, post, rawExchange } from '../helpers/raw-socket.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { startWebUpstream, type WebUpstream } from '../helpers/web-upstream.js';
import { keptAwayBy, readings, requestTarget as target } from '../helpers/request-targets.js';

const EXCLUDED = ['/metrics', '/internal/admin'];
const keptAway = keptAwayBy(EXCLUDED);

let web: WebUpstream;
let stack: Stack;
beforeAll(async () => {
  web = await startWebUpstream();
  stack = await startStack({ upstreamUrl: web.url, config: { passthrough: { enabled: true, exclude: EXCLUDED } } });
});
afterAll(async () => {
  await stack?.close();
  await web?.close();
});

async function get(path: string, headers: readonly (readonly [string, string])[] = [['host', '127.0.0.1']]) {
  const result = await rawExchange(stack.url, [Buffer.from(head(`GET ${path} HTTP/1.1`, [...headers, ['connection', 'close']]), 'latin1')], {
    deadlineMs: 5_000,
  });
  expect(result.closedBy).not.toBe('deadline');
  return result.responses[0];
}

describe('request-targets from the grammar', () => {
  it('never reach /rpc or an excluded prefix, however the backend reads them; a "#" gets 400', async () => {
    await fc.assert(
      fc.asyncProperty(target, async (url) => {
        const before = web.requests.length;
        const res = await get(url);
        const seen = web.requests.slice(before);
        for (const request of seen) for (const path of readings(request.url)) expect(keptAway(path), `${url} reached the backend as ${request.url}`).toBe(false);
        if (url.includes('#')) {
          expect(res?.status, url).toBe(400);
          expect(seen).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it.each(['/metrics#x', '/internal/admin#/', '/assets#/../rpc/getWorkbook'])('refuses %s with 400 MALFORMED_REQUEST, forwarding nothing', async (url) => {
    const before = web.requests.length;
    const res = await get(url);
    expect(res?.status).toBe(400);
    expect(res?.body).toMatchObject({ code: 'MALFORMED_REQUEST', details: { reason: 'fragment-in-target' } });
    expect(web.requests.slice(before)).toEqual([]);
  });

  it.each([
    '/metrics%23x',
    '/metrics%3f',
    '/METRICS%3Fa=1',
    '/metrics%2fx',
    '/metrics%2523x',
    '/metrics%253f',
    '/metrics%252fx',
    '/internal/admin%23',
    '/internal%2fadmin%3f/x',
    '/assets/%252e%252e/metrics',
    '/rpc%23/x',
    '/rpc%3f/getWorkbook',
    '/rpc%2523/x',
    '/rpc%253f/x',
    '/rpc%252fgetWorkbook',
    '/assets/%2e%2e%2frpc/x',
    '/assets%23/../rpc/x',
  ])('%s: a percent-encoded "#", "?", "/" or "." (encoded once or twice) never passes an exclusion or the /rpc block', async (url) => {
    const before = web.requests.length;
    const res = await get(url);
    expect([400, 404]).toContain(res?.status);
    expect(web.requests.slice(before)).toEqual([]);
  });

  it('still passes a percent-encoded path that leads nowhere kept away', async () => {
    const before = web.requests.length;
    await get('/assets/a%20b%3f.css');
    expect(web.requests.slice(before).map((r) => r.url)).toEqual(['/assets/a%20b%3f.css']);
  });

  it('refuses POST /rpc#/getWorkbook with 400, forwarding nothing', async () => {
    const before = web.requests.length;
    const body = '{"workbookId":"wb_1"}';
    const result = await rawExchange(stack.url, [post('/rpc#/getWorkbook', body, [['x-dl-api-version', 'latest'], ['connection', 'close']])], { deadlineMs: 5_000 });
    expect(result.responses[0]?.status).toBe(400);
    expect(result.responses[0]?.body?.code).toBe('MALFORMED_REQUEST');
    expect(web.requests.slice(before)).toEqual([]);
  });
});

describe('headers that route a backend past the request-target', () => {
  const ROUTING = ['x-original-url', 'x-rewrite-url', 'x-original-uri', 'x-forwarded-uri', 'x-envoy-original-path'];
  it('never reach the backend, on pass-through and on /rpc', async () => {
    const before = web.requests.length;
    const headers = ROUTING.map((name) => [name, '/rpc/deleteWorkbook'] as const);
    await get('/assets/app.css', [['host', '127.0.0.1'], ...headers]);
    await rawExchange(stack.url, [post('/rpc/getWorkbook', '{"workbookId":"wb_1"}', [['x-dl-api-version', 'latest'], ['connection', 'close'], ...headers])], { deadlineMs: 5_000 });
    const seen = web.requests.slice(before);
    expect(seen.map((r) => r.url)).toEqual(['/assets/app.css', '/rpc/getWorkbook']);
    for (const request of seen) for (const name of ROUTING) expect(request.headers[name], `${name} on ${request.url}`).toBeUndefined();
  });
});

describe('two Host fields', () => {
  it.each(['/assets/app.css', '/versions'])('get 400 on %s, forwarding nothing', async (url) => {
    const before = web.requests.length;
    const res = await get(url, [['host', '127.0.0.1'], ['Host', 'evil.example']]);
    expect(res?.status).toBe(400);
    expect(res?.body).toMatchObject({ code: 'MALFORMED_REQUEST', details: { reason: 'duplicate-host' } });
    expect(web.requests.slice(before)).toEqual([]);
  });

  it('get 400 on /rpc, forwarding nothing', async () => {
    const before = web.requests.length;
    const result = await rawExchange(stack.url, [post('/rpc/getWorkbook', '{"workbookId":"wb_1"}', [['host', '127.0.0.1'], ['host', 'other'], ['x-dl-api-version', 'latest'], ['connection', 'close']])], { deadlineMs: 5_000 });
    const res = result.responses[0];
    expect(res?.status).toBe(400);
    expectProblem({ status: res!.status, headers: res!.headers as never, body: res!.body, text: res!.bodyText } as never, 400, 'MALFORMED_REQUEST');
    expect(web.requests.slice(before)).toEqual([]);
  });
});
