// `serve`: load the config, start the embedded backend if asked, build the runtime and listen; reload the
// config on SIGHUP or file change; drain and stop on SIGTERM/SIGINT, from the first instant of start-up on.

import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { Client } from 'undici';
import { createAdminServer, type AdminServer, type ReloadResult } from '../admin/server.js';
import { createMetrics, type Metrics } from '../admin/metrics.js';
import { ConfigError, type LoadedConfig } from '../config/load.js';
import type { GatewayConfig } from '../config/schema.js';
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
  /** Aborted (SIGTERM/SIGINT during start-up): start-up closes what it opened and rejects with StartupStopped. */
  readonly stopSignal?: AbortSignal;
}

/** A start-up failure that is not the config file's: a port in use, say. One line names the culprit. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/** Start-up ended by a stop signal: what it had opened is closed (requests accepted meanwhile drained). */
export class StartupStopped extends Error {
  constructor() {
    super('stopped during start-up');
    this.name = 'StartupStopped';
  }
}

/** Between start-up steps: a stop signal received so far ends start-up there. */
const checkStop = (signal: AbortSignal | undefined) => {
  if (signal?.aborted) throw new StartupStopped();
};

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

/** The embedded reference backend, started on first use; it lives as long as the process, whatever reloads do. */
class EmbeddedUpstream {
  url: string | undefined;
  private stopBackend = async () => {};

  /** The upstream URL a config names: its own, or the embedded backend's (started now if it is not running). */
  async urlFor(l: LoadedConfig, logger: Logger): Promise<string> {
    if (l.config.upstream.url !== 'embedded') return l.config.upstream.url;
    if (!this.url) {
      // It speaks the version the config says the backend speaks (read once: the backend lives as long as the process).
      const apiVersion = l.config.upstream.apiVersion;
      const backend = createReferenceBackend({ contract: shippedContract, seed: DEMO_SEED, ...(apiVersion !== undefined && { apiVersion }) });
      this.url = await backend.listen(0, '127.0.0.1');
      this.stopBackend = () => backend.close();
      logger.warn(
        { upstream: this.url },
        `upstream: the EMBEDDED reference backend (in memory, demo data, for trying the gateway out) at ${this.url}; set UPSTREAM_URL to put the gateway in front of a real backend`,
      );
    }
    return this.url;
  }

  stop(): Promise<void> {
    return this.stopBackend();
  }
}

/** What lives as long as the process: the loggers' source, metrics, the impact recorder, the embedded backend. */
interface Shared {
  readonly options: ServeOptions;
  readonly env: NodeJS.ProcessEnv;
  readonly metrics: Metrics;
  readonly impact: ReturnType<typeof impactRecorderFor>;
  readonly embedded: EmbeddedUpstream;
}

// Redaction is applied here, whatever logger the caller passed (not only createLogger's), so credentials never reach
// the log; each generation gets loggers with its own logging.redact, so a reload applies it.
const loggersOf = (base: Logger, l: LoadedConfig) => ({
  logger: redactingLogger(base, l.config.logging.redact),
  requestLog: requestLineLogger(base, l.config.logging.redact),
});

const generation = (shared: Shared, l: LoadedConfig, upstreamUrl: string): RuntimeOptions => ({
  loaded: l,
  contract: shippedContract,
  upstreamUrl,
  clock: () => new Date(),
  ...loggersOf(shared.options.logger, l),
  metrics: shared.metrics,
  impact: shared.impact,
});

const impactReport = (gateway: Gateway, impact: Shared['impact']) => async (filters = {}) => {
  const rt = gateway.runtime();
  return buildImpactReport(rt.contract, rt.calendar, rt.clock(), await impact.snapshot(), impact.store, filters);
};

