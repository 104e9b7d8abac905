// Request heads the gateway refuses before routing: parts that servers behind it read differently from it.

import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../core/errors.js';

/**
 * Why `req`'s head is refused (400 MALFORMED_REQUEST), or undefined. A `#` never belongs in a request-target
 * (RFC 9112 §3.2: origin-form is a path and a query; RFC 3986 §3.5 puts the fragment after `#`), yet WHATWG URL
 * parsers cut the path there, so `/rpc#/x` would be `/rpc` to a backend and something else to the routing. Two
 * Host fields make the authority ambiguous (RFC 9112 §3.2: answer 400).
 */
export function malformedHead(req: IncomingMessage): GatewayError | undefined {
  const url = req.url ?? '';
  if (url.includes('#')) {
    return new GatewayError('MALFORMED_REQUEST', 'the request-target holds a "#": a fragment is never sent to a server', {
      reason: 'fragment-in-target',
    });
  }
  const raw = req.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host' && ++hosts > 1) {
      return new GatewayError('MALFORMED_REQUEST', 'the request has more than one Host field', { reason: 'duplicate-host' });
    }
  }
  return undefined;
}
