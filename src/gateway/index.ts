// The gateway assembled from what it is given: config, contract, upstream, clock, loggers and metrics in;
// the public listener over a first generation out. Reloads build further generations with createRuntime.

import { type Gateway, type ServerLimits, createPublicServer } from '../edge/server/public-server.js';
import { createRuntime, type RuntimeOptions } from './runtime.js';

export type { Gateway, ServerLimits } from '../edge/server/public-server.js';
export type { Clock, Runtime } from '../ports/runtime.js';
export { createRuntime, type RuntimeOptions } from './runtime.js';

export interface GatewayOptions extends RuntimeOptions {
  /** Node's request timers; the config's limits when not given. */
  readonly limits?: ServerLimits;
}

export function createGateway(options: GatewayOptions): Gateway {
  return createPublicServer(createRuntime(options), options.limits);
}
