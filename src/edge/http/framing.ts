// Request framing at the edge: which requests the gateway accepts, and how the body it forwards is framed.
// Node's parser (llhttp) already refuses most ambiguous framing (both Content-Length and Transfer-Encoding, two
// lengths, a coding after chunked, obs-fold, bad chunk sizes); what it lets through and a backend could read
// otherwise is refused here. The rule, with its RFC 9112 sections, is in docs/architecture.md ("Request framing").

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { GatewayError } from '../../core/errors.js';

/** Methods the gateway never forwards: TRACE echoes the request (RFC 9110 §9.3.8), credentials included. */
const REFUSED_METHODS = new Set(['TRACE']);

/** Why `req`'s framing is refused (400, or 405 for TRACE), or undefined when the gateway can frame its body itself. */
export function framingRefusal(req: IncomingMessage): GatewayError | undefined {
  if (REFUSED_METHODS.has(req.method ?? '')) {
    return new GatewayError('METHOD_NOT_ALLOWED', `${req.method} is not served: it would echo the request, credentials included`, {
      method: req.method ?? '',
      allow: req.url?.startsWith('/rpc') ? 'POST' : 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    });
  }
  const te = req.headers['transfer-encoding'];
  if (te === undefined) return undefined;
  // RFC 9112 §6.1: Transfer-Encoding in HTTP/1.0 means the framing is faulty.
  if (req.httpVersion === '1.0') {
    return new GatewayError('MALFORMED_REQUEST', 'Transfer-Encoding is not defined for HTTP/1.0: the framing is faulty', {
      reason: 'transfer-encoding-http-1.0',
    });
  }
  // RFC 9112 §6.1 and §7: the only transfer coding the gateway decodes and re-applies is chunked, alone.
  if (te.trim().toLowerCase() !== 'chunked') {
    return new GatewayError('MALFORMED_REQUEST', 'the only Transfer-Encoding accepted is "chunked" alone', {
      reason: 'transfer-coding',
      received: te.slice(0, 100),
    });
  }
  return undefined;
}

/** An upgrade carrying a body: what follows the head would be read as the body by one server and as the tunnel by another. */
export function upgradeWithBody(req: IncomingMessage): GatewayError | undefined {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0)) return undefined;
  return new GatewayError('MALFORMED_REQUEST', 'an upgrade request carries no body', { reason: 'upgrade-with-body' });
}

/**
 * Sets on `out` (the upstream request's headers) the framing of the body as the gateway sends it: the client's
 * validated Content-Length, or chunked when the client sent its body chunked, whatever the method (node:http
 * chunks only methods that usually carry a body, and would write a GET's body unframed). No body: no framing field.
 */
export function setBodyFraming(out: IncomingHttpHeaders, req: IncomingMessage): void {
  const length = req.headers['content-length'];
  if (length !== undefined) out['content-length'] = length;
  else if (req.headers['transfer-encoding'] !== undefined) out['transfer-encoding'] = 'chunked';
}

/** Whether an Upgrade is the one the gateway tunnels: a WebSocket handshake (RFC 6455 §4.1: GET, the token `websocket`). */
export function isWebSocketUpgrade(req: IncomingMessage): boolean {
  if (req.method !== 'GET') return false;
  const upgrade = req.headers.upgrade;
  if (!upgrade) return false;
  return upgrade.split(',').some((token) => token.trim().toLowerCase() === 'websocket');
}
