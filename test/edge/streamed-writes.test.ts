// A large answer streamed at the head reaches the client whole, written in the chunks the backend sent and nothing
// else: the forwarder pauses undici while the client's socket is full and, on resume, undici hands over an empty
// chunk, which must not become a write of its own (a syscall, a cork and a tick per 64 KiB; BENCHMARKS.md).

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../helpers/calendar.js';
import { type Stack, startStack } from '../helpers/stack.js';

/** A JSON answer of about 520 KiB: several 64 KiB reads, enough to fill the client's socket. */
const ANSWER = Buffer.from(JSON.stringify({ entry: { entryId: 'big', data: { pad: 'x'.repeat(520 * 1024) } } }));

describe('a large answer streamed to the client', () => {
  let backend: http.Server;
  let stack: Stack;
  beforeAll(async () => {
    backend = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': ANSWER.length });
        res.end(ANSWER);
      });
    });
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    stack = await startStack({ upstreamUrl: `http://127.0.0.1:${(backend.address() as AddressInfo).port}` });
  });
  afterAll(async () => {
    await stack.close();
    await new Promise((resolve) => backend.close(resolve));
  });

  it('arrives whole, and the gateway never writes an empty chunk to the client', async () => {
    // Every body write of the gateway's /rpc answers, as ServerResponse sees it (the stack runs in this process).
    const sizes: number[] = [];
    const write = http.ServerResponse.prototype.write;
    http.ServerResponse.prototype.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
      if (this.req?.url?.startsWith('/rpc/')) sizes.push((chunk as Buffer).length);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof write;
    try {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${stack.url}/rpc/getDashboard`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-dl-api-version': String(HEAD) },
          body: JSON.stringify({ dashboardId: 'big' }),
        });
        expect(res.status).toBe(200);
        // Read slowly enough that the gateway's writes meet a full socket and it pauses the backend's answer.
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        const parts: Uint8Array[] = [];
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parts.push(value);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        expect(Buffer.concat(parts).equals(ANSWER)).toBe(true);
      }
    } finally {
      http.ServerResponse.prototype.write = write;
    }
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(3 * ANSWER.length);
    expect(sizes.filter((n) => n === 0)).toEqual([]);
  });
});
