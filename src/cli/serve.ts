// `serve`: load the config, start the embedded backend if asked, build the runtime and listen.

import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { loadConfigFile } from '../config/load.js';
import { createShippedContract } from '../contract/index.js';
import { createGateway, type Gateway } from '../edge/app.js';
import { createRuntime } from '../edge/runtime.js';
import { DEMO_ENTRIES, DEMO_WORKBOOKS, createReferenceBackend } from '../reference-backend/index.js';
import { calendarLines } from './calendar-table.js';

export const DEFAULT_CONFIG = fileURLToPath(new URL('../../config/gateway.yaml', import.meta.url));

export interface Serving {
  readonly gateway: Gateway;
  readonly url: string;
  stop(): Promise<void>;
}

export async function serve(configPath: string, logger: Logger, env = process.env): Promise<Serving> {
  const loaded = loadConfigFile(configPath, env);
  const { config } = loaded;
  let upstreamUrl = config.upstream.url;
  let stopBackend = async () => {};
  if (upstreamUrl === 'embedded') {
    const backend = createReferenceBackend({
      headVersion: 2,
      seed: { workbooks: [...DEMO_WORKBOOKS], entries: [...DEMO_ENTRIES] },
    });
    upstreamUrl = await backend.listen(0, '127.0.0.1');
    stopBackend = () => backend.close();
    logger.warn(
      { upstream: upstreamUrl },
      `upstream: the EMBEDDED reference backend (in memory, demo data, for trying the gateway out) at ${upstreamUrl}; set UPSTREAM_URL to put the gateway in front of a real backend`,
    );
  } else {
    logger.info({ upstream: upstreamUrl }, `upstream: ${upstreamUrl}`);
  }
  const runtime = createRuntime({ loaded, contract: createShippedContract, upstreamUrl, clock: () => new Date(), logger });
  const gateway = createGateway(runtime);
  const url = await gateway.listen(config.listen.port, config.listen.host);
  logger.info({ config: configPath, head: runtime.contract.head }, `dl-version-gateway listening on ${url}`);
  for (const line of calendarLines(runtime.calendar, new Date())) logger.info(`calendar: ${line}`);
  return {
    gateway,
    url,
    async stop() {
      await gateway.close();
      await stopBackend();
    },
  };
}
