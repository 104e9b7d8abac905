// Everything outside /rpc/ and the gateway's own routes, sent on to the upstream (src/edge/passthrough/).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface PassThrough {
  web(req: IncomingMessage, res: ServerResponse): void;
  /** A WebSocket (or other) upgrade: proxied, or refused on the socket with a problem body. */
  upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void;
  /** Cuts the upstream connections (idle and busy). */
  close(): void;
}
