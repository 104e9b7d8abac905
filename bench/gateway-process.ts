// Child process: the gateway, built the way test/helpers/stack.ts builds it (parseConfig →
// createGateway), in front of the upstream URL given on the command line, with a fixed clock inside v1's
// deprecation window. It samples its RSS every 100 ms; the runner reads it over the control channel
// (stdin/stdout, see control.ts), so the gateway itself serves no extra route.
//
// Usage: node --import tsx bench/gateway-process.ts '{"upstream":"http://127.0.0.1:PORT", ...GatewayChildOptions}'

import { pino } from 'pino';
import { createMetrics } from '../src/admin/metrics.js';
import { parseConfig } from '../src/config/load.js';
import { shippedContract } from '../src/contract/index.js';
import { impactRecorderFor } from '../src/adapters/impact/recorder.js';
import { createGateway } from '../src/gateway/index.js';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { tuneHeap } from '../src/cli/heap.js';
import { createLogger, redactingLogger, requestLineLogger } from '../src/cli/logger.js';
import { contractCalendar } from '../test/helpers/calendar.js';
import { serveControl } from './control.js';

// Import only the type from here: importing a value would run this module (and start a gateway).
export interface GatewayChildOptions {
  readonly upstream: string;
  /** upstream.apiVersion: the version the backend speaks (absent: the contract's head). */
  readonly upstreamApiVersion?: number;
  /** limits.bodyBytes (absent: the config's default) */
  readonly bodyBytes?: number;
  /** limits.responseBytes (absent: the config's default) */
  readonly responseBytes?: number;
  /** 'silent' (default), or 'info' to pay for the per-request log line (written to /dev/null). */
  readonly log?: 'silent' | 'info';
  /** cache.redis: share page tokens and key lookups through this Redis (absent: in-memory caches). */
  readonly redis?: { readonly url: string; readonly localCacheSize: number; readonly timeoutMs: number };
  /** cache.translatedAnswers.maxBytes (absent: the config's default; 0: every answer translated on each read). */
  readonly translatedAnswersMaxBytes?: number;
}

/** Inside v1's deprecation window of the calendar below (the head released 2026-10-01, v1 sunset 2027-03-30). */
const BENCH_NOW = new Date('2026-11-22T12:00:00Z');

// As `serve` does in production.
tuneHeap();

const options = JSON.parse(process.argv[2] ?? '{}') as GatewayChildOptions;
if (!options.upstream) throw new Error('gateway-process: missing {"upstream": URL}');

const loaded = parseConfig({
  listen: { host: '127.0.0.1', port: 0 },
  upstream: { url: options.upstream, ...(options.upstreamApiVersion !== undefined && { apiVersion: options.upstreamApiVersion }) },
  limits: {
    ...(options.bodyBytes !== undefined && { bodyBytes: options.bodyBytes }),
    ...(options.responseBytes !== undefined && { responseBytes: options.responseBytes }),
  },
  lifecycle: contractCalendar({ first: '2025-01-15', head: '2026-10-01', supportWindowDays: 180 }),
  admin: { enabled: false },
  cache: {
    ...(options.redis && { redis: options.redis }),
    ...(options.translatedAnswersMaxBytes !== undefined && { translatedAnswers: { maxBytes: options.translatedAnswersMaxBytes } }),
  },
});
// With --gateway-log, the loggers `serve` builds (redaction included), writing to /dev/null.
const base = createLogger(options.log ?? 'silent', pino.destination({ dest: '/dev/null', sync: false }));
const logger = redactingLogger(base, []);
const requestLog = requestLineLogger(base, []);
// As in `serve` (production): default process metrics on.
const metrics = createMetrics({ maxClients: loaded.config.metrics.maxClients });
// As in `serve`: the impact report's recorder, in Redis when cache.redis is set.
const impact = impactRecorderFor(loaded.config, logger, metrics);
const gateway = createGateway({
  loaded,
  contract: shippedContract,
  upstreamUrl: options.upstream,
  clock: () => BENCH_NOW,
  logger,
  requestLog,
  metrics,
  impact,
});
const url = await gateway.listen(0, '127.0.0.1');
let clientConnections = 0;
gateway.server.on('connection', () => clientConnections++);

let peakRss = process.memoryUsage().rss;
// memoryUsage.rss() reads the RSS alone: the full memoryUsage() also walks the heap's spaces, ten times a second.
const sample = () => {
  const rss = process.memoryUsage.rss();
  if (rss > peakRss) peakRss = rss;
  return rss;
};
setInterval(sample, 100).unref();

/** The shared-cache metrics, for the Redis row: connected (1/0, undefined without Redis) and errors so far. */
const cacheStats = async () => {
  const value = async (name: string) => (await metrics.registry.getSingleMetric(name)?.get())?.values.reduce((n, v) => n + v.value, 0);
  const byReason = ((await metrics.registry.getSingleMetric('dlgw_cache_errors_total')?.get())?.values ?? []).map((v) => `${v.labels.op} ${v.labels.reason}: ${v.value}`);
  return {
    connected: options.redis ? await value('dlgw_cache_redis_connected') : undefined,
    errors: (await value('dlgw_cache_errors_total')) ?? 0,
    byReason: byReason.join(', '),
  };
};

const stats = () => {
  const m = process.memoryUsage();
  if (m.rss > peakRss) peakRss = m.rss;
  return {
    rss: m.rss,
    peakRss,
    // The OS high-water mark since the process started (getrusage), which 100 ms sampling can miss.
    maxRss: process.resourceUsage().maxRSS * 1024,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    inFlight: gateway.runtime().inFlight(),
    /** Client connections the gateway accepted since it started. */
    clientConnections,
    // The upstream pool: open connections, and requests running on them.
    upstreamConnected: gateway.runtime().forwarder.pool.stats.connected,
    upstreamRunning: gateway.runtime().forwarder.pool.stats.running,
  };
};

serveControl(
  { url, pid: process.pid },
  {
    stats,
    cache: cacheStats,
    /** The limits in force (the config's defaults where the runner gave none). */
    limits: () => loaded.config.limits,
    /** V8's heap spaces now: size (committed) and used, in bytes, by space. */
    heapSpaces: () => Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }])),
    /** Writes a heap snapshot (after a full GC) to the given file, for a look at what the process keeps. */
    heapSnapshot: (arg) => {
      (globalThis as { gc?: () => void }).gc?.();
      return writeHeapSnapshot((arg as { file: string }).file);
    },
    resetPeak: () => {
      peakRss = sample();
      return stats();
    },
    gc: () => {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) {
        gc();
        gc();
      }
      return stats();
    },
  },
  async () => {
    const final = stats();
    gateway.server.closeAllConnections();
    await gateway.close();
    return final;
  },
);
