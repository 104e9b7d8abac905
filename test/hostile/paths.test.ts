// Hostile request targets over raw sockets: traversal, encoded separators, doubled and trailing slashes,
// backslashes, overlong and non-ASCII method names, queries, absolute-form and other request-target forms.
// Every request carries a valid version header and a body the backend would accept, so only the path decides:
// the answer is 400 (Node's parser) or 404 ENDPOINT_NOT_FOUND / 405, and the backend sees nothing.
// (test/edge/errors.test.ts covers /rpc/../admin, /rpc/a%2Fb, /rpc//getReport, /rpc/getReport/ and ?x=1 through
// node:http at v2; here they are repeated byte for byte at v1 too, next to the forms node:http cannot send.)

import { describe, expect, it } from 'vitest';
import {
  type BackendTap,
  REQUEST_DEADLINE_MS,
  useHostileStack,
} from '../helpers/hostile.js';
import { HEAD } from '../helpers/calendar.js';
import { expectProblem } from '../helpers/http.js';
import { head, rawExchange } from '../helpers/raw-socket.js';
import type { Stack } from '../helpers/stack.js';

let stack: Stack;
let tap: BackendTap;
let reportId: string;

useHostileStack('reports/sales/hostile-paths', (pieces) => {
  ({ stack, tap, reportId } = pieces);
});

/** A request with `target` as its request target (bytes as given, latin1), a valid version and a valid body. */
function wire(target: string | Buffer, version: string, method = 'POST'): Buffer {
  const body = JSON.stringify({ reportId });
  const line = Buffer.concat([Buffer.from(`${method} `), Buffer.isBuffer(target) ? target : Buffer.from(target, 'latin1'), Buffer.from(' HTTP/1.1')]);
  const rest = head('', [
    ['host', '127.0.0.1'],
    ['content-type', 'application/json'],
    ['x-dl-api-version', version],
    ['content-length', String(body.length)],
  ]);
  // head('') starts with the CRLF that ends our request line.
  return Buffer.concat([line, Buffer.from(rest, 'latin1'), Buffer.from(body)]);
}

async function send(target: string | Buffer, version: string, method = 'POST') {
  const mark = tap.mark();
  const result = await rawExchange(stack.url, [wire(target, version, method)], { deadlineMs: REQUEST_DEADLINE_MS, responses: 1 });
  expect(result.closedBy, `no answer within ${REQUEST_DEADLINE_MS} ms`).not.toBe('deadline');
  return { result, res: result.responses[0]!, seen: tap.since(mark) };
}

/** 404 ENDPOINT_NOT_FOUND as a problem, or a bare 400 from the HTTP parser; in both cases nothing forwarded. */
function expectNotRouted(res: Awaited<ReturnType<typeof send>>['res'], seen: readonly unknown[]) {
  expect([400, 404]).toContain(res.status);
  if (res.status === 404) {
    const details = expectProblem(res, 404, 'ENDPOINT_NOT_FOUND');
    expect(details.availableIn).toEqual([]);
    if (typeof details.path === 'string') expect(details.path.length).toBeLessThanOrEqual(200);
  } else if (res.body !== undefined) {
    // A 400 the gateway wrote must be a problem too.
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  }
  expect(seen).toEqual([]);
}

const utf8Percent = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9_]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

const targets: [string, string | Buffer][] = [
  ['traversal', '/rpc/../admin'],
  ['traversal back into /rpc', '/rpc/../rpc/getReport'],
  ['encoded traversal', '/rpc/%2e%2e/admin'],
  ['upper-case encoded traversal', '/rpc/%2E%2E%2Fadmin'],
  ['encoded traversal back into /rpc', '/rpc/%2e%2e/rpc/getReport'],
  ['a dot segment', '/rpc/./getReport'],
  ['an encoded slash', '/rpc/a%2Fb'],
  ['an encoded slash before the method', '/rpc/%2FgetReport'],
  ['a double slash', '/rpc//getReport'],
  ['a trailing slash', '/rpc/getReport/'],
  ['a backslash', '/rpc\\getReport'],
  ['a backslash inside', '/rpc/get\\Report'],
  ['an encoded backslash', '/rpc/%5CgetReport'],
  ['an encoded letter', '/rpc/%67etReport'],
  ['an encoded NUL', '/rpc/getReport%00'],
  ['an encoded NUL then traversal', '/rpc/getReport%00/../admin'],
  ['a matrix parameter', '/rpc/getReport;x=1'],
  ['a fragment', '/rpc/getReport#top'],
  ['a query', '/rpc/getReport?x=1'],
  ['an empty query', '/rpc/getReport?'],
  ['a query with traversal', '/rpc/getReport?../../admin'],
  ['a different case', '/rpc/GetReport'],
  ['an upper-case prefix', '/RPC/getReport'],
  ['a method name of 65 characters', `/rpc/${'getReport'.padEnd(65, 'x')}`],
  ['a method name of 64 unknown characters', `/rpc/${'a'.repeat(64)}`],
  ['a method name of 10 000 characters', `/rpc/${'a'.repeat(10_000)}`],
  ['a percent-encoded UTF-8 name', `/rpc/${utf8Percent('getRéport')}`],
  ['a Cyrillic homoglyph, percent-encoded', `/rpc/${utf8Percent('getRepоrt')}`],
  ['fullwidth letters, percent-encoded', `/rpc/${utf8Percent('ｇｅｔＲｅｐｏｒｔ')}`],
  ['raw UTF-8 bytes', Buffer.from('/rpc/getRéport', 'utf8')],
  ['a raw latin1 byte', Buffer.from([...Buffer.from('/rpc/getRe'), 0xff, ...Buffer.from('port')])],
  ['a raw tab', '/rpc/get\tReport'],
  ['absolute-form to another host', 'http://evil.example/rpc/getReport'],
  ['absolute-form to the gateway itself', 'http://127.0.0.1/rpc/getReport'],
  ['absolute-form with userinfo', 'http://user:pw@evil.example/rpc/getReport'],
  ['a scheme-relative target', '//evil.example/rpc/getReport'],
  ['asterisk-form', '*'],
  ['an empty method name', '/rpc/'],
  ['the bare prefix', '/rpc'],
  ['a method name starting with a digit', '/rpc/1getReport'],
  ['a method name with a dash', '/rpc/get-report'],
  ['an Object.prototype member', '/rpc/constructor'],
  ['another Object.prototype member', '/rpc/hasOwnProperty'],
  ['__proto__', '/rpc/__proto__'],
  ['toString', '/rpc/toString'],
];

