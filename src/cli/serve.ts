// `serve`: load the config, start the embedded backend if asked, build the runtime and listen; reload the
// config on SIGHUP or file change; drain and stop on SIGTERM/SIGINT.

import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { Client } from 'undici';
import { createAdminServer, type AdminServer, type ReloadResult } from '../admin/server.js';
import { createMetrics, type Metrics } from '../admin/metrics.js';
import { ConfigError, type LoadedConfig } from '../config/load.js';
import { digestOf, watchConfig, type ConfigWatcher } from '../config/watch.js';
import { shippedContract } from '../contract/index.js';
import { ContractError } from '../core/contract-model/load.js';
import { buildImpactReport } from '../core/impact/report.js';
import { readinessOptions } from '../edge/discovery/discovery.js';
import { impactRecorderFor } from '../adapters/impact/recorder.js';
import { createNotifier, type Notifier } from '../adapters/impact/notices.js';
import { checkReadiness } from '../edge/discovery/readiness.js';
import { createGateway, createRuntime, type Gateway, type RuntimeOptions } from '../gateway/index.js';
import { DEMO_SEED, createReferenceBackend } from '../reference-backend/index.js';
import { calendarLines } from './calendar-table.js';
import { redactingLogger, requestLineLogger } from './logger.js';
import { validateConfigFile } from './validate-config.js';

export { DEFAULT_CONFIG } from '../config/load.js';

export interface Serving {
  readonly gateway: Gateway;
  readonly url: string;
  readonly adminUrl: string | undefined;
  readonly metrics: Metrics;
  /** Re-reads the config file; a bad file is refused and the running config stays. */
  reload(): ReloadResult;
  /** Drains in-flight requests (at most shutdown.drainMs) and stops everything. */
  stop(): Promise<void>;
  /** Sends the sunset notices due now (as the periodic check does); nothing without a webhook. */
  checkNotices(): Promise<void>;
}

export interface ServeOptions {
  readonly configPath: string;
  readonly logger: Logger;
  readonly env?: NodeJS.ProcessEnv;
  /** Watch the config folder for changes (default true). */
  readonly watch?: boolean;
}

/** A start-up failure that is not the config file's: a port in use, say. One line names the culprit. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/** Binds a listener, turning a bind failure into one line naming the keys and variables that chose the address. */
async function bind(listen: () => Promise<string>, host: string, port: number, culprit: string): Promise<string> {
  try {
    return await listen();
  } catch (e) {
    const err = e as Error & { code?: string };
    const why = err.code === 'EADDRINUSE' ? 'the address is already in use' : err.code === 'EACCES' ? 'permission denied' : (err.code ?? err.message);
    throw new StartupError(`cannot listen on ${host}:${port} (${culprit}): ${why}`);
  }
}

