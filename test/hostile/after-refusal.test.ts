// What a client pipelines behind a request the gateway refuses and closes on: each refused head below is followed, on
// the same connection, by a complete request (`GET /SMUGGLED-n`, which pass-through would forward). Node parses that
// request and emits it even though the answer before it closes the connection; the gateway must leave it unserved,
// since after a refused framing its bytes may be what a backend reads as part of the refused request. A pipelined
// request behind a plain valid one is still served (the control that shows the test can see a forwarded one).
// Paths that climb above the root in some reading reach nobody either (nginx answers them 400).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Http1Upstream, startHttp1Upstream } from '../helpers/http1-upstream.js';
import { head, rawExchange } from '../helpers/raw-socket.js';
import { type Stack, startStack } from '../helpers/stack.js';

const DEADLINE_MS = 3_000;
const HOST: [string, string] = ['host', '127.0.0.1'];
const CHUNKED_END = '0\r\n\r\n';
const BODY_LIMIT = 1_024;

interface Refused {
  readonly name: string;
  /** The refused request, complete as the client frames it. */
  readonly bytes: string;
  readonly status: number;
}

const REFUSED: readonly Refused[] = [
  {
    name: 'Transfer-Encoding: identity, chunked (web)',
    bytes: head('POST /web/page HTTP/1.1', [HOST, ['transfer-encoding', 'identity, chunked']]) + CHUNKED_END,
    status: 400,
  },
  {
    name: 'Transfer-Encoding: identity, chunked (/rpc)',
    bytes: head('POST /rpc/createFolder HTTP/1.1', [HOST, ['x-dl-api-version', '2'], ['content-type', 'application/json'], ['transfer-encoding', 'identity, chunked']]) + `2\r\n{}\r\n${CHUNKED_END}`,
    status: 400,
  },
  { name: 'two Host fields', bytes: head('GET /web/page HTTP/1.1', [HOST, ['host', 'other.example']]), status: 400 },
  { name: 'a fragment in the target', bytes: head('GET /web/page#x HTTP/1.1', [HOST]), status: 400 },
  { name: 'TRACE', bytes: head('TRACE /web/page HTTP/1.1', [HOST]), status: 405 },
  {
    name: 'a body over the limit (/rpc)',
    bytes: head('POST /rpc/createFolder HTTP/1.1', [HOST, ['x-dl-api-version', '2'], ['content-type', 'application/json'], ['content-length', String(BODY_LIMIT + 2)]]) + `"${'x'.repeat(BODY_LIMIT)}"`,
    status: 413,
  },
  { name: 'Expect other than 100-continue', bytes: head('POST /web/page HTTP/1.1', [HOST, ['expect', 'teapot'], ['content-length', '2']]) + '{}', status: 417 },
];

const smuggled = (n: number) => head(`GET /SMUGGLED-${n} HTTP/1.1`, [HOST]);

let upstream: Http1Upstream;
let stack: Stack;

beforeAll(async () => {
  upstream = await startHttp1Upstream();
  stack = await startStack({ upstreamUrl: upstream.url, config: { passthrough: { enabled: true }, limits: { bodyBytes: BODY_LIMIT } } });
});

afterAll(async () => {
  await stack?.close();
  await upstream?.close();
});

/** The request lines the upstream parsed for `marker`. */
const reached = (marker: string) => upstream.requests().filter((r) => r.target.includes(marker)).map((r) => r.requestLine);

describe('a request pipelined behind a refused one', () => {
  REFUSED.forEach((refused, n) => {
    it(`is never served: ${refused.name}`, async () => {
      const result = await rawExchange(stack.url, [refused.bytes + smuggled(n)], { deadlineMs: DEADLINE_MS });
      expect(result.closedBy).toBe('server');
      expect(result.responses.map((r) => r.status)).toEqual([refused.status]);
      expect(result.responses[0]?.headers.connection).toBe('close');
      // Give a forwarded request time to land before reading the upstream's log.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(reached(`/SMUGGLED-${n}`)).toEqual([]);
      expect(reached('/web/page')).toEqual([]);
    });
  });

  it('is served behind a valid request (the control)', async () => {
    const valid = head('GET /web/valid HTTP/1.1', [HOST]);
    const result = await rawExchange(stack.url, [valid + smuggled(99)], { deadlineMs: DEADLINE_MS, responses: 2 });
    expect(result.responses.map((r) => r.status)).toEqual([200, 200]);
    expect(reached('/SMUGGLED-99')).toEqual(['GET /SMUGGLED-99 HTTP/1.1']);
  });
});

describe('a path climbing above the root', () => {
  const CLIMBING = ['/%2e%2e/%2e%2e/etc/passwd', '/web/%2e%2e/%2e%2e/etc/passwd', '/..;/etc/passwd', '/%252e%252e/etc/passwd', '/web/.%2e/.%2e/x'];

  it.each(CLIMBING)('%s reaches nobody', async (target) => {
    const result = await rawExchange(stack.url, [head(`GET ${target} HTTP/1.1`, [HOST, ['connection', 'close']])], { deadlineMs: DEADLINE_MS });
    expect(result.responses[0]?.status).toBe(404);
    expect(reached('passwd').concat(reached('/x'))).toEqual([]);
  });

  it('a dot segment that stays inside passes, as the backend resolves it', async () => {
    const result = await rawExchange(stack.url, [head('GET /web/a/%2e%2e/inside HTTP/1.1', [HOST, ['connection', 'close']])], { deadlineMs: DEADLINE_MS });
    expect(result.responses[0]?.status).toBe(200);
    expect(reached('/inside')).toEqual(['GET /web/a/%2e%2e/inside HTTP/1.1']);
  });
});
