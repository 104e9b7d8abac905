// The forwarder: one http-proxy-middleware instance per runtime, owning what http-proxy gets wrong.
//
// Per-request data travels in a WeakMap keyed by the request. Responses are self-handled so that one
// code path decides between streaming and checking; http-proxy's own timeout is not used because it
// cannot be told apart from a reset (node-http-proxy#1331).

import { Agent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { GatewayError } from '../core/errors.js';
import { HOP_BY_HOP, OWNED_UPSTREAM, connectionListed } from './headers.js';

export interface Exchange {
  readonly method: string;
  readonly body: Buffer;
  /** Headers to set on the upstream request after the client's owned/hop-by-hop ones are dropped. */
  readonly headers: Readonly<Record<string, string>>;
  /** Drop the client's Accept-Encoding so a buffered (checked) answer comes back uncompressed. */
  readonly identityEncoding: boolean;
  readonly onResponse: (upstream: IncomingMessage) => void;
  readonly onError: (error: GatewayError) => void;
  /** Aborted when the client goes away before its answer is complete. */
  readonly clientGone: AbortSignal;
  /** Set when our deadline fired; the proxy error that follows is then a timeout, not a failure. */
  timedOut?: boolean;
  upstreamRequest?: ClientRequest;
  timer?: NodeJS.Timeout;
}

export interface Forwarder {
  forward(req: IncomingMessage, res: ServerResponse, exchange: Exchange): void;
  readonly agent: Agent;
  close(): void;
}

export interface ForwarderOptions {
  readonly target: string;
  readonly timeoutMs: number;
  readonly maxSockets: number;
  readonly keepAliveMs: number;
}

export function createForwarder(options: ForwarderOptions): Forwarder {
  const target = new URL(options.target);
  const basePath = target.pathname.replace(/\/+$/, '');
  const AgentClass = target.protocol === 'https:' ? HttpsAgent : Agent;
  // Without an agent http-proxy sends Connection: close upstream (node-http-proxy#929).
  const agent = new AgentClass({
    keepAlive: true,
    keepAliveMsecs: 1000,
    maxSockets: options.maxSockets,
    maxFreeSockets: Math.min(options.maxSockets, 64),
    timeout: options.keepAliveMs,
    scheduling: 'lifo',
  });
  const exchanges = new WeakMap<IncomingMessage, Exchange>();

  const middleware = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: `${target.protocol}//${target.host}`,
    agent,
    changeOrigin: true,
    selfHandleResponse: true,
    xfwd: false,
    ejectPlugins: true,
    plugins: [
      (proxy) => {
        proxy.on('proxyReq', (proxyReq: ClientRequest, req: IncomingMessage) => {
          const ex = exchanges.get(req);
          if (!ex) return proxyReq.destroy();
          ex.upstreamRequest = proxyReq;
          // http-proxy copied the client's headers: drop the hop-by-hop and gateway-owned ones it sent.
          const listed = connectionListed(req.headers);
          for (const name of Object.keys(req.headers)) {
            // Host is the upstream's own (changeOrigin); a client cannot make it hop-by-hop.
            if ((HOP_BY_HOP.has(name) || OWNED_UPSTREAM.has(name) || listed.includes(name)) && name !== 'host') {
              proxyReq.removeHeader(name);
            }
          }
          if (ex.identityEncoding) proxyReq.setHeader('accept-encoding', 'identity');
          for (const [name, value] of Object.entries(ex.headers)) proxyReq.setHeader(name, value);
          proxyReq.setHeader('content-length', ex.body.length);
          // The client's body was read already; http-proxy's pipe of the ended request ends proxyReq.
          proxyReq.write(ex.body);
          ex.timer = setTimeout(() => {
            ex.timedOut = true;
            proxyReq.destroy(new Error('upstream deadline exceeded'));
          }, options.timeoutMs);
          ex.timer.unref();
        });
        proxy.on('proxyRes', (proxyRes: IncomingMessage, req: IncomingMessage) => {
          const ex = exchanges.get(req);
          if (!ex) return proxyRes.destroy();
          // The deadline runs until the whole answer is in, so a trickling body is a timeout too.
          proxyRes.once('end', () => clearTimeout(ex.timer));
          proxyRes.once('close', () => clearTimeout(ex.timer));
          for (const name of [...HOP_BY_HOP, ...connectionListed(proxyRes.headers)]) delete proxyRes.headers[name];
          ex.onResponse(proxyRes);
        });
        proxy.on('error', (err: Error & { code?: string }, req: IncomingMessage) => {
          const ex = exchanges.get(req);
          if (!ex) return;
          clearTimeout(ex.timer);
          ex.onError(
            ex.timedOut
              ? new GatewayError('UPSTREAM_TIMEOUT', `the backend did not answer within ${options.timeoutMs} ms`, {
                  timeoutMs: options.timeoutMs,
                })
              : new GatewayError('UPSTREAM_UNAVAILABLE', 'the backend could not be reached or answered with a broken response', {
                  reason: err.code ?? 'UPSTREAM_ERROR',
                }),
          );
        });
      },
    ],
  });

  return {
    agent,
    forward(req, res, exchange) {
      exchanges.set(req, exchange);
      // The upstream path is built from the validated method name only, never from the raw URL.
      req.url = `${basePath}/rpc/${exchange.method}`;
      // A client that goes away cancels its upstream request (HPM#782).
      exchange.clientGone.addEventListener(
        'abort',
        () => {
          clearTimeout(exchange.timer);
          exchange.upstreamRequest?.destroy();
        },
        { once: true },
      );
      void middleware(req, res, (err?: unknown) => {
        exchange.onError(
          new GatewayError('UPSTREAM_UNAVAILABLE', 'the request could not be forwarded', {
            reason: err instanceof Error ? err.message : 'unknown',
          }),
        );
      });
    },
    close() {
      agent.destroy();
    },
  };
}
