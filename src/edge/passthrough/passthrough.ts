// Pass-through: a request outside /rpc/ and the gateway's own routes goes to the upstream as sent and streams
// both ways, on node:http as a bare proxy does (WebSocket upgrades on http-proxy-middleware). Owned here: the
// same header rules as /rpc (hop-by-hop and gateway-owned headers dropped, the request id and X-Forwarded-*
// set), 502/504 told apart as on /rpc with the problem body, a deadline for the answer's head, and a client
// that leaves cancels its upstream request.

import { Agent, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { createProxyMiddleware, type Plugin, type RequestHandler } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import type { RequestMetrics } from '../../ports/metrics.js';
import type { PassThrough } from '../../ports/passthrough.js';
import { upstreamFailed, upstreamTimeout } from '../../core/upstream-errors.js';
import { setForwardedHeaders, HOP_BY_HOP, connectionListed, forwardableHeaders, requestIdOf } from '../http/headers.js';
import { setBodyFraming } from '../http/framing.js';
import { endpointNotFound, sendProblem } from '../http/problem.js';
import { isUnder, lenientPaths } from './lenient-path.js';
import { refuseOnSocket, relayOnSocket } from '../http/socket-answer.js';

export interface PassThroughOptions {
  readonly target: string;
  /** Time the upstream has for the answer's head once the request is in, and the longest silence after it. */
  readonly timeoutMs: number;
  readonly maxSockets: number;
  readonly keepAliveMs: number;
  /** Path prefixes never passed through (besides /rpc), as in `passthrough.exclude`. */
  readonly exclude: readonly string[];
  readonly metrics: RequestMetrics;
  /** Gets one line per request: method, path (no query), status, duration, error code. */
  readonly requestLog: Logger;
}


/** One proxied request's state, kept on the request object. */
interface Passage {
  readonly requestId: string;
  /** performance.now() when the request came in. */
  readonly started: number;
  /** Logged and counted already. */
  accounted?: boolean;
  proxyReq?: ClientRequest;
  timer?: NodeJS.Timeout;
  /** The answer's head is in (or the upgrade happened): from now on a failure can only cut the stream. */
  answered: boolean;
  timedOut: boolean;
  /** The client went away, or the gateway already answered: nobody is waiting for the upstream. */
  over: boolean;
  /** The gateway's own error code, when it answered instead of the upstream. */
  error?: string;
}

const passage = Symbol('passage');
type Carrying = IncomingMessage & { [passage]?: Passage };

/**
 * The request headers the backend gets: the client's forwardable ones (the /rpc rules: no hop-by-hop, no
 * gateway-owned, no `_` names), plus the gateway's request id and X-Forwarded-*. An upgrade keeps its Upgrade
 * and Connection.
 */
function upstreamHeaders(req: IncomingMessage, requestId: string, upgrade: boolean): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = forwardableHeaders(req.headers);
  if (upgrade) {
    // Only a WebSocket handshake without a body gets here (public-server.ts): the tunnel is all that follows.
    out.connection = 'upgrade';
    out.upgrade = 'websocket';
  } else {
    // The body streams as the client encoded it (only /rpc decodes bodies), framed once by the gateway.
    setBodyFraming(out, req);
    if (req.headers['content-encoding'] !== undefined) out['content-encoding'] = req.headers['content-encoding'];
  }
  setForwardedHeaders(out, req);
  out['x-request-id'] = requestId;
  return out;
}

/** The answer's headers without hop-by-hop ones; the request id is the gateway's (a new object: `delete` would slow it). */
function answerHeaders(headers: IncomingHttpHeaders, requestId: string): IncomingHttpHeaders {
  const listed = connectionListed(headers);
  const out: IncomingHttpHeaders = {};
  for (const name in headers) {
    if (HOP_BY_HOP.has(name) || (listed.length > 0 && listed.includes(name))) continue;
    out[name] = headers[name];
  }
  out['x-request-id'] = requestId;
  return out;
}

/** What every request of one pass-through reads: built once by createPassThrough, frozen, passed to each step. */
interface State {
  readonly agent: Agent;
  readonly request: typeof httpRequest | typeof httpsRequest;
  readonly target: URL;
  /** The target's path without its trailing slash, put before every request's path. */
  readonly base: string;
  /** /rpc and the excluded prefixes, lower case: never passed through. */
  readonly kept: readonly string[];
  readonly timeoutMs: number;
  readonly metrics: RequestMetrics;
  readonly requestLog: Logger;
}

