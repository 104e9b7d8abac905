// Raw node:net exchanges with a server, for bytes a well-behaved HTTP client cannot send (broken framing,
// duplicate or malformed header lines, stalls mid-head or mid-body), and a per-request deadline for any promise.
// Every exchange is bounded: it ends when the server closes, when the wanted number of responses arrived,
// or at the deadline (then `closedBy` is 'deadline' and the test decides whether that is a failure).

import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

export interface ParsedResponse {
  readonly status: number;
  readonly reason: string;
  /** Lower-cased names; repeated names joined with ", " (every value a string, set-cookie included). */
  readonly headers: IncomingHttpHeaders;
  readonly bodyText: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  readonly body: any;
  /** The body was complete per its framing (content-length, chunked, or read until close). */
  readonly complete: boolean;
}

export interface RawResult {
  /** Everything the server sent, as latin1 text. */
  readonly raw: string;
  /** Responses parsed from `raw`, in order; the last one may be incomplete (`complete: false`). */
  readonly responses: ParsedResponse[];
  /** Why the exchange ended. */
  readonly closedBy: 'server' | 'enough' | 'deadline' | 'error';
  /** Milliseconds from the connection to the end of the exchange. */
  readonly elapsedMs: number;
  /** Milliseconds from the connection to the moment the server closed or reset it (undefined if it did not). */
  readonly serverClosedAtMs: number | undefined;
}

/** A pause between writes. */
export interface Pause {
  readonly pauseMs: number;
}

export type Part = string | Buffer | Pause;

export interface RawOptions {
  /** Hard bound on the whole exchange. */
  readonly deadlineMs: number;
  /** Stop (and destroy the socket) once this many complete responses arrived. Default: wait for the server to close. */
  readonly responses?: number;
  /** Half-close our side after the last write (default false: a client that keeps the connection open). */
  readonly endAfterWrite?: boolean;
}

const HEAD_END = '\r\n\r\n';

/** Parses consecutive HTTP/1.1 responses out of latin1 text; `closed` says whether the stream ended. */
export function parseResponses(raw: string, closed: boolean): ParsedResponse[] {
  const out: ParsedResponse[] = [];
  let at = 0;
  // Bounded: each iteration consumes at least one head.
  for (let n = 0; n < 1000 && at < raw.length; n++) {
    const headEnd = raw.indexOf(HEAD_END, at);
    if (headEnd === -1) break;
    const lines = raw.slice(at, headEnd).split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(lines[0] ?? '');
    if (!m) break;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    let bodyStart = headEnd + HEAD_END.length;
    let body = '';
    let complete = false;
    let next = raw.length;
    const status = Number(m[1]);
    if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
      complete = true;
      next = bodyStart;
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      body = raw.slice(bodyStart, bodyStart + length);
      complete = body.length === length;
      next = Math.min(raw.length, bodyStart + length);
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const parts: string[] = [];
      let p = bodyStart;
      for (let i = 0; i < 100_000; i++) {
        const lineEnd = raw.indexOf('\r\n', p);
        if (lineEnd === -1) break;
        const size = Number.parseInt(raw.slice(p, lineEnd), 16);
        if (!Number.isFinite(size)) break;
        if (size === 0) {
          const end = raw.indexOf('\r\n', lineEnd + 2);
          if (end !== -1) {
            complete = true;
            p = end + 2;
          }
          break;
        }
        if (raw.length < lineEnd + 2 + size + 2) break;
        parts.push(raw.slice(lineEnd + 2, lineEnd + 2 + size));
        p = lineEnd + 2 + size + 2;
      }
      body = parts.join('');
      next = complete ? p : raw.length;
    } else {
      body = raw.slice(bodyStart);
      complete = closed;
    }
    const bodyText = Buffer.from(body, 'latin1').toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText);
    } catch {
      parsed = undefined;
    }
    out.push({ status, reason: m[2] ?? '', headers: headers as IncomingHttpHeaders, bodyText, body: parsed, complete });
    if (!complete) break;
    at = next;
  }
  return out;
}

/** Connects to the server of `baseUrl`, writes the parts (pausing where asked), and collects what comes back. */
export function rawExchange(baseUrl: string, parts: readonly Part[], options: RawOptions): Promise<RawResult> {
  const url = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let serverClosedAtMs: number | undefined;
    let settled = false;
    const timers = new Set<NodeJS.Timeout>();
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const finish = (closedBy: RawResult['closedBy']) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString('latin1');
      resolve({
        raw,
        responses: parseResponses(raw, closedBy === 'server' || closedBy === 'error'),
        closedBy,
        elapsedMs: performance.now() - started,
        serverClosedAtMs,
      });
    };
    const deadline = setTimeout(() => finish('deadline'), options.deadlineMs);
    timers.add(deadline);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (options.responses !== undefined) {
        const got = parseResponses(Buffer.concat(chunks).toString('latin1'), false).filter((r) => r.complete);
        if (got.length >= options.responses) finish('enough');
      }
    });
    socket.on('end', () => {
      serverClosedAtMs ??= performance.now() - started;
      finish('server');
    });
    socket.on('close', () => {
      serverClosedAtMs ??= performance.now() - started;
      finish('server');
    });
    socket.on('error', () => {
      serverClosedAtMs ??= performance.now() - started;
      finish('error');
    });
    socket.once('connect', () => {
      let i = 0;
      const writeNext = () => {
        if (settled) return;
        if (i >= parts.length) {
          if (options.endAfterWrite) socket.end();
          return;
        }
        const part = parts[i++] as Part;
        if (typeof part === 'object' && !Buffer.isBuffer(part)) {
          const t = setTimeout(() => {
            timers.delete(t);
            writeNext();
          }, part.pauseMs);
          timers.add(t);
          return;
        }
        socket.write(part, () => writeNext());
      };
      writeNext();
    });
  });
}

/** An HTTP/1.1 request head (CRLF line ends, ends with the blank line); `headers` are written verbatim, in order. */
export function head(requestLine: string, headers: readonly (readonly [string, string])[]): string {
  return `${requestLine}\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
}

/** A complete POST with a content-length body (bytes kept as given), for hostile bodies and pipelining. */
export function post(path: string, body: string | Buffer, headers: readonly (readonly [string, string])[] = []): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  // A header given in `headers` replaces the default of the same name (write both to send a duplicate).
  const given = new Set(headers.map(([n]) => n.toLowerCase()));
  const defaults: [string, string][] = [
    ['host', '127.0.0.1'],
    ['content-type', 'application/json'],
    ['content-length', String(bytes.length)],
  ];
  const lines = head(`POST ${path} HTTP/1.1`, [...defaults.filter(([n]) => !given.has(n)), ...headers]);
  return Buffer.concat([Buffer.from(lines, 'latin1'), bytes]);
}

/** Rejects when `promise` has not settled within `ms`: every request of the hostile suites is bounded this way. */
export function within<T>(ms: number, promise: Promise<T>, label = 'request'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
