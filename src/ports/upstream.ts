// The request path's ways to the backend: the forwarder that streams a client's call, and the client the
// migrations' lookups use. Implemented in src/edge/rpc/forwarder.ts and src/adapters/backend-client.ts.

import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Pool } from 'undici';

/** "The client went away before its answer was complete", as whoever works on its behalf sees it. */
export interface ClientDeparture {
  readonly gone: boolean;
  /** Runs `fn` when the client leaves (at once if it has left already). */
  onGone(fn: () => void): void;
  /** An AbortSignal that aborts when the client leaves. */
  readonly signal: AbortSignal;
}

export interface Exchange {
  /** The upstream method name (validated by the caller): the path is built from it alone. */
  readonly method: string;
  readonly body: Buffer;
  /** The complete upstream request headers (the caller dropped the client's hop-by-hop and owned ones). */
  readonly headers: Readonly<Record<string, string | string[]>>;
  /** Tells when the client goes away before its answer is complete. */
  readonly departure: ClientDeparture;
  /**
   * The answer's status and headers are in (hop-by-hop headers removed). Return the client's response,
   * its head already written, to stream the body there; or a byte limit to buffer the body for onBody.
   * A throw refuses the answer: the upstream request is cancelled and onError gets the error.
   */
  onHead(status: number, headers: IncomingHttpHeaders): ServerResponse | number;
  /** The buffered body, complete and within the limit: its chunks as they came, `size` bytes in all. */
  onBody(chunks: readonly Buffer[], size: number): void;
  /** The exchange failed. When the answer was already streaming, the client's response has been cut. */
  onError(error: unknown): void;
}

export interface Forwarder {
  forward(exchange: Exchange): void;
  /** The pool the backend client shares (migrations' lookups, readiness). */
  readonly pool: Pool;
  /** Cuts every upstream connection at once. */
  close(): void;
}

export interface BackendAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly raw: Buffer;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  readonly body: unknown;
}

/** Calls the latest-only backend from inside the gateway. */
export interface BackendClient {
  /** POST /rpc/<method> at the latest version; 2xx → the JSON object, else BackendCallError. */
  call(method: string, body: Record<string, unknown>, headers: Record<string, string>, signal?: AbortSignal): Promise<Record<string, unknown>>;
}
