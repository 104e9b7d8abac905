// The error catalogue at the edge: every code the gateway can produce, each in the one problem shape,
// and the backend's own errors passed through.

import { request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultMode, type FaultUpstream, startFaultUpstream } from '../helpers/fault-upstream.js';
import { expectProblem, send } from '../helpers/http.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { AFTER_V1_SUNSET, AFTER_V1_SUPPORTED, DURING_DEPRECATION, type Stack, V1_SUNSET, rpc, startStack } from '../helpers/stack.js';
import { REPORT_DESCRIPTION } from '../helpers/head-shapes.js';

/** A call at the head: forwarded and streamed as the backend answers it. */
const JSON_HEADERS = { 'content-type': 'application/json', 'x-dl-api-version': String(HEAD) } as const;

describe('errors the gateway produces in front of the reference backend', () => {
  let stack: Stack;
  const backendCount = () => stack.backend!.requests.length;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  describe('INVALID_API_VERSION_HEADER', () => {
    it('is a 400 problem naming the reason, the supported versions and latest', async () => {
      const res = await rpc(stack.url, 'getReport', { reportId: 'rep_x' }, 'v1');
      const details = expectProblem(res, 400, 'INVALID_API_VERSION_HEADER');
      expect(details).toMatchObject({ reason: 'malformed', received: 'v1', supported: VERSIONS, latest: HEAD });
    });
  });

  describe('API_VERSION_SUNSET', () => {
    it('is a 410 problem with the sunset date, latest and the supported versions', async () => {
      stack.setNow(AFTER_V1_SUNSET);
      try {
        const res = await rpc(stack.url, 'getReport', { reportId: 'rep_x' }, '1');
        const details = expectProblem(res, 410, 'API_VERSION_SUNSET');
        expect(details).toMatchObject({ version: 1, sunset: V1_SUNSET.toISOString(), latest: HEAD, supported: AFTER_V1_SUPPORTED });
      } finally {
        stack.setNow(DURING_DEPRECATION);
      }
    });
  });

  describe('ENDPOINT_NOT_FOUND', () => {
    it('answers an unknown method with 404, the method name and an empty availableIn', async () => {
      const before = backendCount();
      const res = await rpc(stack.url, 'noSuchMethod', {}, '2');
      const details = expectProblem(res, 404, 'ENDPOINT_NOT_FOUND');
      expect(details).toMatchObject({ method: 'noSuchMethod', availableIn: [] });
      expect(res.body.detail).toContain('noSuchMethod');
      expect(backendCount()).toBe(before);
    });

    it('answers a method the backend has but the public contract does not (resolveLegacyKey) with 404', async () => {
      const before = backendCount();
      const res = await rpc(stack.url, 'resolveLegacyKey', { key: 'reports/x' }, '2');
      expectProblem(res, 404, 'ENDPOINT_NOT_FOUND');
      expect(backendCount()).toBe(before);
    });

    // "A method that exists at another version only" cannot happen in the shipped contract: v2 keeps every
    // v1 method. It would need a custom contract with methodAdded/methodRemoved.

    it.each(['/rpc/../admin', '/rpc/a%2Fb', '/rpc/getReport?x=1', '/rpc//getReport', '/rpc/', '/rpc', '/rpc/get-report', '/rpc/getReport/'])(
      'answers the path %s with 404 and forwards nothing',
      async (path) => {
        const before = backendCount();
        const res = await send(stack.url, { path, headers: JSON_HEADERS, body: '{"reportId":"rep_x"}' });
        const details = expectProblem(res, 404, 'ENDPOINT_NOT_FOUND');
        expect(details.availableIn).toEqual([]);
        expect(backendCount()).toBe(before);
      },
    );

    it.each(['POST', 'GET'])('answers %s /other (outside /rpc) with the same 404 problem', async (method) => {
      const before = backendCount();
      const res = await send(stack.url, {
        method,
        path: '/other',
        headers: JSON_HEADERS,
        ...(method === 'POST' && { body: '{}' }),
      });
      const details = expectProblem(res, 404, 'ENDPOINT_NOT_FOUND');
      expect(details).toMatchObject({ path: '/other', availableIn: [] });
      expect(backendCount()).toBe(before);
    });
  });

  describe('METHOD_NOT_ALLOWED', () => {
    it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('answers %s /rpc/getReport with 405 and Allow: POST', async (method) => {
      const before = backendCount();
      const res = await send(stack.url, { method, path: '/rpc/getReport', headers: { 'x-dl-api-version': '2' } });
      const details = expectProblem(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.allow).toBe('POST');
      expect(details.method).toBe(method);
      expect(backendCount()).toBe(before);
    });
  });

  describe('UNSUPPORTED_MEDIA_TYPE', () => {
    it('answers a text/plain body with 415, naming the type received, and forwards nothing', async () => {
      const before = backendCount();
      const res = await send(stack.url, {
        path: '/rpc/getReport',
        headers: { 'content-type': 'text/plain', 'x-dl-api-version': '2' },
        body: '{"reportId":"rep_x"}',
      });
      const details = expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(details.received).toBe('text/plain');
      expect(backendCount()).toBe(before);
    });

    it('answers a body without any content-type with 415', async () => {
      const res = await send(stack.url, { path: '/rpc/getReport', headers: { 'x-dl-api-version': '2' }, body: '{"reportId":"rep_x"}' });
      expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it.each(['application/json; charset=utf-8', 'Application/JSON', 'application/problem+json'])(
      'accepts the JSON media type %s (the backend answers, not the gateway)',
      async (type) => {
        const res = await send(stack.url, {
          path: '/rpc/getReport',
          headers: { 'content-type': type, 'x-dl-api-version': '2' },
          body: '{"reportId":"rep_missing"}',
        });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('NOT_FOUND');
      },
    );
  });

  describe('INVALID_JSON', () => {
    it('answers a body that is not JSON with 400 and forwards nothing', async () => {
      const before = backendCount();
      const res = await rpc(stack.url, 'getReport', '{"reportId": ', '2');
      const details = expectProblem(res, 400, 'INVALID_JSON');
      expect(details.reason).toEqual(expect.any(String));
      expect(backendCount()).toBe(before);
    });

    it('answers an empty body with 400 and forwards nothing', async () => {
      const before = backendCount();
      const res = await rpc(stack.url, 'getReport', '', '2');
      expectProblem(res, 400, 'INVALID_JSON');
      expect(backendCount()).toBe(before);
    });
  });

  describe('INVALID_JSON for bytes that are not UTF-8', () => {
    const notUtf8 = (prefix: string) => Buffer.concat([Buffer.from(prefix), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]);

    it('refuses a v2 body that is not UTF-8 with 400 INVALID_JSON (today the backend is the one refusing)', async () => {
      const res = await send(stack.url, {
        path: '/rpc/createReport',
        headers: JSON_HEADERS,
        body: notUtf8('{"workbookId":"wb_demo_sales","config":{"t":"'),
      });
      expectProblem(res, 400, 'INVALID_JSON');
    });

    // JSON must be UTF-8 (RFC 8259 §8.1): invalid bytes are refused, never replaced with U+FFFD and stored.
    it('refuses a v1 body that is not UTF-8 with 400 INVALID_JSON and creates nothing', async () => {
      const before = backendCount();
      const res = await send(stack.url, {
        path: '/rpc/createReport',
        headers: { ...JSON_HEADERS, 'x-dl-api-version': '1' },
        body: notUtf8('{"key":"reports/sales/not-utf8","config":{"t":"'),
      });
      expectProblem(res, 400, 'INVALID_JSON');
      expect(stack.backend!.requests.slice(before).map((r) => r.url)).not.toContain('/rpc/createReport');
    });
  });

  describe('VALIDATION_ERROR', () => {
    it('names the missing `key` of a v1 createReport in the array of issues, as real DataLens does, and forwards nothing', async () => {
      const before = backendCount();
      const res = await rpc(stack.url, 'createReport', { config: {} }, '1');
      const details = expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(res.body.message).toBe('Validation error');
      expect(res.body.detail).toBe('invalid arguments for createReport at API version 1');
      expect(details).toEqual([{ expected: 'string', code: 'invalid_type', path: ['key'], message: 'Invalid input: expected string, received undefined' }]);
      expect(backendCount()).toBe(before);
    });

    it('validates at the requested version: a v1-shaped createReport sent as v2 lacks `workbookId`, and `key` is unknown', async () => {
      const res = await rpc(stack.url, 'createReport', { key: 'reports/x', config: {} }, '2');
      const details = expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(details).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ code: 'invalid_type', path: ['workbookId'] }),
          expect.objectContaining({ code: 'unrecognized_keys', keys: ['key'], path: [] }),
        ]),
      );
    });

    it.each([
      ['[]', 'array'],
      ['"text"', 'string'],
      ['42', 'number'],
      ['null', 'null'],
    ])('answers the non-object body %s with one issue at the root path', async (body, received) => {
      const before = backendCount();
      const res = await rpc(stack.url, 'getReport', body, '2');
      const details = expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(details).toEqual([{ expected: 'object', code: 'invalid_type', path: [], message: `Invalid input: expected object, received ${received}` }]);
      expect(backendCount()).toBe(before);
    });
  });

  describe('VERSION_TRANSLATION_FAILED', () => {
    it('answers a v1 createReport whose key no workbook holds with 422 naming the key, and creates nothing', async () => {
      const before = backendCount();
      const res = await rpc(stack.url, 'createReport', { key: 'nowhere/x', config: {} }, '1');
      const details = expectProblem(res, 422, 'VERSION_TRANSLATION_FAILED');
      expect(details).toMatchObject({ field: 'key', key: 'nowhere/x' });
      expect(res.body.detail).toContain('nowhere/x');
      const sent = stack.backend!.requests.slice(before).map((r) => r.url);
      expect(sent).not.toContain('/rpc/createReport');
    });
  });

  describe('UNSUPPORTED_OBJECT_VERSION', () => {
    let reportId: string;
    /** The report as the head reads it after the web UI's edit. */
    let edited: unknown;
    beforeAll(async () => {
      const created = await rpc(stack.url, 'createReport', { key: 'reports/marketing/edited', config: { v: 1 } }, '1');
      expect(created.status).toBe(200);
      reportId = created.body.id;
      // The web UI edits it directly on the backend: no x-dl-client-api-version, so it is saved under the head.
      const edit = await fetch(`${stack.backendUrl}/rpc/updateReport`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dl-api-version': String(HEAD) },
        // Moved to another workbook: the v1 key names the old one, so version 1 cannot read the report whole.
        body: JSON.stringify({ reportId, [REPORT_DESCRIPTION]: 'edited in the web UI', workbookId: 'wb_demo_sales' }),
      });
      expect(edit.status).toBe(200);
      expect(((await edit.json()) as { version: number }).version).toBe(HEAD);
      edited = (await rpc(stack.url, 'getReport', { reportId }, String(HEAD))).body;
      expect(edited).toMatchObject({ [REPORT_DESCRIPTION]: 'edited in the web UI', version: HEAD });
    });

    it('answers a v1 read of an object saved under the head with 409 and the object and versions', async () => {
      const res = await rpc(stack.url, 'getReport', { reportId }, '1');
      const details = expectProblem(res, 409, 'UNSUPPORTED_OBJECT_VERSION');
      expect(details).toMatchObject({ objectId: reportId, objectVersion: HEAD, requestedVersion: 1, minVersion: HEAD, rule: 'lossless', fields: ['workbookId'] });
      expect(JSON.stringify(res.body)).not.toContain('edited in the web UI');
    });

    it.each([
      ['updateReport', { description: 'overwritten by a v1 script', config: { v: 'old' } }],
      ['deleteReport', {}],
    ])('answers a v1 %s of that object with 409 and leaves it unchanged', async (method, extra) => {
      const res = await rpc(stack.url, method, { reportId, ...extra }, '1');
      const details = expectProblem(res, 409, 'UNSUPPORTED_OBJECT_VERSION');
      expect(details).toMatchObject({ objectId: reportId, objectVersion: HEAD, requestedVersion: 1, minVersion: HEAD });
      const read = await rpc(stack.url, 'getReport', { reportId }, String(HEAD));
      expect(read.status).toBe(200);
      expect(read.body).toEqual(edited);
    });
  });

  describe('backend errors', () => {
    it.each(['1', '2'])('pass through at v%s with the backend\'s status and body (unknown report → 404)', async (version) => {
      const res = await rpc(stack.url, 'getReport', { reportId: 'rep_unknown' }, version);
      const details = expectProblem(res, 404, 'NOT_FOUND');
      expect(details).toEqual({ reportId: 'rep_unknown' });
      expect(res.body.detail).toContain('rep_unknown');
      expect(res.headers.get('x-dl-api-version')).toBe(version);
    });

    it('pass through the backend\'s validation refusal of an unknown field a loose v2 schema lets through', async () => {
      const res = await rpc(stack.url, 'getEntries', { extra: true }, '2');
      // The backend's own body, whatever shape it gives its details: the gateway does not rewrite it.
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.body.details)).toContain('extra');
    });
  });
});