describe.each(['1', '2'])('request targets at v%s', (version) => {
  it.each(targets)('refuses %s (%s) with 400 or 404 and forwards nothing', async (_label, target) => {
    const { res, seen } = await send(target, version);
    expectNotRouted(res, seen);
  });
});

describe('request methods that are not POST', () => {
  // errors.test.ts covers GET, PUT, DELETE and PATCH through node:http; these carry a body and a valid version.
  it.each(['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'SEARCH', 'TRACE'])(
    'answers %s /rpc/getReport with 405 (or a bare 400 for methods Node does not know) and forwards nothing',
    async (method) => {
      const { res, seen } = await send('/rpc/getReport', '1', method);
      if (res.status === 405) {
        expectProblem(res, 405, 'METHOD_NOT_ALLOWED');
        expect(res.headers.allow).toBe('POST');
      } else expect(res.status).toBe(400);
      expect(seen).toEqual([]);
    },
  );

  it('closes a CONNECT to another host without forwarding anything', async () => {
    const mark = tap.mark();
    const result = await rawExchange(stack.url, ['CONNECT evil.example:443 HTTP/1.1\r\nhost: evil.example:443\r\n\r\n'], {
      deadlineMs: REQUEST_DEADLINE_MS,
    });
    expect(result.closedBy).toBe('server');
    for (const r of result.responses) expect(r.status).toBeGreaterThanOrEqual(400);
    expect(result.raw).not.toMatch(/^HTTP\/1\.1 200/);
    expect(tap.since(mark)).toEqual([]);
  });

  it('refuses a lower-case method (post) with a bare 400', async () => {
    const { res, seen } = await send('/rpc/getReport', '2', 'post');
    expect(res.status).toBe(400);
    expect(seen).toEqual([]);
  });
});

describe('the well-formed path, for contrast', () => {
  it.each(['1', '2'])('forwards POST /rpc/getReport at v%s as exactly one request to /rpc/getReport', async (version) => {
    const { res, seen } = await send('/rpc/getReport', version);
    expect(res.status).toBe(200);
    expect(seen.map((s) => [s.method, s.url])).toEqual([['POST', '/rpc/getReport']]);
  });
});

describe('hostile paths outside /rpc (the discovery routes)', () => {
  /** A bodyless request; the answer must be a 4xx problem (never a 5xx) and nothing is forwarded. */
  async function ask(method: string, target: string) {
    const mark = tap.mark();
    const result = await rawExchange(stack.url, [head(`${method} ${target} HTTP/1.1`, [['host', '127.0.0.1'], ['content-length', '0']])], {
      deadlineMs: REQUEST_DEADLINE_MS,
      responses: 1,
    });
    expect(result.closedBy).not.toBe('deadline');
    return { res: result.responses[0]!, seen: tap.since(mark) };
  }
  const expectRefused = ({ res, seen }: Awaited<ReturnType<typeof ask>>) => {
    expect(res.status, res.bodyText).toBeGreaterThanOrEqual(400);
    expect(res.status, res.bodyText).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(seen).toEqual([]);
  };

  it.each([
    ['GET', '/1/json/%ZZ'],
    ['GET', '/json/%'],
    ['GET', '/versions%'],
    ['GET', '/%2e%2e/json'],
    ['GET', '/rpc%2FgetReport'],
    ['POST', '/rpc%2FgetReport'],
    ['GET', `/${HEAD + 1}/json/`],
    ['GET', '/01/json/'],
    ['GET', `/${'9'.repeat(300)}/json`],
  ])('%s %s is a 4xx problem', async (method, target) => {
    expectRefused(await ask(method, target));
  });

  // Regression test for a defect this suite found (src/edge/discovery/discovery.ts:), since fixed.
  it.each([
    ['GET', '/%E0/json'],
    ['GET', '/%/json'],
    ['GET', '/%ZZ/json/'],
    ['GET', '/%C0%AF/json'],
    ['POST', '/%E0/json'],
  ])('%s %s is a 4xx problem, not 500', async (method, target) => {
    expectRefused(await ask(method, target));
  });
});
