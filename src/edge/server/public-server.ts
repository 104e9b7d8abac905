// The public listener: /rpc/* on the hot path (plain Node), the own routes through the discovery app, everything
// else (WebSocket upgrades included) through pass-through when it is on.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { GatewayError } from '../../core/errors.js';
import { createDiscoveryApp } from '../discovery/discovery.js';
import { onExchangeEnd } from '../http/exchange-end.js';
import { behindClosingAnswer, closeAfter } from '../http/closing.js';
import { framingRefusal, isWebSocketUpgrade, upgradeWithBody } from '../http/framing.js';
import { requestIdOf } from '../http/headers.js';
import { listen } from '../../net/listen.js';
import { answerNodeRefusals } from '../http/node-answers.js';
import { endpointNotFound, sendProblem } from '../http/problem.js';
import { routeOf } from './routes.js';
import { refuseOnSocket } from '../http/socket-answer.js';
import { handleRpc } from '../rpc/handler.js';
import type { Runtime } from '../../ports/runtime.js';
import { Unanswered } from '../http/unanswered.js';
import { TrustedProxies, trustProxies } from '../http/client-address.js';
import { setVersionLists } from '../http/version-headers.js';

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

const isRpc = (req: IncomingMessage) => req.url?.startsWith('/rpc/') === true || req.url === '/rpc';

/** The public listener over a first generation; src/gateway/index.ts assembles both. */
export function createPublicServer(
  initial: Runtime,
  limits: ServerLimits = {
    headersTimeoutMs: initial.config.limits.headersTimeoutMs,
    requestTimeoutMs: initial.config.limits.requestTimeoutMs,
  },
): Gateway {
  const listener = new PublicListener(initial, limits);
  return {
    server: listener.server,
    runtime: () => listener.current,
    swap(next) {
      const previous = listener.current;
      listener.current = next;
      return previous;
    },
    listen: (port, host) => listen(listener.server, port, host),
    shutdown: (drainMs) => listener.shutdown(drainMs),
    close: () => listener.close(),
  };
}

/** The server, the generation new requests use, and what a drain must reach: answers not yet sent, open tunnels. */
class PublicListener {
  current: Runtime;
  private draining = false;
  // Answers not yet sent: when a drain starts, they too must carry Connection: close.
  private readonly unanswered = new Unanswered();
  // Upgraded connections (WebSockets through pass-through): cut when a shutdown's drain time is over.
  private readonly tunnels = new Set<Socket>();
  private readonly discovery: ReturnType<typeof createDiscoveryApp>;
  // listen.trustedProxies, as at start (listen.* takes a restart).
  private readonly trusted: TrustedProxies;
  readonly server: Server;

