// "This exchange is over", told once per request: the response closed, or the connection under it did.
//
// A response queued behind a pipelined request never emits 'close' when the client leaves (only the
// response on the socket does), so the socket's own 'close' is watched too: one listener per socket,
// holding the exchanges still open on it.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const open = Symbol('exchanges open on this socket');
type Watched = Socket & { [open]?: (() => void)[] };

function closeAll(this: Watched): void {
  const pending = this[open];
  this[open] = undefined;
  if (pending) for (const end of pending) end();
}

/** Calls `fn` once, when `res` closes or the connection under it does, whichever comes first. */
export function onExchangeEnd(req: IncomingMessage, res: ServerResponse, fn: () => void): void {
  const socket = req.socket as Watched | null;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const pending = socket?.[open];
    if (pending) {
      const i = pending.indexOf(end);
      if (i >= 0) pending.splice(i, 1);
    }
    fn();
  };
  res.once('close', end);
  if (!socket || socket.destroyed) {
    // The connection is already gone: the response will never be sent.
    if (!res.writableFinished) process.nextTick(end);
    return;
  }
  const pending = socket[open];
  if (pending) pending.push(end);
  else {
    socket[open] = [end];
    socket.once('close', closeAll);
  }
}
