// A large answer streamed at the latest version: the gateway reads from the backend only as fast as the
// client reads from it (undici's dispatch is paused while the client's socket is full), and every byte
// arrives in order.

import { createHash } from 'node:crypto';
import { type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseHead, startScriptedUpstream } from '../helpers/scripted-upstream.js';
import { type Stack, startStack } from '../helpers/stack.js';
import { until } from '../helpers/until.js';

// Larger than what loopback socket buffers hold on both hops, so that a gateway that ignored
// backpressure would have drained the backend long before the client read anything.
const BODY_BYTES = 32 * 1024 * 1024;
const body = Buffer.from(JSON.stringify({ id: 'rep_big', pad: 'x'.repeat(BODY_BYTES - 24) }));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** getReport at latest with node:http, whose response stream the test can pause and destroy. */
function getBigReport(url: string): Promise<IncomingMessage> {
  const payload = '{"reportId":"rep_big"}';
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(new URL(url).port),
        method: 'POST',
        path: '/rpc/getReport',
        headers: { 'content-type': 'application/json', 'x-dl-api-version': 'latest', 'content-length': payload.length },
      },
      resolve,
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('a large streamed answer and a client that reads slowly', () => {
  let upstream: Awaited<ReturnType<typeof startScriptedUpstream>>;
  let stack: Stack;
  /** Bytes the backend has written that its socket could not hand to the gateway yet. */
  let backendPending = () => 0;
  beforeAll(async () => {
    upstream = await startScriptedUpstream(({ socket }) => {
      socket.write(responseHead('200 OK', { 'content-type': 'application/json', 'content-length': body.length }));
      socket.write(body);
      backendPending = () => socket.writableLength;
    });
    stack = await startStack({ upstreamUrl: upstream.url, config: { upstream: { timeoutMs: 60_000 } } });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it('stops reading from the backend while the client does not read, then delivers every byte', async () => {
    const res = await getBigReport(stack.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(body.length));
    res.pause();

    // While the client reads nothing, the backend's socket stays full: the gateway stopped reading it.
    // (Bounded wait: up to 2 s for the buffers on both hops to fill and settle.)
    let pending = 0;
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 50));
      pending = backendPending();
      if (pending > 0 && i >= 10) break;
    }
    expect(pending).toBeGreaterThan(0);
    const stalled = backendPending();
    await new Promise((r) => setTimeout(r, 200));
    expect(backendPending()).toBe(stalled);

    // Once the client reads, everything arrives, byte for byte.
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.resume();
    await new Promise<void>((resolve, reject) => {
      res.on('end', resolve);
      res.on('error', reject);
    });
    const received = Buffer.concat(chunks);
    expect(received.length).toBe(body.length);
    expect(sha(received)).toBe(sha(body));
    expect(backendPending()).toBe(0);
  });

  it("cancels the backend's answer when the client leaves in the middle of it", async () => {
    const closedBefore = upstream.connections - upstream.open;
    const res = await getBigReport(stack.url);
    expect(res.statusCode).toBe(200);
    // Read a little, then hang up.
    await new Promise<void>((resolve) => res.once('data', () => resolve()));
    res.destroy();
    // The connection that carried the abandoned answer is closed.
    await until(upstream.events, 'socket-close', () => upstream.openUsed === 0 && upstream.connections - upstream.open > closedBefore, 'the abandoned connection to close', 2_000);
  });
});
