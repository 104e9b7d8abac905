// `serve`: load the config, start the embedded backend if asked, build the runtime and listen; reload the
// config on SIGHUP or file change; drain and stop on SIGTERM/SIGINT.

import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { createAdminServer, type AdminServer, type ReloadResult } from '../admin/server.js';
import { createMetrics, type Metrics } from '../admin/metrics.js';
import { ConfigError, type LoadedConfig, loadConfigFile } from '../config/load.js';
import { digestOf, watchConfig, type ConfigWatcher } from '../config/watch.js';
import { createShippedContract } from '../contract/index.js';
import { ContractError } from '../core/contract/load.js';
import { createGateway, type Gateway } from '../edge/app.js';
import { createRuntime, type Runtime } from '../edge/runtime.js';
import { DEMO_ENTRIES, DEMO_WORKBOOKS, createReferenceBackend } from '../reference-backend/index.js';
import { calendarLines } from './calendar-table.js';
import { redactingLogger, requestLineLogger } from './logger.js';

export const DEFAULT_CONFIG = fileURLToPath(new URL('../../config/gateway.yaml', import.meta.url));

export interface Serving {
  readonly gateway: Gateway;
  readonly url: string;
  readonly adminUrl: string | undefined;
  readonly metrics: Metrics;
  /** Re-reads the config file; a bad file is refused and the running config stays. */
  reload(): ReloadResult;
  /** Drains in-flight requests (at most shutdown.drainMs) and stops everything. */
  stop(): Promise<void>;
}

export interface ServeOptions {
  readonly configPath: string;
  readonly logger: Logger;
  readonly env?: NodeJS.ProcessEnv;
  /** Watch the config folder for changes (default true). */
  readonly watch?: boolean;
}

export async function serve(options: ServeOptions): Promise<Serving> {
  const { configPath } = options;
  const env = options.env ?? process.env;
  const initial = loadConfigFile(configPath, env);
  // Redaction is fixed at start: a reload that changes logging.redact needs a restart. It is applied here,
  // whatever logger the caller passed (not only createLogger's), so credentials never reach the log.
  const logger = redactingLogger(options.logger, initial.config.logging.redact);
  const requestLog = requestLineLogger(options.logger, initial.config.logging.redact);
  const metrics = createMetrics({ maxClients: initial.config.metrics.maxClients });

  // The embedded backend lives as long as the process, whatever reloads do.
  let embeddedUrl: string | undefined;
  let stopBackend = async () => {};
  const upstreamOf = async (loaded: LoadedConfig): Promise<string> => {
    if (loaded.config.upstream.url !== 'embedded') return loaded.config.upstream.url;
    if (!embeddedUrl) {
      const backend = createReferenceBackend({
        headVersion: 2,
        seed: { workbooks: [...DEMO_WORKBOOKS], entries: [...DEMO_ENTRIES] },
      });
      embeddedUrl = await backend.listen(0, '127.0.0.1');
      stopBackend = () => backend.close();
      logger.warn(
        { upstream: embeddedUrl },
        `upstream: the EMBEDDED reference backend (in memory, demo data, for trying the gateway out) at ${embeddedUrl}; set UPSTREAM_URL to put the gateway in front of a real backend`,
      );
    }
    return embeddedUrl;
  };
  const build = (loaded: LoadedConfig, upstreamUrl: string): Runtime =>
    createRuntime({ loaded, contract: createShippedContract, upstreamUrl, clock: () => new Date(), logger, requestLog, metrics });

  const initialUpstream = await upstreamOf(initial);
  if (initial.config.upstream.url !== 'embedded') logger.info({ upstream: initialUpstream }, `upstream: ${initialUpstream}`);
  const gateway = createGateway(build(initial, initialUpstream));
  const url = await gateway.listen(initial.config.listen.port, initial.config.listen.host);
  logger.info({ config: configPath, head: gateway.runtime().contract.head }, `dl-version-gateway listening on ${url}`);
  for (const line of calendarLines(gateway.runtime().calendar, new Date())) logger.info(`calendar: ${line}`);

  let watcher: ConfigWatcher | undefined;
  const reload = (): ReloadResult => {
    try {
      // Taken before the read: a write that lands while this reload runs has another digest and reloads too.
      const digest = digestOf(configPath);
      const loaded = loadConfigFile(configPath, env);
      // The listeners keep what they were started with: compare with that, not with the last reload.
      const previous = initial.config;
      if (loaded.config.upstream.url === 'embedded' && !embeddedUrl) {
        throw new ConfigError(configPath, ['upstream.url: switching to the embedded backend needs a restart']);
      }
      const upstreamUrl = loaded.config.upstream.url === 'embedded' ? (embeddedUrl as string) : loaded.config.upstream.url;
      const next = build(loaded, upstreamUrl);
      // In-flight requests finish on the generation they started with; it closes once they are done.
      void gateway.swap(next).retire();
      watcher?.accept(digest);
      metrics.recordReload(true);
      if (loaded.config.listen.port !== previous.listen.port || loaded.config.listen.host !== previous.listen.host) {
        logger.warn('config reloaded, but listen.host/listen.port changes take effect only after a restart');
      }
      const nextAdmin = loaded.config.admin;
      if (nextAdmin.enabled !== previous.admin.enabled || nextAdmin.host !== previous.admin.host || nextAdmin.port !== previous.admin.port) {
        logger.warn('config reloaded, but admin.* changes take effect only after a restart');
      }
      logger.info({ config: configPath }, 'config reloaded');
      for (const line of calendarLines(next.calendar, new Date())) logger.info(`calendar: ${line}`);
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
  };
  if (options.watch !== false) watcher = watchConfig(configPath, () => void reload());

  let admin: AdminServer | undefined;
  let adminUrl: string | undefined;
  if (initial.config.admin.enabled) {
    admin = createAdminServer({ metrics, reload });
    adminUrl = await admin.listen(initial.config.admin.port, initial.config.admin.host);
    logger.info(`admin listener (metrics, reload) on ${adminUrl}`);
  }

  return {
    gateway,
    url,
    adminUrl,
    metrics,
    reload,
    async stop() {
      watcher?.close();
      await gateway.shutdown(gateway.runtime().config.shutdown.drainMs);
      await admin?.close();
      await stopBackend();
    },
  };
}
