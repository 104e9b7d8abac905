// Connections an answer closes. Node keeps parsing what a client pipelined behind a request and emits it as a request
// of its own even when the answer before it says `Connection: close` and is the last one sent: such a request must not
// be served (after a refused framing it may be bytes a backend would read as part of the refused request).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const closing = new WeakSet<Socket>();

/** Makes `res` the last answer on its connection: nothing parsed after `req` on it is served. */
export function closeAfter(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  closing.add(req.socket);
}

/** Whether `req` came on a connection an earlier answer closes: it is left unserved and the connection ends. */
export function behindClosingAnswer(req: IncomingMessage): boolean {
  return closing.has(req.socket);
}
