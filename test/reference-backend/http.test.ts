import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { rpc, start, type Started } from './helpers.js';

let s: Started;
beforeAll(async () => {
  s = await start({ seed: { workbooks: [{ workbookId: 'wb_a', title: 'A' }] } });
});
afterAll(() => s.backend.close());

const codeOf = async (res: Response): Promise<string> => ((await res.json()) as { code: string }).code;

const post = (path: string, body: string | Uint8Array, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${s.url}${path}`, { method: 'POST', headers, body });

describe('the HTTP surface', () => {
  it('answers GET /ping with its API version', async () => {
    const res = await fetch(`${s.url}/ping`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-dl-api-version')).toBe(String(HEAD));
    expect(await res.json()).toEqual({ status: 'ok', apiVersion: HEAD });
  });

  it('puts x-dl-api-version on every response and echoes x-request-id, errors included', async () => {
    const ok = await rpc(s.url, 'getWorkbook', { workbookId: 'wb_a' }, { headers: { 'x-request-id': 'req-ok-1' } });
    const notFound = await rpc(s.url, 'getWorkbook', { workbookId: 'wb_x' }, { headers: { 'x-request-id': 'req-404-1' } });
    const badJson = await post('/rpc/getWorkbook', '{', { 'content-type': 'application/json', 'x-request-id': 'req-json-1' });
    for (const [headers, id] of [[ok.headers, 'req-ok-1'], [notFound.headers, 'req-404-1'], [badJson.headers, 'req-json-1']] as const) {
      expect(headers.get('x-dl-api-version')).toBe(String(HEAD));
      expect(headers.get('x-request-id')).toBe(id);
    }
    expect(notFound.body.requestId).toBe('req-404-1');
  });

  it('sends no x-request-id and a null requestId when the client sent none', async () => {
    const r = await rpc(s.url, 'getWorkbook', { workbookId: 'wb_x' });
    expect(r.headers.get('x-request-id')).toBeNull();
    expect(r.body.requestId).toBeNull();
  });

  it('renders every error as problem+json with the shared body shape', async () => {
    const r = await rpc(s.url, 'getReport', { reportId: 'rep_missing' });
    expect(r.headers.get('content-type')).toBe('application/problem+json');
    expect(r.body).toEqual({
      type: 'urn:dl-version-gateway:problem:NOT_FOUND',
      title: 'Not found',
      status: 404,
      detail: 'Report rep_missing not found.',
      code: 'NOT_FOUND',
      message: 'Report rep_missing not found.',
      requestId: null,
      details: { reportId: 'rep_missing' },
    });
  });

  it('refuses other HTTP methods on /rpc with 405 and Allow: POST', async () => {
    const res = await fetch(`${s.url}/rpc/getReport`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await codeOf(res)).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers 404 ENDPOINT_NOT_FOUND for an unknown method and an unknown path', async () => {
    for (const path of ['/rpc/noSuchMethod', '/rpc/constructor', '/rpc/', '/elsewhere']) {
      const res = await post(path, '{}');
      expect(res.status, path).toBe(404);
      expect(await codeOf(res), path).toBe('ENDPOINT_NOT_FOUND');
    }
  });

  it('refuses a body that is not JSON with 400 INVALID_JSON', async () => {
    for (const body of ['{"reportId":', 'nope', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])]) {
      const res = await post('/rpc/getReport', body);
      expect(res.status).toBe(400);
      expect(await codeOf(res)).toBe('INVALID_JSON');
    }
  });

  it('refuses JSON that is not an object with 400 VALIDATION_ERROR', async () => {
    for (const body of ['[]', 'null', '42', '"s"']) {
      const res = await post('/rpc/getReport', body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: '' }] } });
    }
  });

  it('treats an empty body as an empty object', async () => {
    const res = await post('/rpc/getEntries', '');
    expect(res.status).toBe(200);
  });

  it('refuses a body that is not application/json with 415', async () => {
    const res = await post('/rpc/getEntries', '{}', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(await codeOf(res)).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await post('/rpc/getEntries', '{}', { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
  });

  it('refuses an x-dl-api-version other than its head version with 400', async () => {
    for (const value of [...VERSIONS.slice(0, -1).map(String), String(HEAD + 1), 'latest', `0${HEAD}`, `${HEAD}, ${HEAD}`]) {
      const r = await rpc(s.url, 'getEntries', {}, { headers: { 'x-dl-api-version': value } });
      expect(r.status, value).toBe(400);
      expect(r.body).toMatchObject({ code: 'INVALID_API_VERSION_HEADER', details: { header: 'x-dl-api-version', supported: [HEAD] } });
    }
  });

  it('accepts a request without x-dl-api-version as the head version', async () => {
    const res = await post('/rpc/getEntries', '{}');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-dl-api-version')).toBe(String(HEAD));
  });

  it('refuses an x-dl-client-api-version outside 1..head with 400', async () => {
    for (const value of ['0', String(HEAD + 1), 'abc', '1.0', '+1']) {
      const r = await rpc(s.url, 'createEntry', { key: 'k', scope: 'dash' }, { headers: { 'x-dl-client-api-version': value } });
      expect(r.status, value).toBe(400);
      expect(r.body).toMatchObject({ code: 'INVALID_API_VERSION_HEADER', details: { header: 'x-dl-client-api-version', supported: VERSIONS } });
    }
  });

  it('records every request it receives with lower-cased headers and the raw body', async () => {
    await rpc(s.url, 'getEntries', { scope: 'dash' }, { clientVersion: 1, headers: { 'X-Request-Id': 'rec-1' } });
    const last = s.backend.requests.at(-1);
    expect(last).toMatchObject({ method: 'POST', url: '/rpc/getEntries', body: '{"scope":"dash"}' });
    expect(last?.headers['x-request-id']).toBe('rec-1');
    expect(last?.headers['x-dl-client-api-version']).toBe('1');
  });
});

describe('body size and lifecycle', () => {
  it('refuses a body over maxBodyBytes with 413 and keeps serving', async () => {
    const small = await start({ maxBodyBytes: 64 });
    try {
      const big = await rpc(small.url, 'getEntries', { ids: Array.from({ length: 20 }, (_, i) => `ent_${i}`) });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { limitBytes: 64 } });
      expect(small.backend.requests.at(-1)?.body).toBe('');
      expect((await rpc(small.url, 'getEntries', {})).status).toBe(200);
    } finally {
      await small.backend.close();
    }
  });

  it('refuses a large body sent in chunks without a content-length with 413', async () => {
    const small = await start({ maxBodyBytes: 1024 });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${small.url}/rpc/getEntries`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        for (let i = 0; i < 8; i++) req.write('x'.repeat(512));
        req.end();
      });
      expect(status).toBe(413);
    } finally {
      await small.backend.close();
    }
  });

  it('keeps only the last 1000 recorded requests', async () => {
    const counted = await start();
    try {
      const agent = new Agent({ keepAlive: true, maxSockets: 16 });
      const ping = () =>
        new Promise<void>((resolve, reject) => {
          httpRequest(`${counted.url}/ping`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject).end();
        });
      await Promise.all(Array.from({ length: 1005 }, ping));
      agent.destroy();
      expect(counted.backend.requests.length).toBe(1000);
    } finally {
      await counted.backend.close();
    }
  });

  it('closes connections that are still busy when closed, and closing twice is harmless', async () => {
    const other = await start();
    const received = new Promise<void>((resolve) => other.backend.server.once('request', () => resolve()));
    const req = httpRequest(`${other.url}/rpc/getEntries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '100' },
    });
    const failed = new Promise<Error>((resolve) => req.on('error', resolve));
    req.write('{"scope":'); // the body never completes: without closeAllConnections, close() would wait for it
    await received;
    await other.backend.close();
    expect(other.backend.server.listening).toBe(false);
    expect((await failed).message).toMatch(/socket hang up|ECONNRESET/);
    await other.backend.close();
  });
});
