// The public listener: /rpc/* on the hot path (plain Node), everything else through the discovery app.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createDiscoveryApp } from './discovery.js';
import { listen } from './listen.js';
import { handleRpc } from './rpc.js';
import type { Runtime } from './runtime.js';
import { Unanswered } from './unanswered.js';

export interface Gateway {
  readonly server: Server;
  /** The runtime new requests use; requests already in flight keep the one they started with. */
  runtime(): Runtime;
  /** Swaps in a new runtime in one step; the old one is closed once its requests drained (by the caller). */
  swap(next: Runtime): Runtime;
  listen(port: number, host: string): Promise<string>;
  /**
   * Graceful stop: refuse new connections, let requests in flight finish (answers carry
   * Connection: close), close idle keep-alive connections at once, cut what is left after drainMs.
   */
  shutdown(drainMs: number): Promise<void>;
  close(): Promise<void>;
}

export interface ServerLimits {
  /** Time allowed for a request's headers (slow-header clients get 408). */
  readonly headersTimeoutMs?: number;
  /** Time allowed for a whole request, body included. */
  readonly requestTimeoutMs?: number;
}

export function createGateway(
  initial: Runtime,
  limits: ServerLimits = {
    headersTimeoutMs: initial.config.limits.headersTimeoutMs,
    requestTimeoutMs: initial.config.limits.requestTimeoutMs,
  },
): Gateway {
  let current = initial;
  let draining = false;
  // Answers not yet sent: when a drain starts, they too must carry Connection: close.
  const unanswered = new Unanswered();
  const discovery = createDiscoveryApp(() => current);
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      res.setHeader('connection', 'close');
      res.once('finish', () => server.closeIdleConnections());
    } else {
      unanswered.add(res);
      res.once('close', () => unanswered.delete(res));
    }
    if (req.url?.startsWith('/rpc/') || req.url === '/rpc') handleRpc(current, req, res);
    else {
      // Discovery routes use the runtime too (/readyz pings the backend through its agent): count them in
      // flight, so that a reload does not close the runtime's upstream connections under them.
      res.once('close', current.track());
      discovery(req, res);
    }
  };
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs ?? initial.config.limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs ?? initial.config.limits.requestTimeoutMs,
      keepAliveTimeout: 5_000,
      // Node checks the two timeouts above on this interval (30 s by default): check every second.
      connectionsCheckingInterval: 1_000,
    },
    listener,
  );
  return {
    server,
    runtime: () => current,
    swap(next) {
      const previous = current;
      current = next;
      return previous;
    },
    listen: (port, host) => listen(server, port, host),
    async shutdown(drainMs) {
      draining = true;
      for (const res of unanswered.drain()) if (!res.headersSent) res.setHeader('connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Requests that started before the drain answer on keep-alive sockets: close those as they go idle.
      const sweep = setInterval(() => server.closeIdleConnections(), 25);
      const deadline = setTimeout(() => server.closeAllConnections(), drainMs);
      deadline.unref();
      await closed;
      clearInterval(sweep);
      clearTimeout(deadline);
      await current.retire();
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        current.close();
      });
    },
  };
}
