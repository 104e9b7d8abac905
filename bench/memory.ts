// Load shapes for the memory section: a stream of large bodies, and requests abandoned mid-body.

import { Agent, request } from 'node:http';
import { connect } from 'node:net';

export const MIB = 1024 * 1024;

/** A JSON body of exactly `bytes` bytes: {"reportId":…,"config":{"blob":"xxxx…"}}. */
export function bigUpdateBody(reportId: string, bytes: number): Buffer {
  const shell = JSON.stringify({ reportId, config: { blob: '' } });
  const pad = bytes - Buffer.byteLength(shell);
  if (pad < 0) throw new Error(`a ${bytes}-byte body cannot hold the report id`);
  return Buffer.from(JSON.stringify({ reportId, config: { blob: 'x'.repeat(pad) } }));
}

export interface StreamResult {
  readonly statuses: Record<string, number>;
  readonly failures: number;
  readonly seconds: number;
  readonly bytesIn: number;
}

/** `count` POSTs of `body` to `url` with at most `concurrency` in flight; every answer is read and dropped. */
export async function postStream(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: Buffer,
  count: number,
  concurrency: number,
): Promise<StreamResult> {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses: Record<string, number> = {};
  let failures = 0;
  let bytesIn = 0;
  let next = 0;
  const started = performance.now();
  const one = () =>
    new Promise<void>((done) => {
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: { ...headers, 'content-length': String(body.length) },
          agent,
          timeout: 30_000,
        },
        (res) => {
          res.on('data', (c: Buffer) => (bytesIn += c.length));
          res.on('end', () => {
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            done();
          });
          res.on('error', () => {
            failures++;
            done();
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        failures++;
        done();
      });
      req.end(body);
    });
  const worker = async () => {
    while (next < count) {
      next++;
      await one();
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return { statuses, failures, seconds: (performance.now() - started) / 1000, bytesIn };
}

/**
 * `count` requests that send their headers (Content-Length: declaredBytes) and `sentBytes` of the body, then
 * destroy the socket; `concurrency` at a time. Resolves with how many got an answer before they left
 * (expected 0: the gateway is still waiting for the body).
 */
export async function abortedRequests(
  url: string,
  headers: Readonly<Record<string, string>>,
  declaredBytes: number,
  sentBytes: number,
  count: number,
  concurrency: number,
): Promise<{ answered: number; seconds: number }> {
  const target = new URL(url);
  const head =
    `POST ${target.pathname} HTTP/1.1\r\nhost: ${target.host}\r\n` +
    Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    `content-length: ${declaredBytes}\r\n\r\n`;
  const partial = Buffer.alloc(sentBytes, 0x20); // whitespace: a valid start of a JSON body
  partial[0] = 0x7b; // '{'
  let answered = 0;
  let next = 0;
  const started = performance.now();
  const one = () =>
    new Promise<void>((done) => {
      const socket = connect(Number(target.port), target.hostname);
      socket.on('data', () => answered++);
      socket.on('error', () => {});
      socket.once('close', () => done());
      socket.once('connect', () => {
        socket.write(head);
        // Once the partial body is handed to the kernel, give the gateway a moment to read it, then reset.
        socket.write(partial, () => setTimeout(() => socket.destroy(), 5));
      });
    });
  const worker = async () => {
    while (next < count) {
      next++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { answered, seconds: (performance.now() - started) / 1000 };
}
