// Hostile request bodies, sent byte for byte over raw sockets: every case asserts what the client got (status,
// code, within a deadline) and what the reference backend saw (nothing, or exactly the bytes it should), and
// the gateway still serves a normal request afterwards. test/edge/errors.test.ts already proves the plain
// 400/413/415 answers at v2 through fetch; these go further (v1, broken framing, stalls, depth, keys, escapes).

import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BackendTap,
  CHECK_INTERVAL_MARGIN_MS,
  HOSTILE_LIMITS,
  REQUEST_DEADLINE_MS,
  createV1Report,
  expectNodeRefusal,
  tapBackend,
  useHostileStack,
} from '../helpers/hostile.js';
import { expectProblem } from '../helpers/http.js';
import { type Part, head, post, rawExchange } from '../helpers/raw-socket.js';
import { type Stack, startStack } from '../helpers/stack.js';
import { REPORT_DESCRIPTION } from '../helpers/head-shapes.js';

const VERSIONS = ['1', '2'] as const;

let stack: Stack;
let tap: BackendTap;
/** A report written at v1: the follow-up reads use it, and v1/v2 calls on it would succeed if forwarded. */
let reportId: string;

useHostileStack('reports/sales/hostile-bodies', (pieces) => {
  ({ stack, tap, reportId } = pieces);
});

/** Sends raw parts, waits for `responses` answers (0: for the close), bounded; answers what the backend saw meanwhile. */
async function exchange(parts: readonly Part[], options: { responses?: number; deadlineMs?: number } = {}) {
  const mark = tap.mark();
  const result = await rawExchange(stack.url, parts, {
    deadlineMs: options.deadlineMs ?? REQUEST_DEADLINE_MS,
    ...(options.responses !== 0 && { responses: options.responses ?? 1 }),
  });
  expect(result.closedBy, `no answer within ${options.deadlineMs ?? REQUEST_DEADLINE_MS} ms; got ${JSON.stringify(result.raw.slice(0, 200))}`).not.toBe('deadline');
  return { result, res: result.responses[0], seen: tap.since(mark) };
}

const rpcHeaders = (version: string, more: [string, string][] = []): [string, string][] => [['x-dl-api-version', version], ...more];

describe('malformed JSON', () => {
  const cases: [string, string | Buffer][] = [
    ['an unterminated object', '{"reportId": "rep_x"'],
    ['a missing value', '{"reportId": }'],
    ['single quotes', "{'reportId':'rep_x'}"],
    ['a trailing comma', '{"reportId":"rep_x",}'],
    ['two objects back to back', '{"reportId":"rep_x"}{"reportId":"rep_y"}'],
    ['trailing text', '{"reportId":"rep_x"} and more'],
    ['a NaN literal', '{"reportId":NaN}'],
    ['a comment', '// a comment\n{"reportId":"rep_x"}'],
    ['a raw NUL inside a string', '{"reportId":"rep\u0000x"}'],
    ['a raw newline inside a string', '{"reportId":"rep\nx"}'],
    ['an invalid escape', '{"reportId":"rep\\x41"}'],
    ['an unterminated string', '{"reportId":"rep_x}'],
    ['a bare exponent', '{"n":1e}'],
    ['only whitespace', ' \r\n\t '],
    ['an overlong UTF-8 sequence', Buffer.concat([Buffer.from('{"reportId":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')])],
    ['a lone continuation byte', Buffer.concat([Buffer.from('{"reportId":"'), Buffer.from([0x80]), Buffer.from('"}')])],
    ['a UTF-16LE body', Buffer.from('{"reportId":"rep_x"}', 'utf16le')],
    ['a UTF-8 encoded surrogate (CESU-8)', Buffer.concat([Buffer.from('{"reportId":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')])],
  ];
  for (const version of VERSIONS) {
    it.each(cases)(`refuses %s at v${version} with 400 INVALID_JSON and forwards nothing`, async (_label, body) => {
      const { res, seen } = await exchange([post('/rpc/getReport', body, rpcHeaders(version))]);
      const details = expectProblem(res!, 400, 'INVALID_JSON');
      expect(details.reason ?? '').toEqual(expect.any(String));
      expect(res!.headers['x-dl-api-version']).toBe(version);
      expect(seen).toEqual([]);
    });
  }

  // RFC 8259 §8.1: senders MUST NOT add a BOM; a parser MAY ignore it. The gateway ignores it when it checks the
  // body, but at the head version it forwards the original bytes, BOM included, and the backend refuses them.
  // Regression test for a defect this suite found (src/edge/rpc/body.ts), since fixed.
  it('treats a body that starts with a UTF-8 BOM the same way at v2 as at v1: never forwards bytes the backend cannot parse', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ reportId }))]);
    const { res, seen } = await exchange([post('/rpc/getReport', body, rpcHeaders('2'))]);
    if (res!.status === 400) {
      expectProblem(res!, 400, 'INVALID_JSON');
      expect(seen).toEqual([]);
    } else {
      expect(res!.status).toBe(200);
      expect(seen.map((s) => s.body)).toEqual([JSON.stringify({ reportId })]);
    }
  });
});

