// The forwarder: one undici connection pool per runtime generation, and one dispatch per request.
// undici's dispatch API, not http-proxy-middleware: it leaves room for the gateway's own work (BENCHMARKS.md).
// What a proxy must own is here: a deadline over the whole answer (504, not 502), a client that leaves
// cancels its upstream request, writes are never retried, hop-by-hop headers of the answer are dropped.

import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { upstreamFailed, upstreamTimeout, upstreamUnavailable } from '../../core/upstream-errors.js';
import type { Exchange, Forwarder } from '../../ports/upstream.js';
import { HOP_BY_HOP, connectionListed } from '../http/headers.js';
import { upstreamPool } from '../http/upstream-pool.js';



export interface ForwarderOptions {
  readonly target: string;
  readonly timeoutMs: number;
  readonly maxSockets: number;
  readonly keepAliveMs: number;
}

export function createForwarder(options: ForwarderOptions): Forwarder {
  const target = new URL(options.target);
  const basePath = target.pathname.replace(/\/+$/, '');
  // Our own deadline covers the whole exchange (below); the pool has no idle timers of its own.
  const pool = upstreamPool(options);
  return {
    pool,
    forward(exchange) {
      const handler = new Forwarding(exchange, options.timeoutMs);
      handler.timer = setTimeout(() => handler.expire(), options.timeoutMs);
      exchange.departure.onGone(() => handler.cancel());
      try {
        pool.dispatch(
          {
            origin: target.origin,
            method: 'POST',
            path: `${basePath}/rpc/${exchange.method}`,
            headers: exchange.headers as Record<string, string | string[]>,
            body: exchange.body,
            // A POST that failed on a reused connection may have reached the backend: never replay it.
            idempotent: false,
          },
          handler,
        );
      } catch (e) {
        handler.onResponseError(undefined, e as Error);
      }
    },
    close() {
      void pool.destroy().catch(() => {});
    },
  };
}

/** One request's dispatch handler: undici calls it with the answer's head, body chunks and end, or an error. */
class Forwarding implements Dispatcher.DispatchHandler {
  timer: NodeJS.Timeout | undefined;
  private controller: Dispatcher.DispatchController | undefined;
  private stopped: Error | undefined;
  private timedOut = false;
  private clientLeft = false;
  private settled = false;
  private sink: ServerResponse | undefined;
  private limit = 0;
  private chunks: Buffer[] | undefined;
  private size = 0;

  constructor(
    private readonly exchange: Exchange,
    private readonly timeoutMs: number,
  ) {}

  /** Our deadline: the whole answer must be in by then, so a trickling body is a timeout too. */
  expire(): void {
    this.timedOut = true;
    this.stop(new Error('upstream deadline exceeded'));
  }

  /** The client went away: nobody will read the answer, and there is nobody to report a failure to. */
  cancel(): void {
    this.clientLeft = true;
    this.stop(new Error('the client went away'));
  }

  private stop(reason: Error): void {
    if (this.settled) return;
    this.stopped = reason;
    // On a connection, aborting destroys it and undici reports the error to onResponseError. (undici
    // then opens one idle replacement, nodejs/undici#5845; the pool reuses it.)
    if (this.controller) this.controller.abort(reason);
    // Still queued for a connection, or connecting: answer now, not when a connection frees up;
    // onRequestStart aborts the request if it ever gets one.
    else this.onResponseError(undefined, reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.stopped) controller.abort(this.stopped);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (status < 200) return; // 1xx: the final answer follows
    for (const name of connectionListed(headers)) delete headers[name];
    for (const name of HOP_BY_HOP) delete headers[name];
    let next: ServerResponse | number;
    try {
      next = this.exchange.onHead(status, headers);
    } catch (e) {
      this.settle();
      controller.abort(e as Error);
      this.exchange.onError(e);
      return;
    }
    if (typeof next === 'number') this.limit = next;
    else this.sink = next;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    // undici hands over an empty chunk each time it resumes a paused body: writing it would cost the client's socket a
    // write call of its own (and a cork, a tick and an uncork) for every chunk of a large answer.
    if (this.settled || chunk.length === 0) return;
    const sink = this.sink;
    if (sink) {
      if (!sink.write(chunk)) {
        controller.pause();
        sink.once('drain', () => controller.resume());
      }
      return;
    }
    this.size += chunk.length;
    if (this.size > this.limit) {
      const error = upstreamUnavailable(`the answer exceeds the ${this.limit}-byte limit for checked responses`);
      this.settle();
      controller.abort(error);
      this.exchange.onError(error);
      return;
    }
    (this.chunks ??= []).push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settle();
    if (this.sink) this.sink.end();
    else this.exchange.onBody(this.chunks ?? [], this.size);
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error & { code?: string }): void {
    if (this.settled) return;
    this.settle();
    // An answer that was streaming cannot be turned into an error any more: cut it, so that the client
    // sees a truncated response rather than a complete-looking one.
    if (this.sink) this.sink.destroy();
    if (this.clientLeft) return;
    this.exchange.onError(this.timedOut ? upstreamTimeout(this.timeoutMs) : upstreamFailed(err));
  }

  private settle(): void {
    this.settled = true;
    clearTimeout(this.timer);
  }
}
