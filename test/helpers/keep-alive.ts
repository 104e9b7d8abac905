// One client connection used request by request, never pipelined: send a request, wait for its answer or
// the server's close, then send the next one on the same socket. For "the connection is reusable or closed".

import { connect } from 'node:net';
import { type ParsedResponse, parseResponses } from './raw-socket.js';

export interface Answer {
  /** The awaited response: complete, or as far as it came before the server closed (undefined if no head came). */
  readonly response: ParsedResponse | undefined;
  /** The server had closed (or reset) the connection when the answer was taken. */
  readonly closed: boolean;
  /** Everything received on the connection so far, as latin1 text (one char per byte). */
  readonly raw: string;
}

export interface Connection {
  send(bytes: string | Buffer): void;
  /** Resolves once the index-th response (from 0) is complete, or once the server closed the connection. */
  answer(index: number): Promise<Answer>;
  /** Resolves when the server closes or resets the connection. */
  readonly closed: Promise<void>;
  destroy(): void;
}

export function openConnection(baseUrl: string): Promise<Connection> {
  const url = new URL(baseUrl);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  const chunks: Buffer[] = [];
  let isClosed = false;
  const waiters: { index: number; resolve: (a: Answer) => void }[] = [];
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));

  const check = () => {
    if (!waiters.length) return;
    const raw = Buffer.concat(chunks).toString('latin1');
    const responses = parseResponses(raw, isClosed);
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i]!;
      const response = responses[w.index];
      if (isClosed || response?.complete) {
        waiters.splice(i, 1);
        w.resolve({ response, closed: isClosed, raw });
      }
    }
  };
  const close = () => {
    if (isClosed) return;
    isClosed = true;
    markClosed();
    check();
  };
  socket.on('data', (c: Buffer) => {
    chunks.push(c);
    check();
  });
  socket.on('end', close);
  socket.on('close', close);
  socket.on('error', close);

  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve({
        send: (bytes) => void socket.write(bytes),
        answer: (index) =>
          new Promise<Answer>((res) => {
            waiters.push({ index, resolve: res });
            check();
          }),
        closed,
        destroy: () => socket.destroy(),
      });
    });
  });
}
