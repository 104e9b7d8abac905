// Pass-through: a request outside /rpc/ and the gateway's own routes goes to the upstream as sent and streams
// both ways, on node:http as a bare proxy does (WebSocket upgrades on http-proxy-middleware). Owned here: the
// same header rules as /rpc (hop-by-hop and gateway-owned headers dropped, the request id and X-Forwarded-*
// set), 502/504 told apart as on /rpc with the problem body, a deadline for the answer's head, and a client
// that leaves cancels its upstream request.

import { Agent, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { createProxyMiddleware, type Plugin } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import type { RequestMetrics } from '../../ports/metrics.js';
import type { PassThrough } from '../../ports/passthrough.js';
import { upstreamFailed, upstreamTimeout } from '../../core/upstream-errors.js';
import { setForwardedHeaders, HOP_BY_HOP, connectionListed, forwardableHeaders, requestIdOf } from '../http/headers.js';
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
  // The body streams as the client framed and encoded it: its validated Content-Length (or chunked without one)
  // and its Content-Encoding (only /rpc decodes bodies).
  if (req.headers['content-length'] !== undefined) out['content-length'] = req.headers['content-length'];
  if (req.headers['content-encoding'] !== undefined) out['content-encoding'] = req.headers['content-encoding'];
  if (upgrade) {
    out.connection = 'upgrade';
    out.upgrade = req.headers.upgrade;
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

export function createPassThrough(options: PassThroughOptions): PassThrough {
  const kept = ['/rpc', ...options.exclude.map((prefix) => prefix.toLowerCase())];
  /** Whether the backend may get this target: no reading of its path is /rpc or an excluded prefix. */
  const passes = (url: string) => {
    const paths = lenientPaths(url);
    return !!paths && !paths.some((path) => kept.some((prefix) => isUnder(path, prefix)));
  };
  const tls = options.target.startsWith('https:');
  const pool = { keepAlive: true, maxSockets: options.maxSockets, timeout: options.keepAliveMs };
  const agent = tls ? new HttpsAgent(pool) : new Agent(pool);
  const request = tls ? httpsRequest : httpRequest;

  /** Answers the client with the problem, or cuts the answer if it has started. */
  const fail = (req: Carrying, res: ServerResponse, err: Error) => {
    const p = req[passage];
    if (!p || p.over) return;
    p.over = true;
    clearTimeout(p.timer);
    p.proxyReq?.destroy();
    if (p.answered) {
      res.destroy();
      return;
    }
    const error = p.timedOut ? upstreamTimeout(options.timeoutMs) : upstreamFailed(err);
    p.error = error.code;
    res.setHeader('x-request-id', p.requestId);
    sendProblem(res, error, p.requestId);
  };

  /** The request's line in the log and its count in the metrics, once it is over. */
  const account = (req: IncomingMessage, p: Passage, status: number) => {
    if (p.accounted) return;
    p.accounted = true;
    options.metrics.recordPassthrough(status, p.error);
    if (!options.requestLog.isLevelEnabled('info')) return;
    const path = (req.url ?? '').split('?', 1)[0]?.slice(0, 200);
    const line = { requestId: p.requestId, passthrough: true, httpMethod: req.method, path, status, durationMs: Math.round((performance.now() - p.started) * 100) / 100, ...(p.error && { error: p.error }) };
    options.requestLog.info(line, 'request');
  };

  const target = new URL(options.target);
  const base = target.pathname.replace(/\/$/, '');
  /** A web request goes out on node:http as the bare proxy's do: the header rules are applied already. */
  const forward = (req: Carrying, res: ServerResponse, p: Passage) => {
    req.headers.host = target.host;
    const proxyReq = request({ agent, hostname: target.hostname, port: target.port, method: req.method, path: base + (req.url ?? '/'), headers: req.headers });
    p.proxyReq = proxyReq;
    proxyReq.once('error', (err) => fail(req, res, err));
    proxyReq.once('response', (proxyRes: IncomingMessage) => {
      if (p.over || res.headersSent) {
        proxyRes.destroy();
        return;
      }
      p.answered = true;
      clearTimeout(p.timer);
      // Past the head: an upstream silent for the whole timeout is cut (the client sees a truncated answer).
      proxyReq.setTimeout(options.timeoutMs, () => proxyReq.destroy());
      res.writeHead(proxyRes.statusCode ?? 502, proxyRes.statusMessage, answerHeaders(proxyRes.headers, p.requestId));
      // pipe, not stream.pipeline, whose AbortController and DOMException cost this path dearly (BENCHMARKS.md).
      // A client that leaves is handled by web()'s close listener.
      proxyRes.pipe(res);
      proxyRes.once('error', () => res.destroy());
      proxyRes.once('close', () => {
        if (!proxyRes.complete) res.destroy();
      });
    });
    req.pipe(proxyReq);
  };

  const hooks: Plugin = (proxy) => {
    proxy.on('proxyReqWs', (proxyReq: ClientRequest, req: Carrying, socket: Socket) => {
      const p = req[passage];
      if (!p) return;
      p.proxyReq = proxyReq;
      p.timer = setTimeout(() => {
        p.timedOut = true;
        proxyReq.destroy(new Error('upstream deadline exceeded'));
      }, options.timeoutMs);
      proxyReq.once('upgrade', () => {
        p.answered = true;
        clearTimeout(p.timer);
        account(req, p, 101);
      });
      socket.once('close', () => {
        if (p.answered) return;
        proxyReq.destroy();
        account(req, p, 499);
      });
      // http-proxy writes a refused upgrade's answer with the upstream's framing headers over a decoded body:
      // replace its listener (added right after this event) with one that writes a sound answer.
      queueMicrotask(() => {
        proxyReq.removeAllListeners('response');
        proxyReq.on('response', (answer: IncomingMessage) => {
          p.answered = true;
          clearTimeout(p.timer);
          account(req, p, answer.statusCode ?? 502);
          relayOnSocket(socket, answer, answerHeaders(answer.headers, p.requestId));
        });
      });
    });
    proxy.on('error', (err: Error, req: Carrying, target: ServerResponse | Socket) => {
      const p = req[passage];
      if (!p) return;
      if (!('writeHead' in target)) {
        // An upgrade: answer on the socket unless the handshake went through (then the tunnel just ends).
        clearTimeout(p.timer);
        if (p.over) return;
        p.over = true;
        if (p.answered) target.destroy();
        else {
          const error = p.timedOut ? upstreamTimeout(options.timeoutMs) : upstreamFailed(err);
          p.error = error.code;
          account(req, p, error.status);
          refuseOnSocket(target, error, p.requestId);
        }
        return;
      }
      fail(req, target, err);
    });
    // The client's socket was reset mid-request: http-proxy aborts the upstream request itself.
    proxy.on('econnreset', () => {});
  };

  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: options.target,
    changeOrigin: true,
    agent,
    xfwd: false,
    selfHandleResponse: true,
    ejectPlugins: true,
    plugins: [hooks],
  });

  return {
    web(req: Carrying, res) {
      const requestId = requestIdOf(req.headers);
      // Set with the answer's head (writeHead takes a slower path when headers were set before it).
      const p: Passage = { requestId, started: performance.now(), answered: false, timedOut: false, over: false };
      const url = req.url ?? '';
      if (!passes(url)) {
        p.error = 'ENDPOINT_NOT_FOUND';
        res.once('close', () => account(req, p, res.statusCode));
        res.setHeader('x-request-id', requestId);
        sendProblem(res, endpointNotFound(url), requestId);
        return;
      }
      req[passage] = p;
      req.headers = upstreamHeaders(req, requestId, false);
      res.once('close', () => {
        account(req, p, res.writableFinished ? res.statusCode : 499);
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
          fail(req, res, new Error('upstream deadline exceeded'));
        }, options.timeoutMs);
      };
      if (req.complete) arm();
      else req.once('end', arm);
      forward(req, res, p);
    },
    upgrade(req: Carrying, socket, head) {
      const requestId = requestIdOf(req.headers);
      socket.on('error', () => socket.destroy());
      const p: Passage = { requestId, started: performance.now(), answered: false, timedOut: false, over: false };
      const url = req.url ?? '';
      if (!passes(url)) {
        p.error = 'ENDPOINT_NOT_FOUND';
        account(req, p, 404);
        refuseOnSocket(socket, endpointNotFound(url), requestId);
        return;
      }
      req[passage] = p;
      req.headers = upstreamHeaders(req, requestId, true);
      proxy.upgrade(req, socket, head);
    },
    close() {
      agent.destroy();
    },
  };
}
