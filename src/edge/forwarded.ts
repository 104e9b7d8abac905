// The X-Forwarded-* headers the gateway sets towards the backend, from the client's connection (the client's own
// copies are gateway-owned and never forwarded: OWNED_UPSTREAM in headers.ts).

import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/**
 * Sets them on `out` (the upstream request's headers). `withHost`: X-Forwarded-Host too (pass-through, whose pages
 * build links; /rpc never trusts the client's Host).
 */
export function setForwardedHeaders(out: Record<string, string | string[] | undefined>, req: IncomingMessage, withHost = true): void {
  const socket = req.socket;
  out['x-forwarded-proto'] = (socket as TLSSocket).encrypted ? 'https' : 'http';
  if (socket.remoteAddress) out['x-forwarded-for'] = socket.remoteAddress;
  if (socket.localPort) out['x-forwarded-port'] = String(socket.localPort);
  const host = req.headers.host;
  if (host && withHost) out['x-forwarded-host'] = host;
}
