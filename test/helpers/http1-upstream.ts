// A logging upstream on raw node:net that reads what it gets as HTTP/1.1 the lenient way a careless backend would
// (LF or CRLF line ends, obs-fold joined, Transfer-Encoding ending in "chunked" before Content-Length, hex chunk
// sizes read with parseInt), so that bytes a proxy failed to frame show up as extra requests instead of vanishing
// inside node:http's strict parser. It records every request it can parse, per connection and in order, answers
// each with a small 200 (`{}` as JSON, what the gateway's /rpc forwarder needs), answers a WebSocket upgrade with
// 101 and then logs the tunnel's raw bytes, and keeps whatever it could not parse as the connection's stray bytes.

import { createHash } from 'node:crypto';
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';

export interface Http1Request {
  /** The connection it came on (1-based, in accept order) and its place there (0-based). */
  readonly connection: number;
  readonly index: number;
  /** The request line as read, without its line end. */
  readonly requestLine: string;
  readonly method: string;
  readonly target: string;
  readonly version: string;
  /** Header lines as read (obs-fold joined to the previous line), names lower-cased, values trimmed, in order. */
  readonly headers: readonly (readonly [string, string])[];
  /** How the body was delimited. */
  readonly framing: 'none' | 'content-length' | 'chunked';
  /** The body, decoded from chunked when it was chunked. */
  readonly body: Buffer;
}

export interface Http1Connection {
  readonly id: number;
  readonly requests: Http1Request[];
  /** Bytes that followed a 101 answer. */
  tunnel: Buffer;
  /** Bytes not parsed (yet): a head or body still arriving, or garbage; final once the connection closed. */
  stray: Buffer;
  closed: boolean;
}

export interface Http1Upstream {
  readonly url: string;
  /** Every connection accepted so far, oldest first. */
  readonly connections: readonly Http1Connection[];
  /** Every request parsed so far, connection by connection. */
  requests(): Http1Request[];
  /** Destroys every open connection (what is buffered then becomes stray bytes) and stops listening. */
  close(): Promise<void>;
}

/** The first value of a header, or undefined. */
export function headerOf(request: Pick<Http1Request, 'headers'>, name: string): string | undefined {
  return request.headers.find(([n]) => n === name)?.[1];
}

/** The end of the line starting at `from` (index of its LF) and where the next line starts, or undefined. */
function lineAt(buf: Buffer, from: number): { text: string; next: number } | undefined {
  const lf = buf.indexOf(0x0a, from);
  if (lf === -1) return undefined;
  const end = lf > from && buf[lf - 1] === 0x0d ? lf - 1 : lf;
  return { text: buf.toString('latin1', from, end), next: lf + 1 };
}

/** A head read from `from`: request line and header lines up to the first empty line, or undefined if incomplete. */
function readHead(buf: Buffer, from: number): { lines: string[]; next: number } | undefined {
  let at = from;
  // Empty lines before a request line are skipped, as RFC 9112 section 2.2 lets a server do.
  for (let line = lineAt(buf, at); line && line.text === ''; line = lineAt(buf, at)) at = line.next;
  const lines: string[] = [];
  for (let line = lineAt(buf, at); line; line = lineAt(buf, at)) {
    at = line.next;
    if (line.text === '') return { lines, next: at };
    lines.push(line.text);
  }
  return undefined;
}

/** A chunked body from `from`: decoded bytes and where it ends (after the trailers), or undefined if incomplete. */
function readChunked(buf: Buffer, from: number): { body: Buffer; next: number } | undefined {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const sizeLine = lineAt(buf, at);
    if (!sizeLine) return undefined;
    // Lenient: parseInt takes a hex prefix and ignores extensions, spaces after it and junk.
    const size = Number.parseInt(sizeLine.text.split(';', 1)[0] ?? '', 16);
    if (!Number.isSafeInteger(size) || size < 0) return { body: Buffer.concat(parts), next: sizeLine.next };
    at = sizeLine.next;
    if (size === 0) {
      for (let trailer = lineAt(buf, at); trailer; trailer = lineAt(buf, at)) {
        at = trailer.next;
        if (trailer.text === '') return { body: Buffer.concat(parts), next: at };
      }
      return undefined;
    }
    if (buf.length < at + size) return undefined;
    parts.push(buf.subarray(at, at + size));
    at += size;
    const end = lineAt(buf, at);
    if (!end) return undefined;
    at = end.next;
  }
}

