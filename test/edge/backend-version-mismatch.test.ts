// A gateway in front of a backend that speaks a newer version than its contract's head: the backend refuses the
// gateway's x-dl-api-version with its own 400 INVALID_API_VERSION_HEADER. A client whose header is valid must not
// be told its header is wrong: it gets 503 BACKEND_VERSION_MISMATCH naming the mismatch, on forwarded calls and on
// a migration's own backend call alike.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../helpers/calendar.js';
import { expectProblem } from '../helpers/http.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';

const NEWER = HEAD + 1;
let backend: Server;
let stack: Stack;
const seen: string[] = [];

beforeAll(async () => {
  // A backend of the next version: it answers /ping with its version and refuses any other version header.
  backend = createServer((req, res) => {
    seen.push(`${req.url} ${String(req.headers['x-dl-api-version'])}`);
    req.resume();
    if (req.url === '/ping') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: NEWER }));
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 'INVALID_API_VERSION_HEADER', message: `This backend speaks only API version ${NEWER}`, details: {} }));
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  stack = await startStack({ upstreamUrl: `http://127.0.0.1:${(backend.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => backend?.close(resolve));
});

describe('a backend newer than the gateway', () => {
  it.each(['latest', String(HEAD), '1'])('answers a client at %s with 503 BACKEND_VERSION_MISMATCH, never its header refused', async (version) => {
    const res = await rpc(stack.url, 'getWorkbook', { workbookId: 'wb_1' }, version);
    const details = expectProblem(res, 503, 'BACKEND_VERSION_MISMATCH');
    expect(details).toMatchObject({ upstreamStatus: 400, upstreamCode: 'INVALID_API_VERSION_HEADER', upstreamMessage: `This backend speaks only API version ${NEWER}` });
    expect(seen.at(-1)).toBe(`/rpc/getWorkbook ${HEAD}`);
  });

  it("answers the same when a migration's own backend call is the one refused (a v1 report key lookup)", async () => {
    const res = await rpc(stack.url, 'createReport', { key: 'nowhere/at-all', config: {} }, '1');
    expectProblem(res, 503, 'BACKEND_VERSION_MISMATCH');
  });

  it('still passes on a client-facing refusal of the backend with another code', async () => {
    const other = createServer((req, res) => {
      req.resume();
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'VALIDATION_ERROR', message: 'no', details: {} }));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const s = await startStack({ upstreamUrl: `http://127.0.0.1:${(other.address() as AddressInfo).port}` });
    try {
      const res = await rpc(s.url, 'getWorkbook', { workbookId: 'wb_1' }, 'latest');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', message: 'no' });
    } finally {
      await s.close();
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
