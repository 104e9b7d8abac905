// The gateway's configuration: one zod schema with named defaults and units; unknown keys are refused.

import { isIP } from 'node:net';
import { z } from 'zod';
import { OLDER_CLIENTS_RULES } from '../core/translate/guard.js';

/** True when the text's leading YYYY-MM-DD names a day that exists (JavaScript rolls 2027-02-30 over to March). */
const realDay = (text: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!m) return true; // not in ISO form: Date parsing decides
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
};

/** Dates in the calendar: an ISO date ("2026-06-01", midnight UTC) or a full ISO instant; impossible days are refused. */
const instant = z
  .union([z.string(), z.date()])
  .transform((v, ctx) => {
    const d = typeof v === 'string' ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v) : v;
    if (Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: 'custom', message: `not a date: ${String(v)} (use YYYY-MM-DD or an ISO 8601 instant)` });
      return z.NEVER;
    }
    if (typeof v === 'string' && !realDay(v)) {
      ctx.addIssue({ code: 'custom', message: `not a date: ${v} (that day does not exist)` });
      return z.NEVER;
    }
    return d;
  });

/** An IPv4 or IPv6 address, optionally with a prefix length (10.0.0.0/8, fd00::/8): a `listen.trustedProxies` entry. */
function isAddressOrBlock(entry: string): boolean {
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

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
  legacyKeyNotFoundTtlMs: 60_000,
  pageTokenCacheSize: 10_000,
  pageTokenCacheTtlMs: 600_000,
  pagingMaxWalkCalls: 64, // 64 calls of 200 entries: 12,800 entries deep from a standing start
  jsonDepth: 128,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  adminHost: '127.0.0.1',
  adminPort: 9090,
  drainMs: 10_000,
  metricsMaxClients: 500,
  impactMaxClients: 1_000,
  impactMaxPathsPerClient: 200,
  redisTimeoutMs: 50,
  redisLocalCacheSize: 1_000,
  redisKeyPrefix: 'dlgw:',
  translatedAnswersMaxBytes: 16_777_216,
  translatedAnswersMinBytes: 16_384,
  readinessPath: '/ping',
  datalensOssAuthCookie: 'auth',
  datalensOssServices: ['bi'],
  readinessTimeoutMs: 2_000,
} as const;

/** What may stand behind the gateway (upstream.kind). */
export const UPSTREAM_KINDS = ['rpc', 'datalens-oss'] as const;
export type UpstreamKind = (typeof UPSTREAM_KINDS)[number];

/** The services of open-source DataLens besides the UI server and United Storage: control-api (`bi`) and the meta-manager. */
export const DATALENS_OSS_SERVICES = ['bi', 'meta-manager'] as const;
export type DatalensOssService = (typeof DATALENS_OSS_SERVICES)[number];

/** A preview client: an org id (as x-dl-org-id accepts it) or the first 12 hex digits of sha256(credential), as in the metrics. */
const PREVIEW_CLIENT = /^(?:org:[A-Za-z0-9._:-]{1,64}|cred:[0-9a-f]{12})$/;

const brownoutWindow = z
  .strictObject({ start: instant, end: instant })
  .refine((w) => w.end.getTime() > w.start.getTime(), { message: 'a brownout must end after it starts' });

const versionPlan = z.strictObject({
  version: z.number().int().positive(),
  released: instant,
  /** Explicit end of support; default: the next version's release + supportWindowDays. */
  sunset: instant.optional(),
  /** Sent in the Link header: an absolute http(s) URL, normalised so that it cannot break the header. */
  migrationGuide: z
    .string()
    .transform((v, ctx) => {
      let url: URL;
      try {
        url = new URL(v);
      } catch {
        ctx.addIssue({ code: 'custom', message: `not an absolute URL: ${v}` });
        return z.NEVER;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        ctx.addIssue({ code: 'custom', message: `must be an http or https URL: ${v}` });
        return z.NEVER;
      }
      if (url.username || url.password) {
        ctx.addIssue({ code: 'custom', message: 'must not carry credentials' });
        return z.NEVER;
      }
      // href percent-encodes spaces, quotes and angle brackets; what is left is safe inside <…>.
      return url.href;
    })
    .optional(),
  /** Scheduled windows during which this (deprecated) version answers 410, so clients notice before the sunset. */
  brownouts: z.array(brownoutWindow).default([]),
  /** Share (0..1) of this version's requests refused with 410 while it is deprecated. */
  brownoutShare: z.number().min(0).max(1).default(0),
  /**
   * Clients that may call this version before its release date (to test their migration), named as the metrics name
   * them: `org:<x-dl-org-id>` or `cred:<12 hex of sha256(credential)>`, so that no credential is written in the config.
   */
  preview: z
    .array(
      z.string().regex(PREVIEW_CLIENT, {
        error: (issue) => `a client as the metrics name it: org:<x-dl-org-id> or cred:<the 12 hex digits the metrics show> (got ${JSON.stringify(String(issue.input).slice(0, 80))})`,
      }),
    )
    .default([]),
  /**
   * While deprecated, a client the impact record first saw on this version after its deprecation (or never) gets 400;
   * clients seen on it before keep working until the sunset.
   */
  refuseNewClients: z.boolean().default(false),
});