/** The signing key of notices: NOTICES_SECRET, or notices.secretFile; a StartupError when neither gives one. */
function noticesSecret(notices: GatewayConfig['notices'], env: NodeJS.ProcessEnv): string {
  let secret = env.NOTICES_SECRET;
  if (!secret && notices.secretFile) {
    try {
      secret = readFileSync(notices.secretFile, 'utf8').trim();
    } catch (e) {
      throw new StartupError(`notices.secretFile: cannot read ${notices.secretFile} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (!secret) throw new StartupError('notices.webhooks is set, so notices need a signing key: set NOTICES_SECRET or notices.secretFile');
  return secret;
}

/** Signed notices before a sunset, once a webhook is configured (the webhooks and their settings as at start). */
function startNotices(shared: Shared, config: GatewayConfig, gateway: Gateway, logger: Logger): { notifier: Notifier; timer: NodeJS.Timeout } | undefined {
  const { notices } = config;
  if (!Object.keys(notices.webhooks).length) return undefined;
  const { metrics } = shared;
  const redis = config.cache.redis;
  const notifier = createNotifier({
    webhooks: notices.webhooks,
    secret: noticesSecret(notices, shared.env),
    leadDays: notices.leadDays,
    maxAttempts: notices.maxAttempts,
    retryBaseMs: notices.retryBaseMs,
    report: () => impactReport(gateway, shared.impact)(),
    clock: () => gateway.runtime().clock(),
    ...(redis && { redis: { url: redis.url, keyPrefix: redis.keyPrefix } }),
    logger,
    metrics: { recordCacheError: (op, reason) => metrics.recordCacheError(op, reason), setCacheConnected: () => {} },
  });
  const timer = setInterval(() => void notifier.check().catch((e: unknown) => logger.warn({ err: e }, 'notice check failed')), notices.checkEveryMs);
  timer.unref();
  return { notifier, timer };
}

/** The public listener, then the admin listener when enabled. */
async function listenAll(
  config: GatewayConfig,
  gateway: Gateway,
  adminOptions: Parameters<typeof createAdminServer>[0],
): Promise<{ url: string; admin: AdminServer | undefined; adminUrl: string | undefined }> {
  const { listen: pub, admin: adminConfig } = config;
  const url = await bind(() => gateway.listen(pub.port, pub.host), pub.host, pub.port, 'listen.host/listen.port, or HOST/PORT');
  if (!adminConfig.enabled) return { url, admin: undefined, adminUrl: undefined };
  const admin = createAdminServer(adminOptions);
  try {
    const adminUrl = await bind(() => admin.listen(adminConfig.port, adminConfig.host), adminConfig.host, adminConfig.port, 'admin.host/admin.port, or ADMIN_HOST/ADMIN_PORT');
    return { url, admin, adminUrl };
  } catch (e) {
    await admin.close();
    throw e;
  }
}

/** The start-up lines: the upstream, whether it is ready (one probe on a connection of its own), the listeners, the calendar. */
async function announce(gateway: Gateway, options: ServeOptions, url: string, adminUrl: string | undefined, logger: Logger): Promise<void> {
  const first = gateway.runtime();
  const configPath = options.configPath;
  if (first.config.upstream.url !== 'embedded') logger.info({ upstream: first.upstreamUrl }, `upstream: ${first.upstreamUrl}`);
  // Say at start when the backend is not there (or speaks another version), not only through /readyz's 503s.
  const probe = new Client(new URL(first.upstreamUrl).origin);
  // A stop signal does not wait for a backend that is slow to answer the probe.
  const cut = () => void probe.destroy();
  options.stopSignal?.addEventListener('abort', cut, { once: true });
  const readiness = await checkReadiness({ ...readinessOptions(first), dispatcher: probe });
  options.stopSignal?.removeEventListener('abort', cut);
  void probe.close().catch(() => {});
  checkStop(options.stopSignal);
  if (!readiness.ready) logger.warn({ upstream: first.upstreamUrl }, `upstream not ready: ${readiness.reason}; /readyz answers 503 until it is`);
  logger.info({ config: configPath, head: first.contract.head }, `dl-version-gateway listening on ${url}`);
  if (adminUrl) logger.info(`admin listener (metrics, reload) on ${adminUrl}`);
  for (const line of calendarLines(first.calendar, new Date())) logger.info(`calendar: ${line}`);
}

/** Re-reads the config file into a new generation; a bad file is refused and the running config stays. */
class Reloader {
  loaded: LoadedConfig;
  watcher: ConfigWatcher | undefined;

  constructor(
    private readonly shared: Shared,
    private readonly gateway: Gateway,
    /** What the listeners were started with: restart-only settings are compared with it, not with the last reload. */
    private readonly initial: LoadedConfig,
    private logger: Logger,
  ) {
    this.loaded = initial;
  }

  reload(): ReloadResult {
    const { configPath } = this.shared.options;
    const { metrics } = this.shared;
    try {
      // Taken before the read: a write that lands while this reload runs has another digest and reloads too.
      const digest = digestOf(configPath);
      const next = validateConfigFile(configPath, this.shared.env);
      const embeddedUrl = this.shared.embedded.url;
      if (next.config.upstream.url === 'embedded' && !embeddedUrl) {
        throw new ConfigError(configPath, ['upstream.url: switching to the embedded backend needs a restart']);
      }
      const upstreamUrl = next.config.upstream.url === 'embedded' ? (embeddedUrl as string) : next.config.upstream.url;
      const runtime = createRuntime(generation(this.shared, next, upstreamUrl));
      // In-flight requests finish on the generation they started with; it closes once they are done.
      void this.gateway.swap(runtime).retire();
      this.loaded = next;
      this.logger = runtime.logger;
      metrics.setMaxClients(next.config.metrics.maxClients);
      this.shared.impact.setLimits(next.config.impact);
      this.watcher?.accept(digest);
      metrics.recordReload(true);
      this.warnRestartOnly(next.config);
      this.logger.info({ config: configPath }, 'config reloaded');
      for (const line of calendarLines(runtime.calendar, new Date())) this.logger.info(`calendar: ${line}`);
      return { ok: true };
    } catch (e) {
      metrics.recordReload(false);
      return this.refused(e);
    }
  }

  private warnRestartOnly(next: GatewayConfig): void {
    const previous = this.initial.config;
    const [l, m] = [next.listen, previous.listen];
    if (l.port !== m.port || l.host !== m.host || l.trustedProxies.join() !== m.trustedProxies.join()) {
      this.logger.warn('config reloaded, but listen.host/listen.port/listen.trustedProxies changes take effect only after a restart');
    }
    const [a, b] = [next.admin, previous.admin];
    if (a.enabled !== b.enabled || a.host !== b.host || a.port !== b.port) {
      this.logger.warn('config reloaded, but admin.* changes take effect only after a restart');
    }
  }

  private refused(e: unknown): ReloadResult {
    const { configPath } = this.shared.options;
    if (e instanceof ConfigError || e instanceof ContractError) {
      this.logger.error({ config: configPath, problems: e.problems }, `config reload refused, the previous config stays: ${e.problems.join('; ')}`);
      return { ok: false, problems: e.problems };
    }
    this.logger.error({ err: e }, 'config reload failed, the previous config stays');
    return { ok: false, problems: [(e as Error).message] };
  }
}

/** What start-up has opened, closed in one order whether start-up fails, is stopped, or the gateway stops later. */
class Opened {
  gateway: Gateway | undefined;
  admin: AdminServer | undefined;
  notices: ReturnType<typeof startNotices>;
  watcher: ConfigWatcher | undefined;

  constructor(private readonly shared: Shared) {}

  /** `drain`: requests accepted so far finish (within shutdown.drainMs); otherwise the listener is cut. */
  async close(drain: boolean): Promise<void> {
    this.watcher?.close();
    const gateway = this.gateway;
    if (gateway) await (drain ? gateway.shutdown(gateway.runtime().config.shutdown.drainMs) : gateway.close());
    await this.admin?.close();
    clearInterval(this.notices?.timer);
    await this.notices?.notifier.close();
    await this.shared.impact.close();
    await this.shared.embedded.stop();
  }
}

/** The start-up steps after the config: the embedded backend, the runtime, notices, the listeners, the start-up lines. */
async function start(shared: Shared, initial: LoadedConfig, logger: Logger, opened: Opened): Promise<{ url: string; adminUrl: string | undefined; reloader: Reloader }> {
  const { options } = shared;
  const upstreamUrl = await shared.embedded.urlFor(initial, logger);
  checkStop(options.stopSignal);
  const gateway = (opened.gateway = createGateway(generation(shared, initial, upstreamUrl)));
  const reloader = new Reloader(shared, gateway, initial, logger);
  const notices = (opened.notices = startNotices(shared, initial.config, gateway, logger));
  const { url, admin, adminUrl } = await listenAll(initial.config, gateway, {
    metrics: shared.metrics,
    reload: () => reloader.reload(),
    token: () => reloader.loaded.adminToken,
    impact: impactReport(gateway, shared.impact),
    ...(notices && { notices: () => notices.notifier.deliveries() }),
  });
  opened.admin = admin;
  checkStop(options.stopSignal);
  await announce(gateway, options, url, adminUrl, logger);
  return { url, adminUrl, reloader };
}

export async function serve(options: ServeOptions): Promise<Serving> {
  const { configPath } = options;
  const env = options.env ?? process.env;
  const initial = validateConfigFile(configPath, env);
  const { logger } = loggersOf(options.logger, initial);
  const metrics = createMetrics({ maxClients: initial.config.metrics.maxClients });
  // Who calls what (the impact report): shared by every generation; in Redis when cache.redis is set at start.
  const shared: Shared = { options, env, metrics, impact: impactRecorderFor(initial.config, logger, metrics), embedded: new EmbeddedUpstream() };
  const opened = new Opened(shared);
  let started: Awaited<ReturnType<typeof start>>;
  try {
    started = await start(shared, initial, logger, opened);
  } catch (e) {
    // A stop signal drains what the public listener accepted meanwhile; a failure closes at once.
    await opened.close(e instanceof StartupStopped);
    throw e;
  }
  const { url, adminUrl, reloader } = started;
  const gateway = opened.gateway as Gateway;
  if (options.watch !== false) reloader.watcher = opened.watcher = watchConfig(configPath, () => void reloader.reload());

  return {
    gateway,
    url,
    adminUrl,
    metrics,
    reload: () => reloader.reload(),
    checkNotices: () => opened.notices?.notifier.check() ?? Promise.resolve(),
    stop: () => opened.close(true),
  };
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * The process's signals for `serve`, handled from before anything opens: SIGTERM/SIGINT during start-up end it once
 * what was opened is closed; SIGHUP during start-up is remembered and reloads the config once the gateway has started
 * (the file may have changed after start-up read it). After start-up, SIGHUP reloads and SIGTERM/SIGINT drain and exit.
 */
class ProcessSignals {
  readonly stopping = new AbortController();
  private serving: Serving | undefined;
  private reloadWhenStarted = false;

  constructor(private readonly logger: Logger) {
    process.on('SIGHUP', this.hangUp);
    for (const signal of STOP_SIGNALS) process.once(signal, () => this.stop(signal));
  }

  private readonly hangUp = () => {
    if (!this.serving) {
      this.reloadWhenStarted = true;
      this.logger.info({ signal: 'SIGHUP' }, 'SIGHUP during start-up: the config is reloaded once the gateway has started');
      return;
    }
    this.logger.info({ signal: 'SIGHUP' }, 'reloading the config');
    this.serving.reload();
  };

  private stop(signal: string): void {
    const serving = this.serving;
    if (!serving) {
      this.logger.info({ signal }, 'stop signal during start-up: closing what is open, then exiting');
      this.stopping.abort();
      return;
    }
    const drainMs = serving.gateway.runtime().config.shutdown.drainMs;
    const inFlight = serving.gateway.runtime().inFlight();
    // The drain starts (the listener closes) before the line says so: a reader of the line finds it true.
    const stopped = serving.stop();
    this.logger.info({ signal, drainMs, inFlight }, 'draining, then stopping');
    stopped.then(
      () => {
        this.logger.info('stopped');
        process.exit(0);
      },
      () => process.exit(1),
    );
  }

  /** Start-up is over: signals now act on the running gateway; a SIGHUP received meanwhile reloads now. */
  started(serving: Serving): void {
    this.serving = serving;
    if (this.reloadWhenStarted) this.hangUp();
  }
}

/**
 * `serve` as the process runs it: its signal handlers are in place before this returns its promise (before any port
 * opens). Resolves 'serving' (the process keeps running), or 'stopped' when SIGTERM/SIGINT ended start-up and everything
 * start-up opened is closed; rejects as `serve` does when the gateway cannot start.
 */
export async function serveProcess(options: Omit<ServeOptions, 'stopSignal'>): Promise<'serving' | 'stopped'> {
  const signals = new ProcessSignals(options.logger);
  let serving: Serving;
  try {
    serving = await serve({ ...options, stopSignal: signals.stopping.signal });
  } catch (e) {
    if (!(e instanceof StartupStopped)) throw e;
    options.logger.info('stopped');
    return 'stopped';
  }
  // A stop signal after start-up's last step, before serve returned: stop what has just started.
  if (signals.stopping.signal.aborted) {
    await serving.stop();
    options.logger.info('stopped');
    return 'stopped';
  }
  signals.started(serving);
  return 'serving';
}
