// The answers Node's server gives before a request reaches the gateway's handler carry the one error shape
// and an x-request-id: a request it cannot parse (400), headers too large (431), headers too slow (408), an
// unmet Expect (417). Expect: 100-continue is answered with 100 only once the request's head passed every
// check, so an upload that would be refused (413, a bad version) is never sent.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/http.js';
import { type ParsedResponse, head, post, rawExchange } from '../helpers/raw-socket.js';
import { type Stack, startStack } from '../helpers/stack.js';

const DEADLINE_MS = 5_000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ config: { limits: { bodyBytes: 4096, headersTimeoutMs: 300, requestTimeoutMs: 600 } } });
});
afterAll(() => stack.close());

const host = () => ['Host', new URL(stack.url).host] as const;

function onlyAnswer(responses: ParsedResponse[]): ParsedResponse {
  expect(responses.length).toBeGreaterThanOrEqual(1);
  const last = responses.at(-1) as ParsedResponse;
  expect(last.complete).toBe(true);
  return last;
}

describe("Node's own refusals", () => {
  it('a request line that is not HTTP: 400 MALFORMED_REQUEST as a problem body with an x-request-id, connection closed', async () => {
    const result = await rawExchange(stack.url, ['GARBAGE\r\n\r\n'], { deadlineMs: DEADLINE_MS });
    expect(result.closedBy).toBe('server');
    const res = onlyAnswer(result.responses);
    const details = expectProblem(res, 400, 'MALFORMED_REQUEST');
    expect(details.reason).toMatch(/^HPE_/);
    expect(res.headers.connection).toBe('close');
  });

  it('headers over Node\'s limit: 431 HEADERS_TOO_LARGE', async () => {
    const result = await rawExchange(stack.url, [head('GET /versions HTTP/1.1', [host(), ['x-big', 'a'.repeat(20_000)]])], { deadlineMs: DEADLINE_MS });
    expectProblem(onlyAnswer(result.responses), 431, 'HEADERS_TOO_LARGE');
  });

  it('headers that never end: 408 REQUEST_TIMEOUT after limits.headersTimeoutMs', async () => {
    const result = await rawExchange(stack.url, ['POST /rpc/getReport HTTP/1.1\r\nHost: x\r\n'], { deadlineMs: DEADLINE_MS });
    expect(result.closedBy).toBe('server');
    expectProblem(onlyAnswer(result.responses), 408, 'REQUEST_TIMEOUT');
  });

  it('a body that stops halfway on /rpc: 408 with the request\'s own x-request-id, and nothing reaches the backend', async () => {
    const before = stack.backend!.requests.length;
    const result = await rawExchange(
      stack.url,
      [head('POST /rpc/getReport HTTP/1.1', [host(), ['Content-Type', 'application/json'], ['x-dl-api-version', '2'], ['x-request-id', 'half-body'], ['Content-Length', '40']]), '{"reportId":'],
      { deadlineMs: DEADLINE_MS },
    );
    const res = onlyAnswer(result.responses);
    expectProblem(res, 408, 'REQUEST_TIMEOUT');
    expect(res.headers['x-request-id']).toBe('half-body');
    expect(stack.backend!.requests.length).toBe(before);
  });

  it('an Expect other than 100-continue: 417 EXPECTATION_FAILED', async () => {
    const result = await rawExchange(
      stack.url,
      [head('POST /rpc/getReport HTTP/1.1', [host(), ['Content-Type', 'application/json'], ['x-dl-api-version', '2'], ['Expect', 'the-moon'], ['Content-Length', '2']])],
      { deadlineMs: DEADLINE_MS },
    );
    const res = onlyAnswer(result.responses);
    const details = expectProblem(res, 417, 'EXPECTATION_FAILED');
    expect(details.received).toBe('the-moon');
  });
});

describe('Expect: 100-continue on /rpc', () => {
  const expecting = (version: string, length: number) =>
    head('POST /rpc/getEntries HTTP/1.1', [host(), ['Content-Type', 'application/json'], ['x-dl-api-version', version], ['Expect', '100-continue'], ['Content-Length', String(length)]]);

  it('a declared length over the limit: 413 without a 100 Continue first, and the connection closes', async () => {
    const result = await rawExchange(stack.url, [expecting('2', 1_000_000)], { deadlineMs: DEADLINE_MS });
    expect(result.raw).not.toContain('100 Continue');
    expect(result.closedBy).toBe('server');
    expectProblem(onlyAnswer(result.responses), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a bad version: 400 without a 100 Continue first', async () => {
    const result = await rawExchange(stack.url, [expecting('0x1', 2)], { deadlineMs: DEADLINE_MS });
    expect(result.raw).not.toContain('100 Continue');
    expectProblem(onlyAnswer(result.responses), 400, 'INVALID_API_VERSION_HEADER');
  });

  it('a request that passes: 100 Continue, then the body, then 200', async () => {
    const body = '{"pageSize":1}';
    const parts = [expecting('2', body.length), { pauseMs: 150 }, body];
    const result = await rawExchange(stack.url, parts, { deadlineMs: DEADLINE_MS, responses: 2 });
    expect(result.raw.startsWith('HTTP/1.1 100 Continue\r\n')).toBe(true);
    expect(result.responses.at(-1)?.status).toBe(200);
  });
});

describe('request header names with "_"', () => {
  it('never reach the backend (CGI-style servers would read them as the real headers)', async () => {
    const before = stack.backend!.requests.length;
    const result = await rawExchange(
      stack.url,
      [
        post('/rpc/getEntries', '{"pageSize":1}', [
          host(),
          ['Content-Type', 'application/json'],
          ['x-dl-api-version', '2'],
          ['x_dl_client_api_version', '1'],
          ['X_Forwarded_For', '6.6.6.6'],
          ['Content_Length', '999'],
          ['X_Request_Id', 'spoofed'],
          ['x-dl-org-id', 'org-kept'],
        ]),
      ],
      { deadlineMs: DEADLINE_MS, responses: 1 },
    );
    expect(result.responses[0]?.status).toBe(200);
    const seen = stack.backend!.requests.slice(before);
    expect(seen).toHaveLength(1);
    const names = Object.keys(seen[0]!.headers);
    expect(names.filter((n) => n.includes('_'))).toEqual([]);
    expect(seen[0]!.headers['x-dl-org-id']).toBe('org-kept');
  });
});

describe('X-Forwarded-* towards the backend on /rpc', () => {
  it('are the gateway\'s: For, Proto and Port from the connection, the client\'s copies gone, and no X-Forwarded-Host', async () => {
    const before = stack.backend!.requests.length;
    const res = await fetch(`${stack.url}/rpc/getEntries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dl-api-version': '2', 'x-forwarded-for': '6.6.6.6', 'x-forwarded-host': 'evil.example' },
      body: '{"pageSize":1}',
    });
    expect(res.status).toBe(200);
    const seen = stack.backend!.requests.slice(before)[0]!.headers;
    expect(seen['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen['x-forwarded-proto']).toBe('http');
    expect(seen['x-forwarded-port']).toBe(new URL(stack.url).port);
    expect(seen['x-forwarded-host']).toBeUndefined();
  });
});