describe('empty and non-object bodies', () => {
  for (const version of VERSIONS) {
    it(`refuses an empty content-length body at v${version} with 400 INVALID_JSON`, async () => {
      const { res, seen } = await exchange([post('/rpc/createReport', '', rpcHeaders(version))]);
      expectProblem(res!, 400, 'INVALID_JSON');
      expect(seen).toEqual([]);
    });

    it(`refuses an empty chunked body (only the last chunk) at v${version} with 400 INVALID_JSON`, async () => {
      const { res, seen } = await exchange([
        head('POST /rpc/createReport HTTP/1.1', [
          ['host', '127.0.0.1'],
          ['content-type', 'application/json'],
          ['x-dl-api-version', version],
          ['transfer-encoding', 'chunked'],
        ]) + '0\r\n\r\n',
      ]);
      expectProblem(res!, 400, 'INVALID_JSON');
      expect(seen).toEqual([]);
    });
  }

  // errors.test.ts covers getReport at v2; here the translated (v1) path and the write methods.
  const scalars = ['1', '"x"', 'null', '[]', 'true', '1e999', '[{"reportId":"rep_x"}]', '-0'];
  for (const method of ['createReport', 'updateReport', 'getReport']) {
    it.each(scalars)(`refuses the JSON value %s as a v1 ${method} body with 400 VALIDATION_ERROR at the root`, async (body) => {
      const { res, seen } = await exchange([post(`/rpc/${method}`, body, rpcHeaders('1'))]);
      const details = expectProblem(res!, 400, 'VALIDATION_ERROR');
      expect(details).toEqual([expect.objectContaining({ code: 'invalid_type', expected: 'object', path: [] })]);
      expect(seen).toEqual([]);
    });
  }
});

