// A backend that refuses a call a translation makes on the client's behalf (a v1 page walk, a legacy-key
// lookup) answers the client: before, the refusal was dropped once Node had marked the request destroyed
// (as it does once the body was read), and the client waited forever while the log said 200.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/http.js';
import { within } from '../helpers/raw-socket.js';
import { responseHead, startScriptedUpstream, type ScriptedUpstream } from '../helpers/scripted-upstream.js';
import { memoryLog } from '../helpers/serve-process.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';

const DEADLINE_MS = 5_000;

describe('a v1 getEntries page walk that the reference backend refuses (scope "nope")', () => {
  let stack: Stack;
  const log = memoryLog();
  beforeAll(async () => {
    stack = await startStack({ logger: log.logger });
  });
  afterAll(() => stack.close());

  it('gets the backend\'s 400 passed on, and the log line says 400', async () => {
    const res = await within(DEADLINE_MS, rpc(stack.url, 'getEntries', { page: 1, scope: 'nope' }, '1'));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/(problem\+)?json/);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    const line = log.entries().find((e) => e.msg === 'request' && e.requestId === res.headers.get('x-request-id'));
    expect(line?.status).toBe(400);
  });
});

describe('a legacy-key lookup that the backend refuses', () => {
  let upstream: ScriptedUpstream;
  let stack: Stack;
  let answer = '';
  beforeAll(async () => {
    upstream = await startScriptedUpstream(({ socket }) => void socket.write(answer));
    stack = await startStack({ upstreamUrl: upstream.url });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it('401 with a JSON body: the client gets that 401, its content type and body, and WWW-Authenticate', async () => {
    const body = '{"message":"no credentials"}';
    answer = responseHead('401 Unauthorized', { 'content-type': 'application/json', 'content-length': body.length, 'www-authenticate': 'Bearer' }) + body;
    const res = await within(DEADLINE_MS, rpc(stack.url, 'createReport', { key: 'nowhere/x', config: {} }, '1'));
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body).toEqual({ message: 'no credentials' });
  });

  it('a header its Connection field names is hop-by-hop: dropped, as on the forwarded request', async () => {
    const body = '{"message":"no credentials"}';
    answer =
      responseHead('401 Unauthorized', {
        'content-type': 'application/json',
        'content-length': body.length,
        connection: 'keep-alive, x-backend-hop',
        'x-backend-hop': 'internal',
        'www-authenticate': 'Bearer',
      }) + body;
    const res = await within(DEADLINE_MS, rpc(stack.url, 'createReport', { key: 'nowhere/hop', config: {} }, '1'));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.headers.get('x-backend-hop')).toBeNull();
  });

  it('403 with no body: the backend\'s 403 in the gateway\'s problem body (not 500)', async () => {
    answer = responseHead('403 Forbidden', { 'content-length': 0 });
    const res = await within(DEADLINE_MS, rpc(stack.url, 'createReport', { key: 'nowhere/y', config: {} }, '1'));
    const details = expectProblem(res, 403, 'UPSTREAM_ERROR');
    expect(details.upstreamStatus).toBe(403);
  });

  it('302 with a Location: 502, and the backend\'s Location never reaches the client', async () => {
    answer = responseHead('302 Found', { location: 'http://10.0.0.7/login', 'content-length': 0 });
    const res = await within(DEADLINE_MS, rpc(stack.url, 'createReport', { key: 'nowhere/z', config: {} }, '1'));
    expectProblem(res, 502, 'UPSTREAM_UNAVAILABLE');
    expect(res.headers.get('location')).toBeNull();
  });
});