  constructor(initial: Runtime, limits: ServerLimits) {
    this.current = initial;
    this.trusted = new TrustedProxies(initial.config.listen.trustedProxies);
    this.discovery = createDiscoveryApp(() => this.current);
    const server = createServer(
      {
        headersTimeout: limits.headersTimeoutMs ?? initial.config.limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs ?? initial.config.limits.requestTimeoutMs,
        keepAliveTimeout: 5_000,
        // Node checks the two timeouts above on this interval (30 s by default): check every second.
        connectionsCheckingInterval: 1_000,
      },
      this.onRequest,
    );
    answerNodeRefusals(server);
    // Expect: 100-continue: /rpc sends the 100 once the request's head passed every check (so a refused
    // upload is never sent); other routes get it at once.
    server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
      if (!isRpc(req) && !malformedHead(req)) res.writeContinue();
      this.onRequest(req, res);
    });
    server.on('upgrade', this.onUpgrade);
    this.server = server;
  }

  readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    // Pipelined behind an answer that closes the connection: never served (Node closes it once that answer is sent).
    if (behindClosingAnswer(req)) return;
    trustProxies(req, this.trusted);
    if (this.draining) {
      res.setHeader('connection', 'close');
      res.once('finish', () => this.server.closeIdleConnections());
    } else this.unanswered.add(res);
    const malformed = malformedHead(req);
    if (malformed) {
      if (isRpc(req)) setVersionLists(res, this.current.calendar, this.current.clock());
      refuseHead(req, res, malformed);
      this.unanswered.delete(res);
      return;
    }
    // /rpc's call takes the answer off the list when its exchange ends (one end watch per request).
    if (isRpc(req)) handleRpc(this.current, req, res, this.unanswered);
    else this.outsideRpc(req, res);
  };

  private outsideRpc(req: IncomingMessage, res: ServerResponse): void {
    const unanswered = this.unanswered;
    if (!this.draining) onExchangeEnd(req, res, () => unanswered.delete(res));
    // Discovery routes and pass-through use the runtime too (/readyz pings the backend through its agent):
    // count them in flight, so that a reload does not close the runtime's upstream connections under them.
    const rt = this.current;
    onExchangeEnd(req, res, rt.track());
    const route = routeOf(req.url ?? '', rt.config.routes.prefix ?? '');
    if (route.kind === 'own') {
      req.url = route.path;
      this.discovery(req, res);
    } else if (rt.passthrough) rt.passthrough.web(req, res);
    else notFound(req, res);
  }

  readonly onUpgrade = (req: IncomingMessage, socket: Socket, head: Buffer): void => {
    trustProxies(req, this.trusted);
    const malformed = malformedHead(req);
    if (malformed) {
      refuseOnSocket(socket, malformed, requestIdOf(req.headers));
      return;
    }
    const rt = this.current;
    const passes =
      !this.draining && rt.passthrough && isWebSocketUpgrade(req) && !isRpc(req) && routeOf(req.url ?? '', rt.config.routes.prefix ?? '').kind === 'other';
    // Anything else (another Upgrade token, another method, an own route) is served as the plain request it also
    // is: RFC 9110 §7.8 lets a server ignore an Upgrade.
    if (!passes || !rt.passthrough) {
      withoutUpgrade(this.server, req, socket, head);
      return;
    }
    const withBody = upgradeWithBody(req);
    if (withBody) {
      refuseOnSocket(socket, withBody, requestIdOf(req.headers));
      return;
    }
    const tunnels = this.tunnels;
    tunnels.add(socket);
    socket.once('close', () => tunnels.delete(socket));
    rt.passthrough.upgrade(req, socket, head);
  };

  async shutdown(drainMs: number): Promise<void> {
    const server = this.server;
    this.draining = true;
    for (const res of this.unanswered.drain()) if (!res.headersSent) res.setHeader('connection', 'close');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Requests that started before the drain answer on keep-alive sockets: close those as they go idle.
    const sweep = setInterval(() => server.closeIdleConnections(), 25);
    const deadline = setTimeout(() => {
      server.closeAllConnections();
      for (const socket of this.tunnels) socket.destroy();
    }, drainMs);
    deadline.unref();
    await closed;
    clearInterval(sweep);
    clearTimeout(deadline);
    await this.current.retire();
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeIdleConnections();
      for (const socket of this.tunnels) socket.destroy();
      this.current.close();
    });
  }
}

/** Outside /rpc/ and the own routes with pass-through off: nothing is there. */
function notFound(req: IncomingMessage, res: ServerResponse): void {
  const requestId = requestIdOf(req.headers);
  res.setHeader('x-request-id', requestId);
  sendProblem(res, endpointNotFound((req.url ?? '').split('?', 1)[0]!), requestId);
}

/** A head refused before routing: the problem answer, and the connection closed (what follows may be read askew). */
function refuseHead(req: IncomingMessage, res: ServerResponse, error: GatewayError): void {
  const requestId = requestIdOf(req.headers);
  res.setHeader('x-request-id', requestId);
  closeAfter(req, res);
  sendProblem(res, error, requestId);
}

// Request heads the gateway refuses before routing: parts that servers behind it read differently from it.

/**
 * Why `req`'s head is refused (400 MALFORMED_REQUEST; 405 for TRACE), or undefined. Its framing: framing.ts. A `#`
 * never belongs in a request-target
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
  return framingRefusal(req);
}

// Serves an upgrade request that the gateway does not tunnel as the plain request it also is.
//
// Node hands every request carrying `Connection: upgrade` to the server's 'upgrade' listeners once there is
// one, and detaches its socket from the HTTP parser. A `POST /rpc/<method>` with `Upgrade: h2c` (curl --http2
// sends one) must still be answered as before: the head is rebuilt without the upgrade and fed back, with the
// bytes already read, to the server as a fresh connection on the same socket.

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
