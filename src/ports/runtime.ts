// One generation of the gateway, as the request path sees it: config, calendar, contract plans and upstream
// connections, built together (src/gateway/runtime.ts) and swapped whole on a reload.

import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/schema.js';
import type { LoadedContract } from '../core/contract-model/load.js';
import type { ContractServices } from '../core/contract-model/services.js';
import type { Calendar } from '../core/lifecycle/calendar.js';
import type { MethodPlan } from '../core/translate/plan.js';
import type { ImpactRecorder } from './impact.js';
import type { RequestMetrics } from './metrics.js';
import type { PassThrough } from './passthrough.js';
import type { TranslatedAnswers } from './translated-answers.js';
import type { BackendClient, Forwarder } from './upstream.js';

export type Clock = () => Date;

export interface Runtime {
  readonly config: GatewayConfig;
  readonly calendar: Calendar;
  readonly contract: LoadedContract;
  /** The API version the backend speaks (upstream.apiVersion, or the contract's head). */
  readonly backendVersion: number;
  readonly plans: ReadonlyMap<string, MethodPlan>;
  /** The methods (named at the backend's version) the backend's kind has no route for, each with why (NO_BACKEND_ROUTE). */
  readonly unrouted: ReadonlyMap<string, string>;
  readonly forwarder: Forwarder;
  /** Requests outside /rpc/ and the gateway's own routes go to the upstream through this; undefined when off. */
  readonly passthrough: PassThrough | undefined;
  readonly backend: BackendClient;
  /** The caches and lookups migrations reach through their context; this generation's own. */
  readonly services: ContractServices;
  /** Answers already translated down (cache.translatedAnswers); undefined when the reuse is off. This generation's own. */
  readonly translatedAnswers: TranslatedAnswers | undefined;
  readonly upstreamUrl: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Writes the one line per request (see src/cli/logger.ts for why it is a logger of its own). */
  readonly requestLog: Logger;
  readonly metrics: RequestMetrics;
  /** Who calls what, for the impact report (shared by every generation); undefined: nothing recorded. */
  readonly impact?: ImpactRecorder | undefined;
  /** Counts a request in flight on this generation; call the returned function when it ends. */
  track(): () => void;
  /** Requests in flight on this generation. */
  inFlight(): number;
  /** Resolves once no request is in flight, then releases the upstream connections. */
  retire(): Promise<void>;
  close(): void;
}
