// The gateway's configuration: one zod schema with named defaults and units; unknown keys are refused.

import { z } from 'zod';

/** Dates in the calendar: an ISO date ("2026-06-01", midnight UTC) or a full ISO instant. */
const instant = z
  .union([z.string(), z.date()])
  .transform((v, ctx) => {
    const d = typeof v === 'string' ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v) : v;
    if (Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: 'custom', message: `not a date: ${String(v)} (use YYYY-MM-DD or an ISO 8601 instant)` });
      return z.NEVER;
    }
    return d;
  });

export const DEFAULTS = {
  port: 8080,
  host: '0.0.0.0',
  supportWindowDays: 180,
  upstreamTimeoutMs: 30_000,
  upstreamMaxSockets: 256,
  upstreamKeepAliveMs: 4_000, // below Node's default server keep-alive timeout (5 s)
  bodyLimitBytes: 1_048_576,
  responseLimitBytes: 10_485_760,
  legacyKeyCacheSize: 10_000,
  legacyKeyCacheTtlMs: 600_000,
  pageTokenCacheSize: 10_000,
  pageTokenCacheTtlMs: 600_000,
  jsonDepth: 128,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  adminHost: '127.0.0.1',
  adminPort: 9090,
  drainMs: 10_000,
  metricsMaxClients: 500,
} as const;

const brownoutWindow = z
  .strictObject({ start: instant, end: instant })
  .refine((w) => w.end.getTime() > w.start.getTime(), { message: 'a brownout must end after it starts' });

const versionPlan = z.strictObject({
  version: z.number().int().positive(),
  released: instant,
  /** Explicit end of support; default: the next version's release + supportWindowDays. */
  sunset: instant.optional(),
  migrationGuide: z.url().optional(),
  /** Scheduled windows during which this (deprecated) version answers 410, so clients notice before the sunset. */
  brownouts: z.array(brownoutWindow).default([]),
  /** Share (0..1) of this version's requests refused with 410 while it is deprecated. */
  brownoutShare: z.number().min(0).max(1).default(0),
});

export const configSchema = z.strictObject({
  listen: z
    .strictObject({
      host: z.string().default(DEFAULTS.host),
      port: z.number().int().min(0).max(65535).default(DEFAULTS.port),
    })
    .prefault({}),
  upstream: z
    .strictObject({
      /** A base URL of the latest-only backend, or "embedded" to start the reference backend in-process. */
      url: z.union([z.literal('embedded'), z.url({ protocol: /^https?$/ })]).default('embedded'),
      timeoutMs: z.number().int().positive().default(DEFAULTS.upstreamTimeoutMs),
      maxSockets: z.number().int().positive().default(DEFAULTS.upstreamMaxSockets),
      keepAliveMs: z.number().int().positive().default(DEFAULTS.upstreamKeepAliveMs),
    })
    .prefault({}),
  limits: z
    .strictObject({
      bodyBytes: z.number().int().positive().default(DEFAULTS.bodyLimitBytes),
      responseBytes: z.number().int().positive().default(DEFAULTS.responseLimitBytes),
      /** Deepest nesting of objects/arrays accepted in a request body. */
      jsonDepth: z.number().int().min(1).max(10_000).default(DEFAULTS.jsonDepth),
      /** Time a client has to send its headers (then 408). */
      headersTimeoutMs: z.number().int().positive().default(DEFAULTS.headersTimeoutMs),
      /** Time a client has to send its whole request, body included (then 408). */
      requestTimeoutMs: z.number().int().positive().default(DEFAULTS.requestTimeoutMs),
    })
    .prefault({}),
  lifecycle: z.strictObject({
    /** Days an old version stays served after the next version's release. */
    supportWindowDays: z.number().int().min(0).default(DEFAULTS.supportWindowDays),
    versions: z.array(versionPlan).min(1),
  }),
  legacyKeys: z
    .strictObject({
      /** Legacy folder key prefix → workbook id; the longest matching prefix wins. */
      prefixes: z.record(z.string().min(1), z.string().min(1)).default({}),
      cacheSize: z.number().int().positive().default(DEFAULTS.legacyKeyCacheSize),
      cacheTtlMs: z.number().int().positive().default(DEFAULTS.legacyKeyCacheTtlMs),
    })
    .prefault({}),
  admin: z
    .strictObject({
      /** The admin listener (metrics, reload): loopback by default, never the public port. */
      enabled: z.boolean().default(true),
      host: z.string().default(DEFAULTS.adminHost),
      port: z.number().int().min(0).max(65535).default(DEFAULTS.adminPort),
    })
    .prefault({}),
  shutdown: z
    .strictObject({
      /** On SIGTERM/SIGINT: how long in-flight requests may take before connections are cut. */
      drainMs: z.number().int().min(0).default(DEFAULTS.drainMs),
    })
    .prefault({}),
  logging: z
    .strictObject({
      /** Extra pino paths to redact (authorization, cookies and tokens always are). */
      redact: z.array(z.string().min(1)).default([]),
    })
    .prefault({}),
  metrics: z
    .strictObject({
      /** Distinct clients tracked on deprecated versions before the rest are counted as "other". */
      maxClients: z.number().int().positive().default(DEFAULTS.metricsMaxClients),
    })
    .prefault({}),
  paging: z
    .strictObject({
      tokenCacheSize: z.number().int().positive().default(DEFAULTS.pageTokenCacheSize),
      tokenCacheTtlMs: z.number().int().positive().default(DEFAULTS.pageTokenCacheTtlMs),
    })
    .prefault({}),
});

export type GatewayConfig = z.output<typeof configSchema>;
export type GatewayConfigInput = z.input<typeof configSchema>;