export async function serve(options: ServeOptions): Promise<Serving> {
  const { configPath } = options;
  const env = options.env ?? process.env;
  const initial = validateConfigFile(configPath, env);
  let loaded = initial;
  // Redaction is applied here, whatever logger the caller passed (not only createLogger's), so credentials
  // never reach the log; each generation gets loggers with its own logging.redact, so a reload applies it.
  const loggersOf = (l: LoadedConfig) => ({
    logger: redactingLogger(options.logger, l.config.logging.redact),
    requestLog: requestLineLogger(options.logger, l.config.logging.redact),
  });
  let { logger } = loggersOf(initial);
  const metrics = createMetrics({ maxClients: initial.config.metrics.maxClients });
  // Who calls what (the impact report): shared by every generation; in Redis when cache.redis is set at start.
  const impact = impactRecorderFor(initial.config, logger, metrics);
  const redis = initial.config.cache.redis;

  // The embedded backend lives as long as the process, whatever reloads do.
  let embeddedUrl: string | undefined;
  let stopBackend = async () => {};
  const upstreamOf = async (l: LoadedConfig): Promise<string> => {
    if (l.config.upstream.url !== 'embedded') return l.config.upstream.url;
    if (!embeddedUrl) {
      const backend = createReferenceBackend({ contract: shippedContract, seed: DEMO_SEED });
      embeddedUrl = await backend.listen(0, '127.0.0.1');
      stopBackend = () => backend.close();
      logger.warn(
        { upstream: embeddedUrl },
        `upstream: the EMBEDDED reference backend (in memory, demo data, for trying the gateway out) at ${embeddedUrl}; set UPSTREAM_URL to put the gateway in front of a real backend`,
      );
    }
    return embeddedUrl;
  };
  const generation = (l: LoadedConfig, upstreamUrl: string): RuntimeOptions => ({
    loaded: l,
    contract: shippedContract,
    upstreamUrl,
    clock: () => new Date(),
    ...loggersOf(l),
    metrics,
    impact,
  });

  const initialUpstream = await upstreamOf(initial);
  const gateway = createGateway(generation(initial, initialUpstream));
  const reportNow = async (filters = {}) => {
    const rt = gateway.runtime();
    return buildImpactReport(rt.contract, rt.calendar, rt.clock(), await impact.snapshot(), impact.store, filters);
  };
  // Signed notices before a sunset, once a webhook is configured (the webhooks and their settings as at start).
  let notifier: Notifier | undefined;
  let noticeTimer: NodeJS.Timeout | undefined;
  const notices = initial.config.notices;
  if (Object.keys(notices.webhooks).length) {
    let secret = env.NOTICES_SECRET;
    if (!secret && notices.secretFile) {
      try {
        secret = readFileSync(notices.secretFile, 'utf8').trim();
      } catch (e) {
        await gateway.close();
        await impact.close();
        throw new StartupError(`notices.secretFile: cannot read ${notices.secretFile} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
      }
    }
    if (!secret) {
      await gateway.close();
      await impact.close();
      throw new StartupError('notices.webhooks is set, so notices need a signing key: set NOTICES_SECRET or notices.secretFile');
    }
    notifier = createNotifier({
      webhooks: notices.webhooks,
      secret,
      leadDays: notices.leadDays,
      maxAttempts: notices.maxAttempts,
      retryBaseMs: notices.retryBaseMs,
      report: () => reportNow(),
      clock: () => gateway.runtime().clock(),
      ...(redis && { redis: { url: redis.url, keyPrefix: redis.keyPrefix } }),
      logger,
      metrics: { recordCacheError: (op, reason) => metrics.recordCacheError(op, reason), setCacheConnected: () => {} },
    });
    const n = notifier;
    noticeTimer = setInterval(() => void n.check().catch((e: unknown) => logger.warn({ err: e }, 'notice check failed')), notices.checkEveryMs);
    noticeTimer.unref();
  }
  const { listen: pub, admin: adminConfig } = initial.config;
  let admin: AdminServer | undefined;
  let url: string;
  let adminUrl: string | undefined;
  try {
    url = await bind(() => gateway.listen(pub.port, pub.host), pub.host, pub.port, 'listen.host/listen.port, or HOST/PORT');
    if (adminConfig.enabled) {
      admin = createAdminServer({
        metrics,
        reload: () => reload(),
        token: () => loaded.adminToken,
        impact: reportNow,
        ...(notifier && { notices: () => (notifier as Notifier).deliveries() }),
      });
      adminUrl = await bind(
        () => (admin as AdminServer).listen(adminConfig.port, adminConfig.host),
        adminConfig.host,
        adminConfig.port,
        'admin.host/admin.port, or ADMIN_HOST/ADMIN_PORT',
      );
    }
  } catch (e) {
    await gateway.close();
    clearInterval(noticeTimer);
    await notifier?.close();
    await impact.close();
    await stopBackend();
    throw e;
  }
  if (initial.config.upstream.url !== 'embedded') logger.info({ upstream: initialUpstream }, `upstream: ${initialUpstream}`);
  // Say at start when the backend is not there (or speaks another version), not only through /readyz's 503s.
  // One check, at most readiness.timeoutMs, on a connection of its own (it is no request in flight).
  const first = gateway.runtime();
  const probe = new Client(new URL(first.upstreamUrl).origin);
  const readiness = await checkReadiness({ ...readinessOptions(first), dispatcher: probe });
  void probe.close();
  if (!readiness.ready) logger.warn({ upstream: first.upstreamUrl }, `upstream not ready: ${readiness.reason}; /readyz answers 503 until it is`);
  logger.info({ config: configPath, head: first.contract.head }, `dl-version-gateway listening on ${url}`);
  if (adminUrl) logger.info(`admin listener (metrics, reload) on ${adminUrl}`);
  for (const line of calendarLines(first.calendar, new Date())) logger.info(`calendar: ${line}`);

  let watcher: ConfigWatcher | undefined;
  function reload(): ReloadResult {
    try {
      // Taken before the read: a write that lands while this reload runs has another digest and reloads too.
      const digest = digestOf(configPath);
      const next = validateConfigFile(configPath, env);
      // The listeners keep what they were started with: compare with that, not with the last reload.
      const previous = initial.config;
      if (next.config.upstream.url === 'embedded' && !embeddedUrl) {
        throw new ConfigError(configPath, ['upstream.url: switching to the embedded backend needs a restart']);
      }
      const upstreamUrl = next.config.upstream.url === 'embedded' ? (embeddedUrl as string) : next.config.upstream.url;
      const runtime = createRuntime(generation(next, upstreamUrl));
      // In-flight requests finish on the generation they started with; it closes once they are done.
      void gateway.swap(runtime).retire();
      loaded = next;
      logger = runtime.logger;
      metrics.setMaxClients(next.config.metrics.maxClients);
      impact.setLimits(next.config.impact);
      watcher?.accept(digest);
      metrics.recordReload(true);
      if (next.config.listen.port !== previous.listen.port || next.config.listen.host !== previous.listen.host) {
        logger.warn('config reloaded, but listen.host/listen.port changes take effect only after a restart');
      }
      const nextAdmin = next.config.admin;
      if (nextAdmin.enabled !== previous.admin.enabled || nextAdmin.host !== previous.admin.host || nextAdmin.port !== previous.admin.port) {
        logger.warn('config reloaded, but admin.* changes take effect only after a restart');
      }
      logger.info({ config: configPath }, 'config reloaded');
      for (const line of calendarLines(runtime.calendar, new Date())) logger.info(`calendar: ${line}`);
      return { ok: true };
    } catch (e) {
      metrics.recordReload(false);
      if (e instanceof ConfigError || e instanceof ContractError) {
        logger.error({ config: configPath, problems: e.problems }, `config reload refused, the previous config stays: ${e.problems.join('; ')}`);
        return { ok: false, problems: e.problems };
      }
      logger.error({ err: e }, 'config reload failed, the previous config stays');
      return { ok: false, problems: [(e as Error).message] };
    }
  }
  if (options.watch !== false) watcher = watchConfig(configPath, () => void reload());

  return {
    gateway,
    url,
    adminUrl,
    metrics,
    reload,
    checkNotices: () => notifier?.check() ?? Promise.resolve(),
    async stop() {
      watcher?.close();
      await gateway.shutdown(gateway.runtime().config.shutdown.drainMs);
      await admin?.close();
      clearInterval(noticeTimer);
      await notifier?.close();
      await impact.close();
      await stopBackend();
    },
  };
}
