// Prometheus metrics (prom-client): traffic by version/method/status, latencies, translation, upstream
// errors, config reloads, the shared cache's troubles, and who still calls deprecated versions.

import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { CacheMetrics, RequestMetrics } from '../ports/metrics.js';
import { RouteHistogram, type RouteSeries } from './route-histogram.js';

export type { CacheMetrics, RequestMetrics, RequestRecord } from '../ports/metrics.js';

/** The request path's metrics (ports/metrics.ts) and the admin side's: the registry it serves, reloads, the client bound. */
export interface Metrics extends RequestMetrics {
  readonly registry: Registry;
  recordReload(ok: boolean): void;
  /** Applies a reloaded metrics.maxClients: clients already labelled keep their label, new ones count against the new bound. */
  setMaxClients(maxClients: number): void;
}

const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The metrics of every request: counts by outcome, latencies by route, backend failures. */
function trafficMetrics(registry: Registry) {
  return {
    requests: new Counter({
      name: 'dlgw_requests_total',
      help: 'RPC requests by resolved API version, method and response status',
      labelNames: ['version', 'method', 'status'] as const,
      registers: [registry],
    }),
    // The request path's latencies by version and method (route-histogram.ts: no label hashing per observation).
    duration: new RouteHistogram('dlgw_request_duration_seconds', 'Time from request to the end of the response, by API version and method', SECONDS, registry),
    upstream: new RouteHistogram('dlgw_upstream_duration_seconds', 'Time the backend took to start answering, by API version and method', SECONDS, registry),
    translation: new RouteHistogram(
      'dlgw_translation_duration_seconds',
      'Time spent migrating old-version requests up (lookups included), by API version and method',
      SECONDS,
      registry,
    ),
    upstreamErrors: new Counter({
      name: 'dlgw_upstream_errors_total',
      help: 'Requests answered 502/504 because the backend failed, by error code',
      labelNames: ['code'] as const,
      registers: [registry],
    }),
  };
}

/** Who calls deprecated and preview versions. */
function clientMetrics(registry: Registry) {
  return {
    deprecated: new Counter({
      name: 'dlgw_deprecated_requests_total',
      help: 'Requests on deprecated API versions by client (org id, or a short hash of the credential)',
      labelNames: ['version', 'client'] as const,
      registers: [registry],
    }),
    // Labelled by the calendar's own preview lists: bounded by the config, not by who calls.
    preview: new Counter({
      name: 'dlgw_preview_requests_total',
      help: 'Requests on a not yet released API version let in by preview access, by version and client (as the calendar lists it)',
      labelNames: ['version', 'client'] as const,
      registers: [registry],
    }),
  };
}

const CACHE_CONNECTED = 'dlgw_cache_redis_connected';