export const configSchema = z.strictObject({
  listen: z
    .strictObject({
      host: z.string().default(DEFAULTS.host),
      port: z.number().int().min(0).max(65535).default(DEFAULTS.port),
      /** Proxies (addresses, CIDR blocks) whose X-Forwarded-* name the client; none by default: the peer is the client. */
      trustedProxies: z.array(z.string().refine(isAddressOrBlock, { error: (issue) => `an IP address or CIDR block such as 10.0.0.0/8 (got ${JSON.stringify(String(issue.input).slice(0, 80))})` })).default([]),
    })
    .prefault({}),
  upstream: z
    .strictObject({
      /**
       * What stands behind: `rpc`, a backend that serves `POST /rpc/<method>` itself; `datalens-oss`, the UI server of
       * open-source DataLens, reached through its internal routes (src/edge/datalens-oss/, docs/operations.md).
       */
      kind: z.enum(UPSTREAM_KINDS).default('rpc'),
      /** A base URL of the latest-only backend, or "embedded" to start the reference backend in-process. */
      url: z
        .string()
        .refine((v) => v === 'embedded' || /^https?:\/\/[^/?#\s]/i.test(v) && URL.canParse(v), {
          error: (issue) => `must be "embedded" or the backend's http(s) base URL, e.g. http://backend:8080 (got ${JSON.stringify(String(issue.input).slice(0, 80))})`,
        })
        .default('embedded'),
      timeoutMs: z.number().int().positive().default(DEFAULTS.upstreamTimeoutMs),
      maxSockets: z.number().int().positive().default(DEFAULTS.upstreamMaxSockets),
      keepAliveMs: z.number().int().positive().default(DEFAULTS.upstreamKeepAliveMs),
      /** The API version the backend speaks (one of the contract's; unset: the contract's head, or 1 for datalens-oss). */
      apiVersion: z.number().int().positive().optional(),
      /** Settings of `kind: datalens-oss`; ignored by `rpc`. */
      datalensOss: z
        .strictObject({
          /** The cookie open-source DataLens reads its session from; a client's `Authorization: Bearer` becomes it. */
          authCookie: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/, 'a cookie name (RFC 6265 token), e.g. auth').default(DEFAULTS.datalensOssAuthCookie),
          /** The optional services this deployment runs beside the UI server and United Storage: their methods are served. */
          services: z.array(z.enum(DATALENS_OSS_SERVICES)).default([...DEFAULTS.datalensOssServices]),
        })
        .prefault({}),
    })
    .prefault({})
    .superRefine((u, ctx) => {
      if (u.kind !== 'datalens-oss') return;
      if (u.url === 'embedded') ctx.addIssue({ code: 'custom', path: ['url'], message: 'kind datalens-oss needs the UI server\'s base URL, e.g. http://datalens-ui:8080 (the embedded backend is kind rpc)' });
      if (u.apiVersion !== undefined && u.apiVersion !== 1) ctx.addIssue({ code: 'custom', path: ['apiVersion'], message: `open-source DataLens speaks API version 1 (got ${u.apiVersion}); leave it unset or set 1` });
    }),
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
      /** A key the backend does not know is asked again after this long (a key created meanwhile is then found). */
      notFoundTtlMs: z.number().int().positive().default(DEFAULTS.legacyKeyNotFoundTtlMs),
    })
    .prefault({}),
  admin: z
    .strictObject({
      /** The admin listener (metrics, reload): loopback by default, never the public port. */
      enabled: z.boolean().default(true),
      host: z.string().default(DEFAULTS.adminHost),
      port: z.number().int().min(0).max(65535).default(DEFAULTS.adminPort),
      /** A file holding the token POST /reload requires (Authorization: Bearer); env ADMIN_TOKEN_FILE or ADMIN_TOKEN. */
      tokenFile: z.string().min(1).optional(),
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
  impact: z
    .strictObject({
      /** Clients the impact report keeps; past it, those seen longest ago are dropped (and counted). */
      maxClients: z.number().int().positive().default(DEFAULTS.impactMaxClients),
      /** Method × version × request-field entries kept per client; past it, new ones are dropped (and counted). */
      maxPathsPerClient: z.number().int().positive().default(DEFAULTS.impactMaxPathsPerClient),
    })
    .prefault({}),
  notices: z
    .strictObject({
      /** Client id as the impact report names it (org:<id>, cred:<hash>) → the http(s) URL its notices are posted to. */
      webhooks: z.record(z.string().min(1), z.url({ protocol: /^https?$/ })).default({}),
      /** A file holding the HMAC key notices are signed with; env NOTICES_SECRET wins. Needed once a webhook is set. */
      secretFile: z.string().min(1).optional(),
      /** Days before a sunset at which a client still calling the version is told (the nearest one reached). */
      leadDays: z.array(z.number().int().min(0)).default([90, 30, 7, 1]),
      /** Tries per notice and check, waiting retryBaseMs, then twice as long each time. */
      maxAttempts: z.number().int().min(1).max(20).default(5),
      retryBaseMs: z.number().int().min(1).default(1_000),
      /** How often the gateway looks for notices due. */
      checkEveryMs: z.number().int().min(100).default(60_000),
    })
    .prefault({}),
  readiness: z
    .strictObject({
      /** The backend path /readyz asks with GET; it must answer 2xx. */
      path: z
        .string()
        .regex(/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/, 'an absolute path such as /ping')
        .default(DEFAULTS.readinessPath),
      /** How long /readyz waits for the backend's answer; then 503. */
      timeoutMs: z.number().int().positive().default(DEFAULTS.readinessTimeoutMs),
      /** Require the answer to announce the contract's latest version ({"apiVersion": N} or x-dl-api-version). */
      checkVersion: z.boolean().default(true),
    })
    .prefault({}),
  paging: z
    .strictObject({
      tokenCacheSize: z.number().int().positive().default(DEFAULTS.pageTokenCacheSize),
      tokenCacheTtlMs: z.number().int().positive().default(DEFAULTS.pageTokenCacheTtlMs),
      /** Backend calls one v1 request may spend walking to its page; past it, 422 naming this setting. */
      maxWalkCalls: z.number().int().min(1).max(10_000).default(DEFAULTS.pagingMaxWalkCalls),
    })
    .prefault({}),
  passthrough: z
    .strictObject({
      /** Pass every request outside /rpc/ and the gateway's own routes to the upstream. Unset: see passthroughEnabled. */
      enabled: z.boolean().optional(),
      /** Path prefixes (e.g. /metrics, /internal) never passed through, whatever their spelling: answered 404. */
      exclude: z
        .array(z.string().regex(/^(?:\/[A-Za-z0-9._~!$&'()*+,=:@-]+)+$/, 'a path prefix such as /internal: no trailing slash, query or fragment'))
        .default([]),
    })
    .prefault({}),
  routes: z
    .strictObject({
      /** Path prefix of the gateway's own routes (versions, documents, changelog, reference pages); none by default. /healthz and /readyz never move. */
      prefix: z
        .string()
        .regex(/^(?:\/[A-Za-z0-9._~-]+)*$/, 'a path such as /_gateway: segments of letters, digits and ._~-, no trailing slash, or "" for none')
        .refine((p) => !/^\/rpc(?:\/|$)/i.test(p) && !/\/\.\.?(?:\/|$)/.test(p), 'must not be under /rpc nor contain . or .. segments')
        .optional(),
    })
    .prefault({}),
  objects: z
    .strictObject({
      /**
       * What a client gets for an object saved under a newer version than its own (docs/reference/object-versions.md):
       * "lossless" serves it when the client's version carries all of it; "refuse-newer" refuses it (DataLens's rule).
       */
      olderClients: z.enum(OLDER_CLIENTS_RULES).default('lossless'),
    })
    .prefault({}),
  cache: z
    .strictObject({
      /** Shares page tokens and legacy-key lookups between replicas; absent: each process caches alone. */
      redis: z
        .strictObject({
          url: z.url({ protocol: /^rediss?$/ }),
          /** Longest wait for one Redis command; then the request goes on without it. */
          timeoutMs: z.number().int().min(1).max(1_000).default(DEFAULTS.redisTimeoutMs),
          /** Entries of the in-process cache in front of Redis, per kind (page tokens, key lookups). */
          localCacheSize: z.number().int().min(0).default(DEFAULTS.redisLocalCacheSize),
          /** Prepended to every key, so that several deployments can share one Redis. */
          keyPrefix: z.string().max(64).default(DEFAULTS.redisKeyPrefix),
        })
        .optional(),
      /**
       * Answers translated down for an older client, kept in this process by a digest of the backend's bytes: the
       * same object read again at the same version is served without parsing and translating it again. Only
       * translations that consulted nothing but the answer are kept (none that looked up keys or pages).
       */
      translatedAnswers: z
        .strictObject({
          /** The bound on the kept answers, in bytes; 0 turns the reuse off. */
          maxBytes: z.number().int().min(0).default(DEFAULTS.translatedAnswersMaxBytes),
          /** Answers shorter than this are translated every time (digesting them costs about what it saves). */
          minAnswerBytes: z.number().int().min(0).default(DEFAULTS.translatedAnswersMinBytes),
        })
        .prefault({}),
    })
    .prefault({}),
});

/** The API version the backend speaks: `upstream.apiVersion`, or when unset 1 for open-source DataLens and the contract's head for `rpc`. */
export const backendVersionOf = (config: GatewayConfig, head: number): number =>
  config.upstream.apiVersion ?? (config.upstream.kind === 'datalens-oss' ? 1 : head);

/** Pass-through is on by default in front of a real upstream, and off in front of the embedded reference backend (it has no web UI). */
export const passthroughEnabled = (config: GatewayConfig): boolean =>
  config.passthrough.enabled ?? config.upstream.url !== 'embedded';

export type GatewayConfig = z.output<typeof configSchema>;
export type GatewayConfigInput = z.input<typeof configSchema>;
