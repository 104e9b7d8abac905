// The forwarder and backend client of `upstream.kind: datalens-oss` (src/ports/upstream.ts): each call goes through
// serveOnOss under the same deadline and cancellation as the `rpc` forwarder's; the public answer is handed over whole.

import { BackendCallError, GatewayError } from '../../core/errors.js';
import { isJsonMediaType } from '../../core/media-type.js';
import { upstreamFailed, upstreamTimeout, upstreamUnavailable } from '../../core/upstream-errors.js';
import type { BackendClient, Exchange, Forwarder } from '../../ports/upstream.js';
import { upstreamPool } from '../http/upstream-pool.js';
import { serveOnOss, type OssAnswer, type OssTarget } from './calls.js';

export interface OssForwarderOptions {
  /** The UI server's base URL (upstream.url). */
  readonly target: string;
  readonly timeoutMs: number;
  readonly maxSockets: number;
  readonly keepAliveMs: number;
  readonly authCookie: string;
  readonly maxAnswerBytes: number;
}

export interface OssUpstream {
  readonly forwarder: Forwarder;
  readonly backend: BackendClient;
}

type Serve = (method: string, body: Buffer, headers: Readonly<Record<string, string | string[]>>, signal?: AbortSignal) => Promise<OssAnswer>;

export function createOssUpstream(options: OssForwarderOptions): OssUpstream {
  const url = new URL(options.target);
  const pool = upstreamPool(options);
  const target: OssTarget = {
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    dispatcher: pool,
    authCookie: options.authCookie,
    maxAnswerBytes: options.maxAnswerBytes,
  };
  const serve = underDeadline(target, options.timeoutMs);
  const forwarder: Forwarder = {
    pool,
    forward(exchange) {
      serve(exchange.method, exchange.body, exchange.headers, exchange.departure.signal).then(
        (answer) => deliver(exchange, answer),
        (error) => {
          if (!exchange.departure.gone) exchange.onError(error);
        },
      );
    },
    close() {
      void pool.destroy().catch(() => {});
    },
  };
  return { forwarder, backend: backendClient(serve) };
}

/** One public call under one deadline over all its internal calls; `signal` (the client leaving) cancels it too. */
function underDeadline(target: OssTarget, timeoutMs: number): Serve {
  return async (method, body, headers, signal) => {
    if (signal?.aborted) throw upstreamUnavailable('the client went away');
    const stop = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop.abort(new Error('upstream deadline exceeded'));
    }, timeoutMs);
    const onAbort = () => stop.abort(new Error('the client went away'));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await serveOnOss(target, method, body, headers, stop.signal);
    } catch (e) {
      if (e instanceof GatewayError) throw e;
      if (timedOut) throw upstreamTimeout(timeoutMs);
      if (signal?.aborted) throw upstreamUnavailable('the client went away');
      throw upstreamFailed(e as Error & { code?: string });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  };
}

/** The migrations' lookups: 2xx → the JSON object, a refusal → BackendCallError, as the `rpc` backend client. */
function backendClient(serve: Serve): BackendClient {
  return {
    async call(method, body, headers, signal) {
      const answer = await serve(method, Buffer.from(JSON.stringify(body)), headers, signal);
      const parsed = parse(answer.body);
      if (answer.status < 200 || answer.status >= 300) throw new BackendCallError(answer.status, parsed, answer.headers, answer.body);
      if (!isJsonMediaType(answer.headers['content-type']) || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw upstreamUnavailable('open-source DataLens answered with a body that is not a JSON object');
      }
      return parsed as Record<string, unknown>;
    },
  };
}

function parse(raw: Buffer): unknown {
  try {
    return raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}

/** Hands the public answer to the exchange: streamed to the client's response, or buffered within its limit. */
function deliver(exchange: Exchange, answer: OssAnswer): void {
  if (exchange.departure.gone) return;
  let next;
  try {
    next = exchange.onHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
  } catch (e) {
    exchange.onError(e);
    return;
  }
  if (typeof next !== 'number') {
    next.end(answer.body);
    return;
  }
  if (answer.body.length > next) {
    exchange.onError(upstreamUnavailable(`the answer exceeds the ${next}-byte limit for checked responses`));
    return;
  }
  exchange.onBody([answer.body], answer.body.length);
}
