// One generation of the gateway: config, calendar, contract plans and upstream connections, built together.

import type { Logger } from 'pino';
import type { Metrics } from '../admin/metrics.js';
import { type LoadedContract, loadContract } from '../core/contract/load.js';
import type { Contract } from '../core/contract/types.js';
import type { Calendar } from '../core/lifecycle/calendar.js';
import { buildPlans, type MethodPlan } from '../core/translate/plan.js';
import { type BackendClient, createBackendClient } from '../adapters/backend-client.js';
import { createContractServices } from '../adapters/contract-services.js';
import type { ContractServices } from '../core/contract/services.js';
import { ConfigError, contractProblems, type LoadedConfig } from '../config/load.js';
import { type GatewayConfig, passthroughEnabled } from '../config/schema.js';
import { createPassThrough, type PassThrough } from './passthrough.js';
import { createForwarder, type Forwarder } from './proxy.js';

export type Clock = () => Date;

export interface Runtime {
  readonly config: GatewayConfig;
  readonly calendar: Calendar;
  readonly contract: LoadedContract;
  readonly plans: ReadonlyMap<string, MethodPlan>;
  readonly forwarder: Forwarder;
  /** Requests outside /rpc/ and the gateway's own routes go to the upstream through this; undefined when off. */
  readonly passthrough: PassThrough | undefined;
  readonly backend: BackendClient;
  /** The caches and lookups migrations reach through their context; this generation's own. */
  readonly services: ContractServices;
  readonly upstreamUrl: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Writes the one line per request (see src/cli/logger.ts for why it is a logger of its own). */
  readonly requestLog: Logger;
  readonly metrics: Metrics;
  /** Counts a request in flight on this generation; call the returned function when it ends. */
  track(): () => void;
  /** Requests in flight on this generation. */
  inFlight(): number;
  /** Resolves once no request is in flight, then releases the upstream connections. */
  retire(): Promise<void>;
  close(): void;
}

export interface RuntimeOptions {
  readonly loaded: LoadedConfig;
  /** The contract (a plain value: its migrations reach this runtime's caches through their context). */
  readonly contract: Contract;
  /** The resolved upstream base URL (the embedded backend's address when config says "embedded"). */
  readonly upstreamUrl: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The per-request line's logger; the general logger when not given. */
  readonly requestLog?: Logger;
  /** Shared by every generation, so counters survive reloads. */
  readonly metrics: Metrics;
}

export function createRuntime(options: RuntimeOptions): Runtime {
  const { config, calendar, source } = options.loaded;
  const forwarder = createForwarder({
    target: options.upstreamUrl,
    timeoutMs: config.upstream.timeoutMs,
    maxSockets: config.upstream.maxSockets,
    keepAliveMs: config.upstream.keepAliveMs,
  });
  // Page tokens and key lookups: in this process, or shared through Redis (cache.redis); this generation's own.
  const caches = createContractServices(config, { logger: options.logger, metrics: options.metrics });
  const passthrough = passthroughEnabled(config)
    ? createPassThrough({
        target: options.upstreamUrl,
        timeoutMs: config.upstream.timeoutMs,
        maxSockets: config.upstream.maxSockets,
        keepAliveMs: config.upstream.keepAliveMs,
        exclude: config.passthrough.exclude,
        metrics: options.metrics,
        requestLog: options.requestLog ?? options.logger,
      })
    : undefined;
  try {
    const contract = loadContract(options.contract);
    const problems = contractProblems(calendar, contract.versions);
    if (problems.length) throw new ConfigError(source, problems);
    const backend = createBackendClient({
      baseUrl: options.upstreamUrl,
      dispatcher: forwarder.pool,
      timeoutMs: config.upstream.timeoutMs,
      headVersion: contract.head,
    });
    let active = 0;
    let drained: (() => void) | undefined;
    const close = () => {
      forwarder.close();
      void caches.close();
      passthrough?.close();
    };
    return Object.freeze({
      config,
      calendar,
      contract,
      plans: buildPlans(contract),
      forwarder,
      passthrough,
      backend,
      services: caches.services,
      upstreamUrl: options.upstreamUrl,
      clock: options.clock,
      logger: options.logger,
      requestLog: options.requestLog ?? options.logger,
      metrics: options.metrics,
      track() {
        active++;
        let ended = false;
        return () => {
          if (ended) return;
          ended = true;
          active--;
          if (active === 0) drained?.();
        };
      },
      inFlight: () => active,
      retire() {
        if (active === 0) {
          close();
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          drained = () => {
            close();
            resolve();
          };
        });
      },
      close,
    });
  } catch (e) {
    forwarder.close();
    void caches.close();
    passthrough?.close();
    throw e;
  }
}
