// A raw-TCP (node:net) upstream that misbehaves in one chosen way, for tests of the gateway's forwarding.
// It parses just enough HTTP/1.1 framing (head + content-length or chunked body) to know when a
// request has arrived, so modes can act "after the request" and `slow` can serve keep-alive connections.

import { EventEmitter } from 'node:events';
import { createServer, type Server, type Socket, type AddressInfo } from 'node:net';
import { HEAD } from './calendar.js';

export type FaultMode = 'refuse' | 'hang' | 'reset' | 'garbage' | 'html' | 'reset-mid-body' | 'slow';

export interface FaultUpstreamOptions {
  /** `slow`: milliseconds to wait before answering each request (default 0). */
  delayMs?: number;
  /** `slow`: the JSON body to answer with (default `{"ok":true}`). */
  body?: string;
  /** `slow`: response headers added to (or replacing) the defaults; lower-case names. */
  headers?: Record<string, string>;
}

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  /** Lower-cased names; repeated names keep the last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface FaultUpstream {
  readonly url: string;
  readonly mode: FaultMode;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Connections still open that have carried at least one request. */
  readonly openUsed: number;
  /** Requests fully received so far, oldest first. */
  readonly requests: readonly ReceivedRequest[];
  /** Emits 'request' (ReceivedRequest) when a request has fully arrived and 'socket-close' when a connection ends. */
  readonly events: EventEmitter;
  /** Closes the listener and destroys every open socket; resolves once closed. */
  close(): Promise<void>;
}

const HEAD_END = Buffer.from('\r\n\r\n');
// A request larger than this (head and body) is not what these tests send: the socket is cut.
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** One request parsed from the front of `buf`, and how many bytes it used; undefined while incomplete. */
function takeRequest(buf: Buffer): { request: ReceivedRequest; used: number } | undefined {
  const headEnd = buf.indexOf(HEAD_END);
  if (headEnd === -1) return undefined;
  const lines = buf.subarray(0, headEnd).toString('latin1').split('\r\n');
  const [method = '', path = ''] = (lines[0] ?? '').split(' ');
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let offset = headEnd + HEAD_END.length;
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', offset);
      if (lineEnd === -1) return undefined;
      const size = Number.parseInt(buf.subarray(offset, lineEnd).toString('latin1'), 16);
      if (!Number.isFinite(size)) throw new Error('bad chunk size');
      const dataStart = lineEnd + 2;
      if (size === 0) {
        const trailerEnd = buf.indexOf(HEAD_END.subarray(0, 2), dataStart);
        if (trailerEnd === -1) return undefined;
        offset = trailerEnd + 2;
        break;
      }
      if (buf.length < dataStart + size + 2) return undefined;
      parts.push(buf.subarray(dataStart, dataStart + size));
      offset = dataStart + size + 2;
    }
    return { request: { method, path, headers, body: Buffer.concat(parts).toString('utf8') }, used: offset };
  }
  const length = Number(headers['content-length'] ?? '0');
  if (buf.length < offset + length) return undefined;
  const body = buf.subarray(offset, offset + length).toString('utf8');
  return { request: { method, path, headers, body }, used: offset + length };
}

function httpResponse(status: string, contentType: string, body: string, extra: Record<string, string> = {}): string {
  const headers: Record<string, string> = {
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'keep-alive',
    ...extra,
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status}\r\n${lines.join('')}\r\n${body}`;
}

/** A URL of a 127.0.0.1 port that nothing listens on (bound, then released). */
async function freePortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export async function startFaultUpstream(mode: FaultMode, opts: FaultUpstreamOptions = {}): Promise<FaultUpstream> {
  if (mode === 'refuse') {
    const url = await freePortUrl();
    return { url, mode, connections: 0, openUsed: 0, requests: [], events: new EventEmitter(), close: () => Promise.resolve() };
  }

  const delayMs = opts.delayMs ?? 0;
  const jsonBody = opts.body ?? '{"ok":true}';
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const requests: ReceivedRequest[] = [];
  const events = new EventEmitter();
  let connections = 0;

  const used = new Set<Socket>();
  const onRequest = (socket: Socket, request: ReceivedRequest): boolean => {
    used.add(socket);
    requests.push(request);
    events.emit('request', request);
    switch (mode) {
      case 'hang':
        return true; // keep reading, never answer
      case 'reset':
        socket.resetAndDestroy();
        return false;
      case 'garbage':
        socket.end('\x00\x01this is not HTTP at all\r\n\r\n\xff\xfe');
        return false;
      case 'html':
        socket.write(httpResponse('200 OK', 'text/html; charset=utf-8', '<!doctype html><title>Login</title><p>please sign in</p>'));
        return true;
      case 'reset-mid-body':
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"id":"x",',
          () => socket.destroy(),
        );
        return false;
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!socket.destroyed) socket.write(httpResponse('200 OK', 'application/json', jsonBody, { 'x-dl-api-version': String(HEAD), ...opts.headers }));
        }, delayMs);
        timers.add(timer);
        return true;
      }
      default:
        return false;
    }
  };

  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      used.delete(socket);
      events.emit('socket-close');
    });
    socket.on('error', () => {
      /* resets from either side are expected here */
    });
    let buf = Buffer.alloc(0);
    let active = true;
    socket.on('data', (chunk: Buffer) => {
      if (!active) return;
      buf = Buffer.concat([buf, chunk]);
      if (buf.length > MAX_BUFFERED_BYTES) {
        socket.destroy();
        return;
      }
      // Bounded: each iteration consumes at least one request's head.
      for (let i = 0; i < 1000 && active; i++) {
        let taken: ReturnType<typeof takeRequest>;
        try {
          taken = takeRequest(buf);
        } catch {
          socket.destroy();
          return;
        }
        if (!taken) break;
        buf = buf.subarray(taken.used);
        active = onRequest(socket, taken.request);
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}`,
    mode,
    events,
    get connections() {
      return connections;
    },
    get openUsed() {
      return used.size;
    },
    get requests() {
      return requests.slice();
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      return closing;
    },
  };
}