interface Parsed {
  readonly request: Omit<Http1Request, 'connection' | 'index'>;
  readonly next: number;
}

/** One request from the front of `buf`, or undefined when more bytes are needed. */
function readRequest(buf: Buffer): Parsed | undefined {
  const head = readHead(buf, 0);
  if (!head) return undefined;
  const [requestLine = '', ...rest] = head.lines;
  const headers: [string, string][] = [];
  for (const line of rest) {
    const last = headers[headers.length - 1];
    // obs-fold: a line starting with whitespace continues the previous field's value.
    if (/^[ \t]/.test(line) && last) {
      last[1] = `${last[1]} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    headers.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
  }
  const [method = '', target = '', version = ''] = requestLine.split(/\s+/);
  const base = { requestLine, method, target, version, headers };
  const te = headers.filter(([n]) => n === 'transfer-encoding').map(([, v]) => v).join(',');
  if (/chunked\s*$/i.test(te)) {
    const body = readChunked(buf, head.next);
    return body && { request: { ...base, framing: 'chunked', body: body.body }, next: body.next };
  }
  const cl = headers.find(([n]) => n === 'content-length');
  const length = cl ? Number.parseInt(cl[1], 10) : 0;
  if (!cl || !Number.isSafeInteger(length) || length <= 0) return { request: { ...base, framing: 'none', body: Buffer.alloc(0) }, next: head.next };
  if (buf.length < head.next + length) return undefined;
  return { request: { ...base, framing: 'content-length', body: buf.subarray(head.next, head.next + length) }, next: head.next + length };
}

/** The answer to one request: 101 to a WebSocket upgrade, else a small 200 (no body for HEAD). */
function answerTo(request: Parsed['request']): { bytes: string; upgraded: boolean } {
  const upgrade = headerOf(request, 'upgrade');
  const key = headerOf(request, 'sec-websocket-key');
  if (upgrade?.toLowerCase() === 'websocket' && key !== undefined) {
    const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    return { bytes: `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`, upgraded: true };
  }
  const body = request.method === 'HEAD' ? '' : '{}';
  return { bytes: `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n${body}`, upgraded: false };
}

export async function startHttp1Upstream(): Promise<Http1Upstream> {
  const connections: Http1Connection[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    const conn: Http1Connection = { id: connections.length + 1, requests: [], tunnel: Buffer.alloc(0), stray: Buffer.alloc(0), closed: false };
    connections.push(conn);
    sockets.add(socket);
    let pending = Buffer.alloc(0);
    let upgraded = false;
    socket.on('data', (chunk: Buffer) => {
      if (upgraded) {
        conn.tunnel = Buffer.concat([conn.tunnel, chunk]);
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      // Bounded: every turn consumes at least one head.
      for (let parsed = readRequest(pending); parsed; parsed = readRequest(pending)) {
        conn.requests.push({ ...parsed.request, connection: conn.id, index: conn.requests.length });
        pending = pending.subarray(parsed.next);
        const answer = answerTo(parsed.request);
        socket.write(answer.bytes);
        if (answer.upgraded) {
          upgraded = true;
          conn.tunnel = Buffer.from(pending);
          pending = Buffer.alloc(0);
          break;
        }
      }
      // What is left is a head or body still arriving, or bytes no request can start with.
      conn.stray = Buffer.from(pending);
    });
    socket.on('error', () => socket.destroy());
    socket.once('close', () => {
      conn.stray = Buffer.from(pending);
      conn.closed = true;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    requests: () => connections.flatMap((c) => c.requests),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
