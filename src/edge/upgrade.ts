// Serves an upgrade request that the gateway does not tunnel as the plain request it also is.
//
// Node hands every request carrying `Connection: upgrade` to the server's 'upgrade' listeners once there is
// one, and detaches its socket from the HTTP parser. A `POST /rpc/<method>` with `Upgrade: h2c` (curl --http2
// sends one) must still be answered as before: the head is rebuilt without the upgrade and fed back, with the
// bytes already read, to the server as a fresh connection on the same socket.

import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

export function withoutUpgrade(server: Server, req: IncomingMessage, socket: Socket, head: Buffer): void {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    let value = raw[i + 1] as string;
    const lower = name.toLowerCase();
    if (lower === 'upgrade') continue;
    if (lower === 'connection') {
      value = value
        .split(',')
        .map((token) => token.trim())
        .filter((token) => token && token.toLowerCase() !== 'upgrade')
        .join(', ');
      if (!value) continue;
    }
    lines.push(`${name}: ${value}`);
  }
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}
