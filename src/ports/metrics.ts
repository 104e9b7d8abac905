// What the request path reports to the metrics (src/admin/metrics.ts implements it with prom-client).

export interface RequestRecord {
  readonly version: number | undefined;
  readonly method: string;
  readonly status: number;
  readonly durationMs: number;
  readonly upstreamMs?: number | undefined;
  readonly translateMs?: number | undefined;
  readonly error?: string | undefined;
  readonly deprecated: boolean;
  readonly client: string;
  /** The preview client (as the calendar lists it) let into an unreleased version, if this call was one. */
  readonly preview?: string | undefined;
  /** A translated answer looked up among those kept: served as kept, translated and kept, or not keepable. */
  readonly translatedAnswer?: 'reused' | 'translated' | 'not_reusable' | undefined;
}

/** What the shared cache reports: commands that gave no usable answer, and whether Redis is connected. */
export interface CacheMetrics {
  recordCacheError(op: 'get' | 'set', reason: string): void;
  /** undefined: no Redis configured (the gauge is removed). */
  setCacheConnected(up: boolean | undefined): void;
}

/** The request path's reports: one per /rpc call, one per pass-through request, and the shared cache's troubles. */
export interface RequestMetrics extends CacheMetrics {
  recordRequest(record: RequestRecord): void;
  /** One pass-through request (outside /rpc/) or WebSocket handshake: its status (499: the client left) and error code. */
  recordPassthrough(status: number, error?: string): void;
}
