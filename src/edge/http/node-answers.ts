// The answers Node's HTTP server gives before a request reaches a handler (a request it cannot parse,
// headers too large, a client too slow, an expectation it cannot meet), in the gateway's problem shape.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { GatewayError, type OtherCode } from '../../core/errors.js';
import { requestIdOf } from './headers.js';
import { closeAfter } from './closing.js';
import { sendProblem } from './problem.js';
import { refuseOnSocket } from './socket-answer.js';

/** Responses that were in flight on a connection when the server itself answered on it, and with what status. */
const answeredBySocket = new WeakMap<ServerResponse, number>();

/** The status the server wrote for `res` on its connection (a 408 mid-body), if it did. */
export const socketAnswer = (res: ServerResponse): number | undefined => answeredBySocket.get(res);

const REFUSALS: Readonly<Record<string, readonly [OtherCode, string]>> = {
  HPE_HEADER_OVERFLOW: ['HEADERS_TOO_LARGE', 'the request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: ['REQUEST_TIMEOUT', 'the request did not arrive in time (limits.headersTimeoutMs, limits.requestTimeoutMs)'],
};

function refusalOf(err: Error & { code?: string }): GatewayError {
  const [code, detail] = REFUSALS[err.code ?? ''] ?? ['MALFORMED_REQUEST', 'the request is not valid HTTP/1.1'];
  return new GatewayError(code, detail, { reason: err.code ?? 'unknown' });
}

/** Installs the server hooks: 'clientError' and 'checkExpectation' answer with problem bodies. */
export function answerNodeRefusals(server: Server): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Socket) => {
    // As Node does: answer only where nothing of a response was written yet on this connection.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const error = refusalOf(err);
    const id = inFlight?.getHeader('x-request-id');
    if (inFlight) answeredBySocket.set(inFlight, error.status);
    refuseOnSocket(socket, error, typeof id === 'string' ? id : randomUUID());
  });
  // An Expect other than 100-continue (RFC 9110 §10.1.1).
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    closeAfter(req, res);
    const error = new GatewayError('EXPECTATION_FAILED', 'the only expectation this server meets is 100-continue', {
      received: String(req.headers.expect ?? '').slice(0, 100),
    });
    const requestId = requestIdOf(req.headers);
    res.setHeader('x-request-id', requestId);
    sendProblem(res, error, requestId);
  });
}