describe('content types that are not JSON', () => {
  const types: [string, string | Buffer][] = [
    ['application/x-www-form-urlencoded', 'reportId=rep_x'],
    ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="reportId"\r\n\r\nrep_x\r\n--xyz--\r\n'],
    ['text/json', '{"reportId":"rep_x"}'],
    ['application/jsonx', '{"reportId":"rep_x"}'],
    ['application/json, text/plain', '{"reportId":"rep_x"}'],
    ['application/xml', '<reportId>rep_x</reportId>'],
    ['json', '{"reportId":"rep_x"}'],
    ['application/ json', '{"reportId":"rep_x"}'],
    ['*/*', '{"reportId":"rep_x"}'],
  ];
  for (const version of VERSIONS) {
    it.each(types)(`refuses content-type %j at v${version} with 415 and forwards nothing`, async (type, body) => {
      const { res, seen } = await exchange([post('/rpc/getReport', body, rpcHeaders(version, [['content-type', type]]))]);
      const details = expectProblem(res!, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(details.received).toBe(type);
      expect(seen).toEqual([]);
    });
  }

  it('decodes a gzip-compressed body (content-encoding: gzip) and forwards it decoded (test/edge/request-encoding.test.ts has the rest)', async () => {
    const body = gzipSync(JSON.stringify({ reportId }));
    const { res, seen } = await exchange([post('/rpc/getReport', body, rpcHeaders('1', [['content-encoding', 'gzip']]))]);
    expect(res!.status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it('refuses a UTF-16 body declared as application/json; charset=utf-16 with 400 INVALID_JSON', async () => {
    const body = Buffer.from(JSON.stringify({ reportId }), 'utf16le');
    const { res, seen } = await exchange([
      post('/rpc/getReport', body, rpcHeaders('2', [['content-type', 'application/json; charset=utf-16']])),
    ]);
    expectProblem(res!, 400, 'INVALID_JSON');
    expect(seen).toEqual([]);
  });
});

describe(`bodies over limits.bodyBytes (${HOSTILE_LIMITS.bodyBytes})`, () => {
  const over = `{"reportId":"${'x'.repeat(HOSTILE_LIMITS.bodyBytes)}"}`;

  for (const version of VERSIONS) {
    it(`refuses a declared content-length over the limit at v${version} with 413 and Connection: close`, async () => {
      const { res, seen } = await exchange([post('/rpc/getReport', over, rpcHeaders(version))]);
      expect(expectProblem(res!, 413, 'PAYLOAD_TOO_LARGE').limitBytes).toBe(HOSTILE_LIMITS.bodyBytes);
      expect(res!.headers.connection).toBe('close');
      expect(seen).toEqual([]);
    });
  }

  it('refuses a declared content-length of a terabyte at once, without waiting for a byte of it', async () => {
    const { result, res, seen } = await exchange([
      head('POST /rpc/getReport HTTP/1.1', [
        ['host', '127.0.0.1'],
        ['content-type', 'application/json'],
        ['x-dl-api-version', '2'],
        ['content-length', String(1024 ** 4)],
      ]),
    ]);
    expectProblem(res!, 413, 'PAYLOAD_TOO_LARGE');
    expect(result.elapsedMs).toBeLessThan(1_000);
    expect(seen).toEqual([]);
  });

  it('answers Expect: 100-continue with an over-limit content-length by 413 (the body need never be sent)', async () => {
    const { result, seen } = await exchange(
      [
        head('POST /rpc/getReport HTTP/1.1', [
          ['host', '127.0.0.1'],
          ['content-type', 'application/json'],
          ['x-dl-api-version', '1'],
          ['expect', '100-continue'],
          ['content-length', '5000000'],
        ]),
      ],
      { responses: 0 },
    );
    // Node may send an interim 100 first; the final answer is the 413, and the connection is then closed.
    const final = result.responses.filter((r) => r.status >= 200);
    expect(final).toHaveLength(1);
    expectProblem(final[0]!, 413, 'PAYLOAD_TOO_LARGE');
    expect(seen).toEqual([]);
  });

  it('refuses a chunked body whose one chunk declares a megabyte, once more than the limit has arrived', async () => {
    const { res, seen } = await exchange([
      head('POST /rpc/getReport HTTP/1.1', [
        ['host', '127.0.0.1'],
        ['content-type', 'application/json'],
        ['x-dl-api-version', '2'],
        ['transfer-encoding', 'chunked'],
      ]) + `100000\r\n{"reportId":"${'y'.repeat(HOSTILE_LIMITS.bodyBytes + 100)}`,
    ]);
    expectProblem(res!, 413, 'PAYLOAD_TOO_LARGE');
    expect(res!.headers.connection).toBe('close');
    expect(seen).toEqual([]);
  });

  it('refuses a chunked body of many 1-byte chunks once their sum passes the limit', async () => {
    const text = `{"reportId":"${'z'.repeat(HOSTILE_LIMITS.bodyBytes)}"}`;
    const chunked = [...text].map((c) => `1\r\n${c}\r\n`).join('');
    const { res, seen } = await exchange([
      head('POST /rpc/getReport HTTP/1.1', [
        ['host', '127.0.0.1'],
        ['content-type', 'application/json'],
        ['x-dl-api-version', '1'],
        ['transfer-encoding', 'chunked'],
      ]) + chunked,
    ]);
    expectProblem(res!, 413, 'PAYLOAD_TOO_LARGE');
    expect(seen).toEqual([]);
  });

  it('never parses an over-limit body as requests: a request hidden inside it does not reach the backend', async () => {
    const victim = await createV1Report(stack, 'reports/sales/victim-413');
    const hidden = post('/rpc/deleteReport', JSON.stringify({ reportId: victim }), [['x-dl-api-version', '1']]).toString('latin1');
    const body = `{"pad":"${'p'.repeat(HOSTILE_LIMITS.bodyBytes)}"}` + '\r\n\r\n' + hidden;
    const { result, res, seen } = await exchange([post('/rpc/getReport', body, rpcHeaders('1'))], { responses: 0 });
    expectProblem(res!, 413, 'PAYLOAD_TOO_LARGE');
    expect(result.responses).toHaveLength(1);
    expect(seen).toEqual([]);
    const still = await exchange([post('/rpc/getReport', JSON.stringify({ reportId: victim }), rpcHeaders('1'))]);
    expect(still.res!.status).toBe(200);
  });
});

describe('requests hidden in the body of a refused request', () => {
  // The gateway refuses these before reading the body; Node must still skip the body by its framing, so a request
  // written inside it is never parsed, and the properly framed request after it is served on the same connection.
  const refusals: [string, string, [string, string][], number][] = [
    ['an unknown path (404)', '/rpc/noSuchMethod', [['x-dl-api-version', '1']], 404],
    ['a malformed version (400)', '/rpc/getReport', [['x-dl-api-version', '1e0']], 400],
    ['a missing version (400)', '/rpc/getReport', [], 400],
    ['a text/plain body (415)', '/rpc/getReport', [['x-dl-api-version', '1'], ['content-type', 'text/plain']], 415],
    ['a body that is not JSON (400)', '/rpc/getReport', [['x-dl-api-version', '2']], 400],
  ];
  it.each(refusals)('after %s, only the next framed request is served', async (_label, path, headers, status) => {
    const victim = await createV1Report(stack, 'reports/sales/victim-hidden');
    const hidden = post('/rpc/deleteReport', JSON.stringify({ reportId: victim }), [['x-dl-api-version', '1']]);
    const next = post('/rpc/getReport', JSON.stringify({ reportId: victim }), [['x-dl-api-version', '1']]);
    const mark = tap.mark();
    const { result } = await exchange([Buffer.concat([post(path, hidden, headers), next])], { responses: 2 });
    expect(result.responses.map((r) => r.status)).toEqual([status, 200]);
    expect(result.responses[1]!.body.id).toBe(victim);
    expect(tap.since(mark).map((s) => [s.url, s.body])).toEqual([['/rpc/getReport', JSON.stringify({ reportId: victim })]]);
  });
});

describe('broken framing', () => {
  it('answers content-length larger than the body (the client then stalls) with 408 or a close within requestTimeoutMs, forwarding nothing', async () => {
    const runs = VERSIONS.map((version) =>
      exchange(
        [
          head('POST /rpc/createReport HTTP/1.1', [
            ['host', '127.0.0.1'],
            ['content-type', 'application/json'],
            ['x-dl-api-version', version],
            ['content-length', '200'],
          ]) + '{"key":"reports/sales/stalled","config":{}',
        ],
        { responses: 0, deadlineMs: HOSTILE_LIMITS.requestTimeoutMs + CHECK_INTERVAL_MARGIN_MS + 1_000 },
      ),
    );
    for (const { result, seen } of await Promise.all(runs)) {
      expect(result.closedBy).not.toBe('deadline');
      expect(result.serverClosedAtMs).toBeLessThan(HOSTILE_LIMITS.requestTimeoutMs + CHECK_INTERVAL_MARGIN_MS);
      expect(result.serverClosedAtMs).toBeGreaterThanOrEqual(HOSTILE_LIMITS.requestTimeoutMs - 100);
      // Node writes a bare 408; a gateway problem would do too. Nothing else is acceptable.
      for (const r of result.responses) expect(r.status).toBe(408);
      expect(seen).toEqual([]);
    }
  });

  it('answers a client that stalls mid-body (chunked, no last chunk) with 408 or a close within requestTimeoutMs, forwarding nothing', async () => {
    const started = head('POST /rpc/updateReport HTTP/1.1', [
      ['host', '127.0.0.1'],
      ['content-type', 'application/json'],
      ['x-dl-api-version', '1'],
      ['transfer-encoding', 'chunked'],
    ]);
    const { result, seen } = await exchange(
      [started, '10\r\n{"reportId":"rep\r\n', { pauseMs: 300 }, '9\r\n_x","desc\r\n', { pauseMs: 300 }, '5\r\nripti\r\n'],
      { responses: 0, deadlineMs: HOSTILE_LIMITS.requestTimeoutMs + CHECK_INTERVAL_MARGIN_MS + 1_000 },
    );
    expect(result.serverClosedAtMs).toBeLessThan(HOSTILE_LIMITS.requestTimeoutMs + CHECK_INTERVAL_MARGIN_MS);
    for (const r of result.responses) expect(r.status).toBe(408);
    expect(seen).toEqual([]);
  });

  // Node's parser meets the bytes after the declared body as the next request, refuses them with a bare 400 and
  // closes the connection, possibly before the gateway has answered the first request: that answer may be lost,
  // but whatever arrives is well-formed, and the backend sees at most exactly the declared prefix.
  /** Waits for the gateway to settle (one more request through it), then answers what the backend saw since `mark`. */
  async function settledSince(mark: number) {
    const settle = await exchange([post('/rpc/getReport', '{"reportId":"rep_settle"}', rpcHeaders('2'))]);
    expect(settle.res!.status).toBe(404);
    return tap.since(mark).filter((s) => s.body !== '{"reportId":"rep_settle"}');
  }

  it('answers content-length smaller than the body (a prefix that is not JSON) with 400s, forwarding nothing', async () => {
    const mark = tap.mark();
    const wire =
      head('POST /rpc/getReport HTTP/1.1', [
        ['host', '127.0.0.1'],
        ['content-type', 'application/json'],
        ['x-dl-api-version', '1'],
        ['content-length', '10'],
      ]) + JSON.stringify({ reportId });
    const { result } = await exchange([wire], { responses: 0 });
    expect(result.closedBy).toBe('server');
    const [first, ...rest] = result.responses;
    // Either the gateway's answer to the 10-byte prefix and then Node's refusal of the rest, or Node's alone.
    if (rest.length) expectProblem(first!, 400, 'INVALID_JSON');
    expectNodeRefusal(result.responses.at(-1));
    expect(result.responses.length).toBeLessThanOrEqual(2);
    expect(await settledSince(mark)).toEqual([]);
  });

  it('answers content-length smaller than the body (a JSON prefix): the backend sees at most exactly the prefix', async () => {
    const mark = tap.mark();
    const first = JSON.stringify({ reportId: 'rep_cl_prefix' });
    const wire =
      head('POST /rpc/getReport HTTP/1.1', [
        ['host', '127.0.0.1'],
        ['content-type', 'application/json'],
        ['x-dl-api-version', '2'],
        ['content-length', String(first.length)],
      ]) +
      first +
      ',"extra":"garbage that is no request"}';
    const { result } = await exchange([wire], { responses: 0 });
    expect(result.closedBy).toBe('server');
    const [answer, ...rest] = result.responses;
    if (rest.length) expectProblem(answer!, 404, 'NOT_FOUND');
    expectNodeRefusal(result.responses.at(-1));
    const seen = await settledSince(mark);
    expect(seen.length).toBeLessThanOrEqual(1);
    for (const s of seen) expect([s.url, s.body]).toEqual(['/rpc/getReport', first]);
  });

  it('frames each pipelined request by its own content-length: the backend gets two requests, each with exactly its bytes', async () => {
    const a = JSON.stringify({ reportId });
    const b = JSON.stringify({ reportId, description: 'pipelined' });
    const { result, seen } = await exchange(
      [Buffer.concat([post('/rpc/getReport', a, rpcHeaders('2')), post('/rpc/updateReport', b, rpcHeaders('1'))])],
      { responses: 2 },
    );
    expect(result.responses.map((r) => r.status)).toEqual([200, 200]);
    expect(result.responses[1]!.body.description).toBe('pipelined');
    // Both requests are handled as soon as they are parsed, so the backend may see them in either order.
    expect(seen.map((s) => [s.url, s.body]).sort()).toEqual([
      ['/rpc/getReport', a],
      // Forwarded translated to the head, whose name for the description may differ from version 1's.
      ['/rpc/updateReport', JSON.stringify({ reportId, [REPORT_DESCRIPTION]: 'pipelined' })],
    ]);
  });
});

describe('deep nesting and many keys', () => {
  let big: Stack;
  let bigTap: BackendTap;
  beforeAll(async () => {
    // A 1 MiB body limit, so that 100 000 levels fit inside it; the depth limit stays 32.
    big = await startStack({ config: { limits: { ...HOSTILE_LIMITS, bodyBytes: 1_048_576 } } });
    bigTap = tapBackend(big);
  });
  afterAll(async () => {
    bigTap.stop();
    await big.close();
  });

  const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  const tooDeep = (res: Parameters<typeof expectProblem>[0]) => {
    const details = expectProblem(res, 400, 'VALIDATION_ERROR');
    expect(details).toEqual([expect.objectContaining({ code: 'custom', path: [], params: expect.objectContaining({ reason: 'too_deep' }) })]);
  };

  it.each([
    ['an array 100 000 deep', '2', deepArray(100_000)],
    ['an object 100 000 deep', '2', deepObject(100_000)],
    ['a v1 config 100 000 deep', '1', `{"key":"reports/sales/deep","config":${deepObject(100_000)}}`],
    ['a v2 config 100 000 deep', '2', `{"workbookId":"wb_demo_sandbox","config":${deepArray(100_000).replace(/^\[/, '{"x":[').replace(/\]$/, ']}')}}`],
  ])('refuses %s within the body limit, at v%s, with 400 too_deep, quickly', async (_label, version, body) => {
    const mark = bigTap.mark();
    expect(Buffer.byteLength(body)).toBeLessThan(1_048_576);
    const r = await rawExchange(big.url, [post('/rpc/createReport', body, rpcHeaders(version))], { deadlineMs: 3_000, responses: 1 });
    expect(r.closedBy).toBe('enough');
    tooDeep(r.responses[0]!);
    expect(bigTap.since(mark)).toEqual([]);
  });

  it('refuses nesting one level over jsonDepth and serves it at exactly jsonDepth (v1 and v2)', async () => {
    const depth = HOSTILE_LIMITS.jsonDepth;
    // The outer object is level 1 and `config` level 2: config holds depth - 2 more levels.
    const nest = (levels: number) => '{"n":'.repeat(levels) + '0' + '}'.repeat(levels);
    for (const version of VERSIONS) {
      const shape = version === '1' ? '"key":"reports/sandbox-depth"' : '"workbookId":"wb_demo_sandbox"';
      const ok = `{${shape},"config":${nest(depth - 1)}}`;
      const deep = `{${shape},"config":${nest(depth)}}`;
      const mark = tap.mark();
      const accepted = await exchange([post('/rpc/createReport', ok, rpcHeaders(version))]);
      expect(accepted.res!.status, accepted.res!.bodyText).toBe(200);
      expect(accepted.seen.filter((s) => s.url === '/rpc/createReport')).toHaveLength(1);
      const refused = await exchange([post('/rpc/createReport', deep, rpcHeaders(version))]);
      tooDeep(refused.res!);
      expect(tap.since(mark).filter((s) => s.url === '/rpc/createReport')).toHaveLength(1);
    }
  });

  it('does not count brackets inside strings as nesting', async () => {
    const body = JSON.stringify({ workbookId: 'wb_demo_sandbox', config: { text: '[{'.repeat(1_000) } });
    const { res, seen } = await exchange([post('/rpc/createReport', body, rpcHeaders('2'))]);
    expect(res!.status).toBe(200);
    // Forwarded once, the text intact (in the head's shape, which a newer head may give other field names).
    expect(seen).toHaveLength(1);
    expect(Object.values(JSON.parse(seen[0]!.body) as object)).toContainEqual({ text: '[{'.repeat(1_000) });
  });

  const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 0]));

  it('refuses a v1 createReport of 300 unknown keys and no `key` with 400 VALIDATION_ERROR, forwarding nothing', async () => {
    const body = JSON.stringify({ config: {}, ...manyKeys(300) });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(HOSTILE_LIMITS.bodyBytes);
    const { res, seen } = await exchange([post('/rpc/createReport', body, rpcHeaders('1'))]);
    const details = expectProblem(res!, 400, 'VALIDATION_ERROR');
    // The missing key first, then one issue for the unknown fields (report methods refuse them), naming at most 50.
    expect(details).toHaveLength(2);
    expect(details[0]).toEqual(expect.objectContaining({ code: 'invalid_type', path: ['key'] }));
    expect(details[1]).toEqual(expect.objectContaining({ code: 'unrecognized_keys', path: [], message: expect.stringMatching(/ and 250 more$/) }));
    expect(details[1].keys).toHaveLength(50);
    expect(seen).toEqual([]);
  });

  it('caps the issues of a body with a thousand bad values at 50, forwarding nothing', async () => {
    const body = JSON.stringify({ ids: Array.from({ length: 1_000 }, (_, i) => i % 10) });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(HOSTILE_LIMITS.bodyBytes);
    const { res, seen } = await exchange([post('/rpc/getEntries', body, rpcHeaders('1'))]);
    const details = expectProblem(res!, 400, 'VALIDATION_ERROR');
    expect(details.length).toBeGreaterThan(0);
    expect(details.length).toBeLessThanOrEqual(50);
    expect(seen).toEqual([]);
  });

  // The report methods refuse fields they do not name, at every version, with the gateway's own problem.
  for (const version of ['1', '2'] as const) {
    it(`refuses 300 unknown keys of a v${version} getReport with 400 VALIDATION_ERROR, forwarding nothing`, async () => {
      const body = JSON.stringify({ reportId, ...manyKeys(300) });
      const { res, seen } = await exchange([post('/rpc/getReport', body, rpcHeaders(version))]);
      const details = expectProblem(res!, 400, 'VALIDATION_ERROR');
      expect(details).toEqual([expect.objectContaining({ code: 'unrecognized_keys', path: [], message: expect.stringMatching(/ and 250 more$/) })]);
      expect(details[0].keys).toHaveLength(50);
      expect(seen).toEqual([]);
    });
  }
});

describe('prototype-polluting keys', () => {
  const createV1 = (config: string) => `{"key":"reports/sales/proto","config":${config}}`;
  const cases: [string, string, string, (string | number)[]][] = [
    ['__proto__ at the top', 'getReport', '{"__proto__":{"polluted":true},"reportId":"rep_x"}', ['__proto__']],
    ['__proto__ after a valid field', 'getReport', '{"reportId":"rep_x","__proto__":{"polluted":true}}', ['__proto__']],
    ['constructor.prototype at the top', 'getReport', '{"reportId":"rep_x","constructor":{"prototype":{"polluted":true}}}', ['constructor', 'prototype']],
    ['__proto__ nested in config', 'createReport', createV1('{"a":{"b":{"__proto__":{"isAdmin":true}}}}'), ['config', 'a', 'b', '__proto__']],
    ['constructor.prototype nested in config', 'createReport', createV1('{"a":{"constructor":{"prototype":{"isAdmin":true}}}}'), ['config', 'a', 'constructor', 'prototype']],
    ['__proto__ inside an array', 'createReport', createV1('{"list":[1,{"__proto__":{"isAdmin":true}}]}'), ['config', 'list', 1, '__proto__']],
    ['__proto__ written \\u005f_proto__', 'getReport', '{"reportId":"rep_x","\\u005f_proto__":{"polluted":true}}', ['__proto__']],
    ['__proto__ fully escaped', 'createReport', createV1('{"\\u005f\\u005f\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f":{"x":1}}'), ['config', '__proto__']],
    ['constructor.\\u0070rototype', 'createReport', createV1('{"constructor":{"\\u0070rototype":{"x":1}}}'), ['config', 'constructor', 'prototype']],
    ['c\\u006fnstructor.prototype', 'getReport', '{"reportId":"rep_x","c\\u006fnstructor":{"prototype":{"x":1}}}', ['constructor', 'prototype']],
    ['constructor.prototype null', 'createReport', createV1('{"constructor":{"prototype":null}}'), ['config', 'constructor', 'prototype']],
    ['__proto__ as a duplicate key', 'getReport', '{"reportId":"rep_x","__proto__":1,"__proto__":{"polluted":true}}', ['__proto__']],
  ];
  for (const version of VERSIONS) {
    it.each(cases)(`refuses %s at v${version} with 400 forbidden_key at its path, forwarding nothing`, async (_label, method, raw, path) => {
      // The v2 shape of createReport: the same config under a workbook.
      const body = version === '2' && method === 'createReport' ? raw.replace('"key":"reports/sales/proto"', '"workbookId":"wb_demo_sales"') : raw;
      const { res, seen } = await exchange([post(`/rpc/${method}`, body, rpcHeaders(version))]);
      const details = expectProblem(res!, 400, 'VALIDATION_ERROR');
      expect(details).toEqual([expect.objectContaining({ code: 'custom', path, params: { reason: 'forbidden_key' } })]);
      expect(seen).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });
  }

  it('does not refuse the words themselves as values or as ordinary keys (no false positives)', async () => {
    const config = { note: '__proto__ and constructor.prototype are just text here', prototype: 1, constructor: 'x', proto: { a: 1 } };
    const body = JSON.stringify({ key: 'reports/sales/proto-words', config });
    const { res, seen } = await exchange([post('/rpc/createReport', body, rpcHeaders('1'))]);
    expect(res!.status, res!.bodyText).toBe(200);
    expect(res!.body.config).toEqual(config);
    expect(Object.values(JSON.parse(seen.find((s) => s.url === '/rpc/createReport')!.body) as object)).toContainEqual(config);
  });
});