function stateOf(options: PassThroughOptions): State {
  const kept = ['/rpc', ...options.exclude.map((prefix) => prefix.toLowerCase())];
  const tls = options.target.startsWith('https:');
  const pool = { keepAlive: true, maxSockets: options.maxSockets, timeout: options.keepAliveMs };
  const agent = tls ? new HttpsAgent(pool) : new Agent(pool);
  const request = tls ? httpsRequest : httpRequest;
  const target = new URL(options.target);
  const base = target.pathname.replace(/\/$/, '');
  const { timeoutMs, metrics, requestLog } = options;
  return Object.freeze({ agent, request, target, base, kept, timeoutMs, metrics, requestLog });
}

/** Whether the backend may get this target: no reading of its path is /rpc or an excluded prefix. */
function passes(kept: readonly string[], url: string): boolean {
  const paths = lenientPaths(url);
  if (!paths) return false;
  // Plain loops: nested `some` callbacks would allocate a closure per path on every request.
  for (let i = 0; i < paths.length; i++) {
    for (let j = 0; j < kept.length; j++) if (isUnder(paths[i] as string, kept[j] as string)) return false;
  }
  return true;
}

/** Answers the client with the problem, or cuts the answer if it has started. */
function fail(s: State, req: Carrying, res: ServerResponse, err: Error): void {
  const p = req[passage];
  if (!p || p.over) return;
  p.over = true;
  clearTimeout(p.timer);
  p.proxyReq?.destroy();
  if (p.answered) {
    res.destroy();
    return;
  }
  const error = p.timedOut ? upstreamTimeout(s.timeoutMs) : upstreamFailed(err);
  p.error = error.code;
  res.setHeader('x-request-id', p.requestId);
  sendProblem(res, error, p.requestId);
}

/** The request's line in the log and its count in the metrics, once it is over. */
function account(s: State, req: IncomingMessage, p: Passage, status: number): void {
  if (p.accounted) return;
  p.accounted = true;
  s.metrics.recordPassthrough(status, p.error);
  if (!s.requestLog.isLevelEnabled('info')) return;
  const path = (req.url ?? '').split('?', 1)[0]?.slice(0, 200);
  const line = { requestId: p.requestId, passthrough: true, httpMethod: req.method, path, status, durationMs: Math.round((performance.now() - p.started) * 100) / 100, ...(p.error && { error: p.error }) };
  s.requestLog.info(line, 'request');
}

/** A web request: refused (404) when it may not pass, else its headers rewritten, its deadline armed, and sent. */
function passWeb(s: State, req: Carrying, res: ServerResponse): void {
  const requestId = requestIdOf(req.headers);
  // Set with the answer's head (writeHead takes a slower path when headers were set before it).
  const p: Passage = { requestId, started: performance.now(), answered: false, timedOut: false, over: false };
  const url = req.url ?? '';
  if (!passes(s.kept, url)) {
    p.error = 'ENDPOINT_NOT_FOUND';
    res.once('close', () => account(s, req, p, res.statusCode));
    res.setHeader('x-request-id', requestId);
    sendProblem(res, endpointNotFound(url), requestId);
    return;
  }
  req[passage] = p;
  req.headers = upstreamHeaders(req, requestId, false);
  res.once('close', () => {
    account(s, req, p, res.writableFinished ? res.statusCode : 499);
    if (res.writableFinished) return;
    // The client left before its answer was complete: nobody will read what the upstream sends.
    p.over = true;
    clearTimeout(p.timer);
    p.proxyReq?.destroy();
  });
  // The deadline for the answer's head runs from the end of the request, so a long upload is not a timeout.
  const arm = () => {
    if (p.over || p.answered) return;
    p.timer = setTimeout(() => {
      p.timedOut = true;
      fail(s, req, res, new Error('upstream deadline exceeded'));
    }, s.timeoutMs);
  };
  if (req.complete) arm();
  else req.once('end', arm);
  forward(s, req, res, p);
}

/** The upstream cut its answer mid-way: counted as an upstream error (as on /rpc), and the client's answer cut too. */
function cut(s: State, req: IncomingMessage, res: ServerResponse, p: Passage): void {
  if (p.over) return;
  p.over = true;
  p.error = p.timedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNAVAILABLE';
  account(s, req, p, res.statusCode);
  res.destroy();
}

/** A web request goes out on node:http as the bare proxy's do: the header rules are applied already. */
function forward(s: State, req: Carrying, res: ServerResponse, p: Passage): void {
  req.headers.host = s.target.host;
  const proxyReq = s.request({ agent: s.agent, hostname: s.target.hostname, port: s.target.port, method: req.method, path: s.base + (req.url ?? '/'), headers: req.headers });
  p.proxyReq = proxyReq;
  proxyReq.once('error', (err) => fail(s, req, res, err));
  proxyReq.once('response', (proxyRes: IncomingMessage) => {
    if (p.over || res.headersSent) {
      proxyRes.destroy();
      return;
    }
    p.answered = true;
    clearTimeout(p.timer);
    // Past the head: an upstream silent for the whole timeout is cut (the client sees a truncated answer).
    proxyReq.setTimeout(s.timeoutMs, () => {
      p.timedOut = true;
      proxyReq.destroy();
    });
    res.writeHead(proxyRes.statusCode ?? 502, proxyRes.statusMessage, answerHeaders(proxyRes.headers, p.requestId));
    // pipe, not stream.pipeline, whose AbortController and DOMException cost this path dearly (BENCHMARKS.md).
    // A client that leaves is handled by passWeb()'s close listener.
    proxyRes.pipe(res);
    proxyRes.once('error', () => cut(s, req, res, p));
    proxyRes.once('close', () => {
      if (!proxyRes.complete) cut(s, req, res, p);
    });
  });
  req.pipe(proxyReq);
}

