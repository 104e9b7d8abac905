// The connection pool to the upstream that every forwarder uses: keep-alive below the backend's idle timeout, one
// request per connection at a time, and no undici idle timers (each forwarder's own deadline covers the whole exchange).

import { Pool } from 'undici';

export interface UpstreamPoolOptions {
  /** The upstream's base URL; the pool is for its origin. */
  readonly target: string;
  readonly timeoutMs: number;
  readonly maxSockets: number;
  readonly keepAliveMs: number;
}

export const upstreamPool = (options: UpstreamPoolOptions): Pool =>
  new Pool(new URL(options.target).origin, {
    connections: options.maxSockets,
    pipelining: 1,
    keepAliveTimeout: options.keepAliveMs,
    keepAliveMaxTimeout: options.keepAliveMs,
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: { timeout: options.timeoutMs },
  });
