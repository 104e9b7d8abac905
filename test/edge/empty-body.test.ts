// Methods whose real schema takes no arguments (getRootCollectionPermissions; getWorkbooksList, whose arguments
// object is optional) accept no body and no content type: the backend gets `{}`. Other methods are unchanged.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../helpers/stack.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** POST /rpc/<method> with exactly these headers and body (fetch would add a content type to a string body). */
function post(method: string, headers: Record<string, string>, body = '', version = '2') {
  const base = new URL(stack.url);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(
      { host: base.hostname, port: base.port, method: 'POST', path: `/rpc/${method}`, agent: false, headers: { 'x-dl-api-version': version, 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString('utf8') || 'null') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const bodiesSeen = (method: string, from: number) =>
  stack.backend!.requests.slice(from).filter((r) => r.url === `/rpc/${method}`).map((r) => r.body);

describe('a method that takes no arguments', () => {
  for (const method of ['getRootCollectionPermissions', 'getWorkbooksList']) {
    for (const version of ['1', '2']) {
      it(`${method} at v${version}: no body and no content type reaches the backend as {}`, async () => {
        const from = stack.backend!.requests.length;
        const res = await post(method, {}, '', version);
        expect(res.body?.code).not.toBe('UNSUPPORTED_MEDIA_TYPE');
        expect(res.body?.code).not.toBe('INVALID_JSON');
        expect(bodiesSeen(method, from)).toEqual(['{}']);
      });
    }

    it(`${method}: an empty body with a JSON content type reaches the backend as {}`, async () => {
      const from = stack.backend!.requests.length;
      await post(method, { 'content-type': 'application/json' });
      expect(bodiesSeen(method, from)).toEqual(['{}']);
    });

    it(`${method}: a body without a content type is still 415`, async () => {
      const from = stack.backend!.requests.length;
      const res = await post(method, {}, '{}');
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(bodiesSeen(method, from)).toEqual([]);
    });
  }

  it('the OpenAPI document marks its request body optional', async () => {
    const doc = (await (await fetch(`${stack.url}/json/`)).json()) as { paths: Record<string, { post: { requestBody: { required: boolean } } }> };
    expect(doc.paths['/rpc/getRootCollectionPermissions']?.post.requestBody.required).toBe(false);
    expect(doc.paths['/rpc/getWorkbook']?.post.requestBody.required).toBe(true);
  });
});

describe('a method that takes arguments', () => {
  it('no content type is 415, an empty JSON body is 400 INVALID_JSON, as before', async () => {
    expect((await post('getWorkbook', {})).body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await post('getWorkbook', { 'content-type': 'application/json' })).body.code).toBe('INVALID_JSON');
  });
});
