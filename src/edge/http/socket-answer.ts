// HTTP answers written on a raw socket: an upgrade request has no ServerResponse to answer with.

import { STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { GatewayError } from '../../core/errors.js';
import { problemBody } from './problem.js';

function head(status: number, reason: string, headers: OutgoingHttpHeaders): string {
  const lines = [`HTTP/1.1 ${status} ${reason.replace(/[\r\n]/g, '')}`];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The gateway's problem answer, then the connection is closed (destroyed once the answer is flushed). */
export function refuseOnSocket(socket: Socket, error: GatewayError, requestId: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(problemBody(error, requestId));
  const headers = {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    'cache-control': 'no-store',
    connection: 'close',
  };
  socket.end(head(error.status, STATUS_CODES[error.status] ?? 'Error', headers) + body, () => socket.destroy());
}

/**
 * Relays an upstream's answer to an upgrade it refused: its status and headers (`headers`, hop-by-hop ones
 * already dropped), its body streamed and delimited by the connection's close.
 */
export function relayOnSocket(socket: Socket, answer: IncomingMessage, headers: OutgoingHttpHeaders): void {
  if (!socket.writable) {
    answer.destroy();
    socket.destroy();
    return;
  }
  const out: OutgoingHttpHeaders = { ...headers, connection: 'close' };
  delete out['content-length'];
  delete out['transfer-encoding'];
  socket.write(head(answer.statusCode ?? 502, answer.statusMessage ?? '', out));
  answer.pipe(socket);
  answer.once('error', () => socket.destroy());
  socket.once('close', () => answer.destroy());
}
