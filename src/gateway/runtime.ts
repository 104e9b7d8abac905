// Builds one generation of the gateway (src/ports/runtime.ts): config, calendar, contract plans, caches and
// upstream connections, built together.

import type { Logger } from 'pino';
import type { Metrics } from '../admin/metrics.js';
import { loadContract, type LoadedContract } from '../core/contract-model/load.js';
import type { Contract } from '../core/contract-model/types.js';
import { buildPlans } from '../core/translate/plan.js';
import { createBackendClient } from '../adapters/backend-client.js';
import { createContractServices } from '../adapters/contract-services.js';
import { createTranslatedAnswers } from '../adapters/cache/translated-answers.js';
import { ConfigError, contractProblems, type LoadedConfig } from '../config/load.js';
import { backendVersionOf, type GatewayConfig, passthroughEnabled } from '../config/schema.js';
import type { Clock, Runtime } from '../ports/runtime.js';
import type { ImpactRecorder } from '../ports/impact.js';
import { createPassThrough } from '../edge/passthrough/passthrough.js';
import { createForwarder } from '../edge/rpc/forwarder.js';
import { createOssUpstream } from '../edge/datalens-oss/forwarder.js';
import { OSS_SERVED_ABOVE, unroutedReason } from '../edge/datalens-oss/routes.js';

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
  /** Who calls what, for the impact report; shared by every generation, like the metrics. */
  readonly impact?: ImpactRecorder;
}

export function createRuntime(options: RuntimeOptions): Runtime {
  const { config, calendar, source } = options.loaded;
  const upstream = {
    target: options.upstreamUrl,
    timeoutMs: config.upstream.timeoutMs,
    maxSockets: config.upstream.maxSockets,
    keepAliveMs: config.upstream.keepAliveMs,
  };
  const oss = config.upstream.kind === 'datalens-oss'
    ? createOssUpstream({ ...upstream, authCookie: config.upstream.datalensOss.authCookie, maxAnswerBytes: config.limits.responseBytes })
    : undefined;
  const forwarder = oss?.forwarder ?? createForwarder(upstream);
  // Page tokens and key lookups: in this process, or shared through Redis (cache.redis); this generation's own.
  const caches = createContractServices(config, { logger: options.logger, metrics: options.metrics });
  const passthrough = passthroughEnabled(config)
    ? createPassThrough({ ...upstream, exclude: config.passthrough.exclude, metrics: options.metrics, requestLog: options.requestLog ?? options.logger })
    : undefined;
  const close = () => {
    forwarder.close();
    void caches.close();
    passthrough?.close();
  };
  try {
    const contract = loadContract(options.contract);
    const problems = contractProblems(calendar, contract.versions, config.upstream.apiVersion);
    if (problems.length) throw new ConfigError(source, problems);
    const backend = oss?.backend ?? createBackendClient({ baseUrl: options.upstreamUrl, dispatcher: forwarder.pool, timeoutMs: config.upstream.timeoutMs });
    const backendVersion = backendVersionOf(config, contract.head);
    const inFlight = new InFlight(close);
    return Object.freeze({
      config,
      calendar,
      contract,
      backendVersion,
      plans: buildPlans(contract, backendVersion, oss ? servedAbove(contract, backendVersion) : undefined),
      unrouted: oss ? unroutedAt(contract, backendVersion, config.upstream.datalensOss.services) : NOTHING_UNROUTED,
      forwarder,
      passthrough,
      backend,
      services: caches.services,
      translatedAnswers: createTranslatedAnswers(config.cache.translatedAnswers),
      upstreamUrl: options.upstreamUrl,
      clock: options.clock,
      logger: options.logger,
      requestLog: options.requestLog ?? options.logger,
      metrics: options.metrics,
      impact: options.impact,
      track: () => inFlight.track(),
      inFlight: () => inFlight.count,
      retire: () => inFlight.retire(),
      close,
    });
  } catch (e) {
    close();
    throw e;
  }
}

const NOTHING_UNROUTED: ReadonlyMap<string, string> = new Map();

/** The methods open-source DataLens serves above its version, at the version their rows take, where the contract has them there. */
function servedAbove(contract: LoadedContract, backend: number): ReadonlyMap<string, number> {
  return new Map([...OSS_SERVED_ABOVE].filter(([name, at]) => at > backend && contract.byVersion.get(at)?.methods[name] !== undefined));
}

/** The methods of the backend's version open-source DataLens cannot serve here, with why. */
function unroutedAt(contract: LoadedContract, version: number, services: GatewayConfig['upstream']['datalensOss']['services']): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const name of Object.keys(contract.byVersion.get(version)?.methods ?? {})) {
    const reason = unroutedReason(name, services);
    if (reason !== undefined) out.set(name, reason);
  }
  return out;
}

/** The requests in flight on one generation, and its retirement: closed once the last of them ends. */
class InFlight {
  count = 0;
  private drained: (() => void) | undefined;

  constructor(private readonly close: () => void) {}

  /** Counts one request; the returned function ends it (once, however often it is called). */
  track(): () => void {
    this.count++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.count--;
      if (this.count === 0) this.drained?.();
    };
  }

  retire(): Promise<void> {
    if (this.count === 0) {
      this.close();
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.drained = () => {
        this.close();
        resolve();
      };
    });
  }
}
