// Request bodies in gzip, deflate or br are decoded, with limits.bodyBytes applied to the decoded bytes (a small
// bomb stops at the limit), and forwarded decoded without Content-Encoding; other codings are 415 with
// Accept-Encoding (RFC 7694).

import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../helpers/stack.js';

const LIMIT = 64 * 1024;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ config: { limits: { bodyBytes: LIMIT } } });
});
afterAll(() => stack.close());

/** POST /rpc/<method> with raw bytes and a Content-Encoding (node:http: fetch would not send these as given). */
function post(method: string, body: Buffer, encoding: string | undefined, version = '2') {
  const base = new URL(stack.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method: 'POST',
        path: `/rpc/${method}`,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'x-dl-api-version': version,
          'content-length': body.length,
          ...(encoding !== undefined && { 'content-encoding': encoding }),
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(parts).toString('utf8')) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const lastForwarded = () => stack.backend!.requests.filter((r) => r.url.startsWith('/rpc/')).at(-1)!;

describe('a compressed request body', () => {
  const json = JSON.stringify({ pageSize: 2 });
  it.each([
    ['gzip', gzipSync(json)],
    ['x-gzip', gzipSync(json)],
    ['deflate', deflateSync(json)],
    ['br', brotliCompressSync(json)],
    ['GZIP', gzipSync(json)],
    ['identity', Buffer.from(json)],
  ])('in %s is decoded, validated and forwarded decoded without Content-Encoding', async (encoding, body) => {
    const res = await post('getEntries', body, encoding);
    expect(res.status).toBe(200);
    const seen = lastForwarded();
    expect(seen.body).toBe(json);
    expect(seen.headers['content-encoding']).toBeUndefined();
  });

  it('is translated like any other at an old version', async () => {
    const res = await post('getEntries', gzipSync(JSON.stringify({ ids: 'ent_1', page: 0, pageSize: 1 })), 'gzip', '1');
    expect(res.status).toBe(200);
    expect(JSON.parse(lastForwarded().body)).toMatchObject({ ids: ['ent_1'] });
  });

  it('is validated after decoding: a bad body is 400 VALIDATION_ERROR, not INVALID_JSON', async () => {
    const res = await post('getEntries', gzipSync(JSON.stringify({ pageSize: 'many' })), 'gzip');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('limits on a compressed body', () => {
  it('refuses a bomb (a few kB of gzip, megabytes decoded) with 413 and forwards nothing', async () => {
    const before = stack.backend!.requests.length;
    const bomb = gzipSync(Buffer.from(`{"pageSize":1,"x":"${'0'.repeat(20 * 1024 * 1024)}"}`));
    expect(bomb.length).toBeLessThan(LIMIT);
    const res = await post('getEntries', bomb, 'gzip');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { limitBytes: LIMIT } });
    expect(stack.backend!.requests.length).toBe(before);
  });

  it('accepts a body whose decoded size is exactly the limit', async () => {
    const head = '{"pageSize":1,"x":"';
    const text = `${head}${'a'.repeat(LIMIT - head.length - 2)}"}`;
    expect(Buffer.byteLength(text)).toBe(LIMIT);
    // The reference backend refuses unknown fields: the gateway's part is done once it forwarded the body.
    await post('getEntries', gzipSync(text), 'gzip');
    expect(lastForwarded().body).toBe(text);
  });

  it('refuses a body one byte over the limit once decoded', async () => {
    const head = '{"pageSize":1,"x":"';
    const text = `${head}${'a'.repeat(LIMIT - head.length - 1)}"}`;
    expect((await post('getEntries', gzipSync(text), 'gzip')).status).toBe(413);
  });
});

describe('a body in a coding the gateway does not decode', () => {
  it.each(['zstd', 'compress', 'gzip, br'])('(%s) is 415 UNSUPPORTED_MEDIA_TYPE with Accept-Encoding', async (encoding) => {
    const before = stack.backend!.requests.length;
    const res = await post('getEntries', Buffer.from('{}'), encoding);
    expect(res.status).toBe(415);
    expect(res.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(res.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: { received: `content-encoding: ${encoding}` } });
    expect(stack.backend!.requests.length).toBe(before);
  });

  it('that claims gzip but is not is 400 INVALID_JSON naming the coding', async () => {
    const res = await post('getEntries', Buffer.from('{"pageSize":1}'), 'gzip');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_JSON', message: 'the request body does not decode as gzip' });
  });
});