/** Reloads, pass-through, the caches. */
function operationsMetrics(registry: Registry) {
  const reloads = new Counter({
    name: 'dlgw_config_reloads_total',
    help: 'Config reload attempts by result (success, failure)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  for (const result of ['success', 'failure']) reloads.inc({ result }, 0);
  return {
    reloads,
    passthrough: new Counter({
      name: 'dlgw_passthrough_requests_total',
      help: 'Requests outside /rpc passed to the backend (WebSocket handshakes included), by response status',
      labelNames: ['status'] as const,
      registers: [registry],
    }),
    translatedAnswers: new Counter({
      name: 'dlgw_translated_answers_total',
      help: 'Answers translated down that were looked up among those kept (cache.translatedAnswers), by result (reused, translated, not_reusable)',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    cacheErrors: new Counter({
      name: 'dlgw_cache_errors_total',
      help: 'Shared-cache (Redis) commands that gave no usable answer, by operation and reason; the request went on without them',
      labelNames: ['op', 'reason'] as const,
      registers: [registry],
    }),
    // Registered only while a Redis is configured: prom-client prints an unlabelled gauge as 0 even when never set.
    cacheConnected: new Gauge({
      name: CACHE_CONNECTED,
      help: '1 while the shared cache (Redis) is connected, 0 while not; absent without Redis',
      registers: [],
    }),
  };
}

type Traffic = ReturnType<typeof trafficMetrics>;
type RouteChildren = { duration: RouteSeries; upstream: RouteSeries; translation: RouteSeries };

/**
 * prom-client hashes a label object on every call; on the hot paths (/rpc and pass-through) the labelled children are
 * kept instead. Label values are bounded (contract versions and method names, HTTP statuses, maxClients + "other"),
 * so the maps are too.
 */
class LabelledChildren {
  private readonly byRoute = new Map<string, RouteChildren>();
  private readonly byOutcome = new Map<string, ReturnType<Traffic['requests']['labels']>>();
  private readonly byClient = new Map<string, ReturnType<Counter<'version' | 'client'>['labels']>>();
  private readonly byPassthroughStatus = new Map<number, ReturnType<Counter<'status'>['labels']>>();
  /** Past maxClients, new clients are counted as "other". */
  private readonly clients = new Set<string>();

  constructor(
    private readonly traffic: Traffic,
    private readonly deprecated: Counter<'version' | 'client'>,
    private readonly passthrough: Counter<'status'>,
    public maxClients: number,
  ) {}

  passthroughBy(status: number) {
    let child = this.byPassthroughStatus.get(status);
    if (!child) this.byPassthroughStatus.set(status, (child = this.passthrough.labels(String(status))));
    return child;
  }

  route(version: string, method: string): RouteChildren {
    const key = `${version} ${method}`;
    let children = this.byRoute.get(key);
    if (!children) {
      const { duration, upstream, translation } = this.traffic;
      children = { duration: duration.series(version, method), upstream: upstream.series(version, method), translation: translation.series(version, method) };
      this.byRoute.set(key, children);
    }
    return children;
  }

  outcome(version: string, method: string, status: string) {
    const key = `${version} ${method} ${status}`;
    let child = this.byOutcome.get(key);
    if (!child) this.byOutcome.set(key, (child = this.traffic.requests.labels(version, method, status)));
    return child;
  }

  deprecatedBy(version: string, client: string) {
    const label = this.clientLabel(client);
    const key = `${version} ${label}`;
    let child = this.byClient.get(key);
    if (!child) this.byClient.set(key, (child = this.deprecated.labels(version, label)));
    return child;
  }

  private clientLabel(client: string): string {
    if (this.clients.has(client)) return client;
    if (this.clients.size < this.maxClients) {
      this.clients.add(client);
      return client;
    }
    return 'other';
  }
}

export function createMetrics(options: { maxClients: number; defaultMetrics?: boolean }): Metrics {
  const registry = new Registry();
  // prom-client's standard names (process_cpu_seconds_total, nodejs_heap_size_used_bytes, …), which stock Node.js dashboards expect.
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const traffic = trafficMetrics(registry);
  const { deprecated, preview } = clientMetrics(registry);
  const ops = operationsMetrics(registry);
  const children = new LabelledChildren(traffic, deprecated, ops.passthrough, options.maxClients);

  return {
    registry,
    recordRequest(r) {
      const version = r.version === undefined ? 'none' : String(r.version);
      children.outcome(version, r.method, String(r.status)).inc();
      const route = children.route(version, r.method);
      route.duration.observe(r.durationMs / 1000);
      if (r.upstreamMs !== undefined) route.upstream.observe(r.upstreamMs / 1000);
      if (r.translateMs !== undefined) route.translation.observe(r.translateMs / 1000);
      if (r.error === 'UPSTREAM_UNAVAILABLE' || r.error === 'UPSTREAM_TIMEOUT') traffic.upstreamErrors.inc({ code: r.error });
      if (r.deprecated) children.deprecatedBy(version, r.client).inc();
      if (r.preview !== undefined) preview.inc({ version, client: r.preview });
      if (r.translatedAnswer !== undefined) ops.translatedAnswers.inc({ result: r.translatedAnswer });
    },
    recordReload(ok) {
      ops.reloads.inc({ result: ok ? 'success' : 'failure' });
    },
    recordPassthrough(status, error) {
      children.passthroughBy(status).inc();
      if (error === 'UPSTREAM_UNAVAILABLE' || error === 'UPSTREAM_TIMEOUT') traffic.upstreamErrors.inc({ code: error });
    },
    recordCacheError(op, reason) {
      ops.cacheErrors.inc({ op, reason });
    },
    setCacheConnected(up) {
      if (up === undefined) {
        registry.removeSingleMetric(CACHE_CONNECTED);
        return;
      }
      if (!registry.getSingleMetric(CACHE_CONNECTED)) registry.registerMetric(ops.cacheConnected);
      ops.cacheConnected.set(up ? 1 : 0);
    },
    setMaxClients(n) {
      children.maxClients = n;
    },
  };
}
