// A stand-in for the BI service's web side, behind the gateway's pass-through: a static page with its assets,
// a large streamed download, a slow-reading upload sink, a header echo, an answer that never comes, and a
// WebSocket echo (ws). Every request is recorded.

import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';

export const PAGE = `<!doctype html>
<html><head><title>BI service</title><link rel="stylesheet" href="/assets/app.css"></head>
<body><h1>BI service</h1><img src="/assets/logo.png" alt=""><script src="/assets/app.js"></script></body></html>
`;
/** Assets by path: bytes and content type (the logo is binary, on purpose). */
export const ASSETS: Record<string, { type: string; body: Buffer }> = {
  '/assets/app.css': { type: 'text/css; charset=utf-8', body: Buffer.from('body { font-family: sans-serif; }\n') },
  '/assets/app.js': { type: 'text/javascript; charset=utf-8', body: Buffer.from('document.title += " (loaded)";\n') },
  '/assets/logo.png': { type: 'image/png', body: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131) & 0xff)) },
};

/** The deterministic bytes of a download: block `i` of 64 KiB is filled with the byte i & 0xff. */
export const BLOCK = 64 * 1024;
export function downloadSha(bytes: number): string {
  const hash = createHash('sha256');
  for (let sent = 0, i = 0; sent < bytes; i++, sent += BLOCK) hash.update(Buffer.alloc(Math.min(BLOCK, bytes - sent), i & 0xff));
  return hash.digest('hex');
}

export interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface WebUpstream {
  readonly url: string;
  readonly requests: readonly Recorded[];
  /**
   * 'upload-progress' (bytes received so far), 'download-progress' (bytes written so far),
   * 'request-closed' (url) when a request's connection closes before its answer ended,
   * 'ws-connection' (request headers).
   */
  readonly events: EventEmitter;
  /** Bytes of the latest download written to the socket so far. */
  downloadSent(): number;
  /** Bytes of the latest upload read so far. */
  uploadReceived(): number;
  /** Lets uploads stalled at `stallAt` go on reading. */
  resumeUploads(): void;
  close(): Promise<void>;
}

export async function startWebUpstream(): Promise<WebUpstream> {
  const requests: Recorded[] = [];
  let downloadSent = 0;
  let uploadReceived = 0;
  let released = false;
  const stalled: (() => void)[] = [];
  const events = new EventEmitter();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://upstream');
    res.once('close', () => {
      if (!res.writableFinished) events.emit('request-closed', req.url);
    });
    if (url.pathname === '/' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(PAGE) });
      res.end(PAGE);
      return;
    }
    const asset = ASSETS[url.pathname];
    if (asset) {
      res.writeHead(200, { 'content-type': asset.type, 'content-length': asset.body.length, 'cache-control': 'max-age=60' });
      res.end(req.method === 'HEAD' ? undefined : asset.body);
      return;
    }
    if (url.pathname === '/echo-headers') {
      const body = JSON.stringify(req.headers);
      res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive, x-upstream-hop', 'x-upstream-hop': 'secret', 'keep-alive': 'timeout=99, max=7' });
      res.end(body);
      return;
    }
    if (url.pathname === '/download') {
      // Written block by block, each only after the previous one left the socket's buffer (backpressure).
      const total = Number(url.searchParams.get('bytes'));
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': total });
      let sent = 0;
      let block = 0;
      const pump = () => {
        while (sent < total) {
          const chunk = Buffer.alloc(Math.min(BLOCK, total - sent), block++ & 0xff);
          sent += chunk.length;
          downloadSent = sent;
          const more = res.write(chunk);
          events.emit('download-progress', sent);
          if (!more) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
      return;
    }
    if (url.pathname === '/upload' && req.method === 'POST') {
      // A slow reader: one chunk per turn of the event loop, and none at all past `stallAt` bytes until the
      // test calls resumeUploads().
      const stallAt = Number(url.searchParams.get('stallAt') ?? Infinity);
      const hash = createHash('sha256');
      let received = 0;
      req.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        received += chunk.length;
        uploadReceived = received;
        req.pause();
        const next = () => {
          events.emit('upload-progress', received);
          req.resume();
        };
        if (received >= stallAt && !released) stalled.push(next);
        else setImmediate(next);
      });
      req.on('end', () => {
        const body = JSON.stringify({ received, sha256: hash.digest('hex') });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
      return;
    }
    if (url.pathname === '/never') return; // holds the request until the gateway gives up or the test ends
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('upstream: not found');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (req.url !== '/ws') {
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: 9\r\nconnection: close\r\n\r\nforbidden');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      events.emit('ws-connection', req.headers);
      ws.on('message', (data, isBinary) => {
        const text = data.toString();
        // "close <code> <reason>" asks the server to close with that code; anything else is echoed.
        const close = /^close (\d{4}) (.*)$/.exec(text);
        if (!isBinary && close) ws.close(Number(close[1]), close[2]);
        else ws.send(data, { binary: isBinary });
      });
      ws.on('close', (code, reason) => events.emit('ws-closed', code, reason.toString()));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    events,
    downloadSent: () => downloadSent,
    uploadReceived: () => uploadReceived,
    resumeUploads() {
      released = true;
      for (const next of stalled.splice(0)) setImmediate(next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