describe('PAYLOAD_TOO_LARGE with limits.bodyBytes = 1024', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ config: { limits: { bodyBytes: 1024 } } });
  });
  afterAll(() => stack.close());

  /** A v2 createReport body of exactly `size` bytes. */
  const bodyOf = (size: number) => {
    const empty = JSON.stringify({ workbookId: 'wb_demo_sandbox', config: { pad: '' } });
    return JSON.stringify({ workbookId: 'wb_demo_sandbox', config: { pad: 'x'.repeat(size - empty.length) } });
  };

  it('refuses a declared content-length over the limit with 413 and forwards nothing', async () => {
    const before = stack.backend!.requests.length;
    const res = await rpc(stack.url, 'createReport', bodyOf(1025), '2');
    const details = expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(details.limitBytes).toBe(1024);
    expect(stack.backend!.requests.length).toBe(before);
  });

  it('accepts a body of exactly the limit', async () => {
    const body = bodyOf(1024);
    expect(Buffer.byteLength(body)).toBe(1024);
    const res = await rpc(stack.url, 'createReport', body, '2');
    expect(res.status).toBe(200);
    expect(res.body.workbookId).toBe('wb_demo_sandbox');
  });

  it('refuses a chunked body (no content-length) once it grows over the limit, with 413', async () => {
    const before = stack.backend!.requests.length;
    const url = new URL(stack.url);
    const res = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: any }>((resolve, reject) => {
      const out = request(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/rpc/createReport',
          agent: false,
          headers: { 'content-type': 'application/json', 'x-dl-api-version': '2', 'transfer-encoding': 'chunked' },
        },
        (r) => {
          const parts: Buffer[] = [];
          r.on('data', (c: Buffer) => parts.push(c));
          r.on('end', () => {
            resolve({ status: r.statusCode ?? 0, headers: r.headers, body: JSON.parse(Buffer.concat(parts).toString('utf8')) });
            out.destroy();
          });
          r.on('error', reject);
        },
      );
      out.on('error', () => {
        /* the gateway closes the connection after its 413; the response has arrived by then */
      });
      // Two chunks of about 600 bytes: over the limit, and the client never ends the request.
      out.write('{"workbookId":"wb_demo_sandbox","config":{"pad":"' + 'x'.repeat(550));
      out.write('y'.repeat(600));
    });
    const details = expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(details.limitBytes).toBe(1024);
    expect(res.headers.connection).toBe('close');
    expect(stack.backend!.requests.length).toBe(before);
  });
});

