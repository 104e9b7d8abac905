// A raw-TCP upstream whose answer to each request is a script (write a head, trickle a body, stall, cut),
// for the faults fault-upstream.ts has no mode for: trickling bodies, headers then silence, oversize answers.
// It records every request and emits 'request' and 'socket-close', like fault-upstream.ts.

import { EventEmitter } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface ScriptedRequest {
  readonly method: string;
  readonly path: string;
  /** Lower-cased names; repeated names keep the last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a script may do with the connection; every timer it starts through `later` is cleared on close. */
export interface ScriptApi {
  readonly socket: Socket;
  readonly request: ScriptedRequest;
  /** Runs `fn` after `ms` unless the socket is gone by then. */
  later(ms: number, fn: () => void): void;
}

export type Script = (api: ScriptApi) => void;

export interface ScriptedUpstream {
  readonly url: string;
  readonly requests: readonly ScriptedRequest[];
  /** Connections accepted, and connections currently open. */
  readonly connections: number;
  readonly open: number;
  /** Connections still open that have carried at least one request. */
  readonly openUsed: number;
  readonly events: EventEmitter;
  close(): Promise<void>;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** One content-length-framed request from the front of `buf` (the gateway always sends content-length). */
function take(buf: Buffer): { request: ScriptedRequest; used: number } | undefined {
  const end = buf.indexOf(HEAD_END);
  if (end === -1) return undefined;
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const [method = '', path = ''] = (lines[0] ?? '').split(' ');
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? '0');
  const start = end + HEAD_END.length;
  if (buf.length < start + length) return undefined;
  return { request: { method, path, headers, body: buf.subarray(start, start + length).toString('utf8') }, used: start + length };
}

/** A response head with the given status line and headers (written verbatim, in order). */
export function responseHead(status: string, headers: Record<string, string | number>): string {
  return `HTTP/1.1 ${status}\r\n${Object.entries(headers)
    .map(([n, v]) => `${n}: ${v}\r\n`)
    .join('')}\r\n`;
}

export async function startScriptedUpstream(script: Script): Promise<ScriptedUpstream> {
  const sockets = new Set<Socket>();
  const requests: ScriptedRequest[] = [];
  const events = new EventEmitter();
  let connections = 0;
  const used = new Set<Socket>();

  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    const timers = new Set<NodeJS.Timeout>();
    socket.on('close', () => {
      for (const t of timers) clearTimeout(t);
      sockets.delete(socket);
      used.delete(socket);
      events.emit('socket-close');
    });
    socket.on('error', () => {
      /* resets from either side are expected */
    });
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length > 4 * 1024 * 1024) return void socket.destroy();
      for (let i = 0; i < 100; i++) {
        const taken = take(buf);
        if (!taken) break;
        buf = buf.subarray(taken.used);
        requests.push(taken.request);
        used.add(socket);
        events.emit('request', taken.request);
        script({
          socket,
          request: taken.request,
          later(ms, fn) {
            const t = setTimeout(() => {
              timers.delete(t);
              if (!socket.destroyed) fn();
            }, ms);
            timers.add(t);
          },
        });
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
    events,
    get requests() {
      return requests.slice();
    },
    get connections() {
      return connections;
    },
    get open() {
      return sockets.size;
    },
    get openUsed() {
      return used.size;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      return closing;
    },
  };
}
