// A naive upstream that grants every upgrade (101 for h2c, foo, websocket alike) and then keeps reading the
// connection as HTTP/1.1, as a careless server does: whatever a proxy lets through such a tunnel is recorded with
// `tunnelled: true`. Plain requests are answered 200 with what the upstream saw, as JSON.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** It came through a connection this upstream had switched with a 101. */
  readonly tunnelled: boolean;
  /** It asked for an upgrade (and got a 101). */
  readonly upgraded: boolean;
}

export interface AnyUpgradeUpstream {
  readonly url: string;
  readonly requests: readonly SeenRequest[];
  close(): Promise<void>;
}

export async function startAnyUpgradeUpstream(): Promise<AnyUpgradeUpstream> {
  const requests: SeenRequest[] = [];
  const switched = new WeakSet<Socket>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, tunnelled: switched.has(req.socket), upgraded: false };
    requests.push(seen);
    req.resume();
    req.once('end', () => {
      const body = JSON.stringify(seen);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req, socket: Socket, head: Buffer) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, tunnelled: switched.has(socket), upgraded: true });
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: ${req.headers.upgrade ?? ''}\r\n\r\n`);
    // The careless part: the switched connection is read as HTTP/1.1 again.
    switched.add(socket);
    if (head.length) socket.unshift(head);
    server.emit('connection', socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