describe('UPSTREAM_UNAVAILABLE and UPSTREAM_TIMEOUT against a faulty upstream', () => {
  const modes: FaultMode[] = ['refuse', 'reset', 'garbage', 'html', 'reset-mid-body', 'hang', 'slow'];
  const faults = new Map<FaultMode, { upstream: FaultUpstream; stack: Stack }>();
  beforeAll(async () => {
    for (const mode of modes) {
      // `slow` answers well after the 300 ms deadline.
      const upstream = await startFaultUpstream(mode, { delayMs: 3_000 });
      const stack = await startStack({ upstreamUrl: upstream.url, config: { upstream: { timeoutMs: 300 } } });
      faults.set(mode, { upstream, stack });
    }
  });
  afterAll(async () => {
    for (const { upstream, stack } of faults.values()) {
      await stack.close();
      await upstream.close();
    }
  });
  const at = (mode: FaultMode) => faults.get(mode)!;

  it.each([
    ['refuses connections', 'refuse', 'ECONNREFUSED'],
    ['resets the connection after the request', 'reset', 'ECONNRESET'],
    ['answers bytes that are not HTTP', 'garbage', undefined],
    ['answers 200 with an HTML page', 'html', undefined],
  ] as const)('answers 502 UPSTREAM_UNAVAILABLE when the backend %s', async (_label, mode, reason) => {
    const res = await rpc(at(mode).stack.url, 'getReport', { reportId: 'rep_x' }, '2');
    const details = expectProblem(res, 502, 'UPSTREAM_UNAVAILABLE');
    expect(details.reason).toEqual(expect.any(String));
    if (reason) expect(details.reason).toBe(reason);
    if (mode === 'html') expect(details.reason).toContain('text/html');
    expect(JSON.stringify(res.body)).not.toContain('please sign in');
    expect(res.headers.get('x-dl-api-version')).toBe('2');
    if (mode !== 'refuse') expect(at(mode).upstream.requests.at(-1)?.path).toBe('/rpc/getReport');
  });

  it('answers 502 UPSTREAM_UNAVAILABLE to a v1 read (checked answer) when the backend breaks mid-body', async () => {
    const res = await rpc(at('reset-mid-body').stack.url, 'getReport', { reportId: 'rep_x' }, '1');
    expectProblem(res, 502, 'UPSTREAM_UNAVAILABLE');
  });

  it('cuts a streamed head-version answer when the backend breaks mid-body, instead of passing off a truncated 200', async () => {
    const res = await fetch(`${at('reset-mid-body').stack.url}/rpc/getReport`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: '{"reportId":"rep_x"}',
    });
    // The headers were already on their way when the backend broke: the only honest signal left is the cut.
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1000');
    await expect(res.text()).rejects.toThrow();
  });

  it('answers 502 UPSTREAM_UNAVAILABLE when a v1 key lookup (a migration\'s backend call) is refused', async () => {
    const res = await rpc(at('refuse').stack.url, 'createReport', { key: 'nowhere/y', config: {} }, '1');
    expectProblem(res, 502, 'UPSTREAM_UNAVAILABLE');
  });

  it('answers 504 UPSTREAM_TIMEOUT with the configured timeout when the backend never answers', async () => {
    const res = await rpc(at('hang').stack.url, 'getReport', { reportId: 'rep_x' }, '2');
    const details = expectProblem(res, 504, 'UPSTREAM_TIMEOUT');
    expect(details.timeoutMs).toBe(300);
    expect(res.headers.get('x-dl-api-version')).toBe('2');
  });

  it('answers 504 UPSTREAM_TIMEOUT when the backend would answer, but only after the timeout', async () => {
    const res = await rpc(at('slow').stack.url, 'getReport', { reportId: 'rep_x' }, '2');
    const details = expectProblem(res, 504, 'UPSTREAM_TIMEOUT');
    expect(details.timeoutMs).toBe(300);
    expect(at('slow').upstream.requests.at(-1)?.path).toBe('/rpc/getReport');
  });

  it('answers 504 UPSTREAM_TIMEOUT when a v1 key lookup (a migration\'s backend call) never answers', async () => {
    const res = await rpc(at('hang').stack.url, 'createReport', { key: 'nowhere/z', config: {} }, '1');
    const details = expectProblem(res, 504, 'UPSTREAM_TIMEOUT');
    expect(details.timeoutMs).toBe(300);
  });
});

describe('a backend that is slow but within the timeout', () => {
  let upstream: FaultUpstream;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startFaultUpstream('slow', { delayMs: 200, body: '{"reportId":"rep_slow","deleted":true}' });
    stack = await startStack({ upstreamUrl: upstream.url, config: { upstream: { timeoutMs: 10_000 } } });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it.each(['1', '2'])('is waited for at v%s and its answer passed on', async (version) => {
    const res = await rpc(stack.url, 'deleteReport', { reportId: 'rep_slow' }, version);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reportId: 'rep_slow', deleted: true });
  });
});