/** An upgrade: refused on the socket (404) when it may not pass, else its headers rewritten and proxied. */
function passUpgrade(s: State, proxy: RequestHandler, req: Carrying, socket: Socket, head: Buffer): void {
  const requestId = requestIdOf(req.headers);
  socket.on('error', () => socket.destroy());
  const p: Passage = { requestId, started: performance.now(), answered: false, timedOut: false, over: false };
  const url = req.url ?? '';
  if (!passes(s.kept, url)) {
    p.error = 'ENDPOINT_NOT_FOUND';
    account(s, req, p, 404);
    refuseOnSocket(socket, endpointNotFound(url), requestId);
    return;
  }
  req[passage] = p;
  req.headers = upstreamHeaders(req, requestId, true);
  proxy.upgrade(req, socket, head);
}

/** http-proxy's upgrade request is out: arm its deadline, account the handshake or the client leaving. */
function watchUpgrade(s: State, proxyReq: ClientRequest, req: Carrying, socket: Socket): void {
  const p = req[passage];
  if (!p) return;
  p.proxyReq = proxyReq;
  p.timer = setTimeout(() => {
    p.timedOut = true;
    proxyReq.destroy(new Error('upstream deadline exceeded'));
  }, s.timeoutMs);
  proxyReq.once('upgrade', () => {
    p.answered = true;
    clearTimeout(p.timer);
    account(s, req, p, 101);
  });
  socket.once('close', () => {
    if (p.answered) return;
    proxyReq.destroy();
    account(s, req, p, 499);
  });
  // http-proxy writes a refused upgrade's answer with the upstream's framing headers over a decoded body:
  // replace its listener (added right after this event) with one that writes a sound answer.
  queueMicrotask(() => {
    proxyReq.removeAllListeners('response');
    proxyReq.on('response', (answer: IncomingMessage) => {
      p.answered = true;
      clearTimeout(p.timer);
      account(s, req, p, answer.statusCode ?? 502);
      relayOnSocket(socket, answer, answerHeaders(answer.headers, p.requestId));
    });
  });
}

/** http-proxy failed a request: an upgrade is answered on its socket, a web request as fail() does. */
function proxyFailed(s: State, err: Error, req: Carrying, target: ServerResponse | Socket): void {
  const p = req[passage];
  if (!p) return;
  if (!('writeHead' in target)) {
    // An upgrade: answer on the socket unless the handshake went through (then the tunnel just ends).
    clearTimeout(p.timer);
    if (p.over) return;
    p.over = true;
    if (p.answered) target.destroy();
    else {
      const error = p.timedOut ? upstreamTimeout(s.timeoutMs) : upstreamFailed(err);
      p.error = error.code;
      account(s, req, p, error.status);
      refuseOnSocket(target, error, p.requestId);
    }
    return;
  }
  fail(s, req, target, err);
}

/** http-proxy-middleware, which carries only upgrades, with its default plugins replaced by the hooks above. */
function upgradeProxy(s: State, target: string): RequestHandler {
  const hooks: Plugin = (proxy) => {
    proxy.on('proxyReqWs', (proxyReq: ClientRequest, req: Carrying, socket: Socket) => watchUpgrade(s, proxyReq, req, socket));
    proxy.on('error', (err: Error, req: Carrying, to: ServerResponse | Socket) => proxyFailed(s, err, req, to));
    // The client's socket was reset mid-request: http-proxy aborts the upstream request itself.
    proxy.on('econnreset', () => {});
  };
  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    target,
    changeOrigin: true,
    agent: s.agent,
    xfwd: false,
    selfHandleResponse: true,
    ejectPlugins: true,
    plugins: [hooks],
  });
}

export function createPassThrough(options: PassThroughOptions): PassThrough {
  const s = stateOf(options);
  const proxy = upgradeProxy(s, options.target);
  return {
    web(req: Carrying, res) {
      passWeb(s, req, res);
    },
    upgrade(req: Carrying, socket, head) {
      passUpgrade(s, proxy, req, socket, head);
    },
    close() {
      s.agent.destroy();
    },
  };
}
