#!/usr/bin/env node
// The command line: serve, backend, check-config (more commands join as they exist).

import { ConfigError, loadConfigFile } from '../config/load.js';
import { ContractError } from '../core/contract/load.js';
import { startReferenceBackendFromEnv } from '../reference-backend/index.js';
import { calendarLines } from './calendar-table.js';
import { runCheckContract, runTranslate } from './contract-commands.js';
import { tuneHeap } from './heap.js';
import { createLogger } from './logger.js';
import { DEFAULT_CONFIG, serve } from './serve.js';

const USAGE = `usage: dl-version-gateway <command>

commands:
  serve [--config FILE]     start the gateway (PORT, UPSTREAM_URL, GATEWAY_CONFIG override the file)
  backend                   start the reference backend alone (BACKEND_PORT, default 8081)
  check-config [FILE]       validate a config file and print the version calendar
  check-contract            check the API contract against the versioning rules
  translate --from N --method M [--body JSON] [--config FILE] [--upstream URL]
                            print the latest-version body for an old body (read from stdin without --body)
`;

const io = { out: (l: string) => console.log(l), err: (l: string) => console.error(l) };

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const configPath = option(args, '--config') ?? process.env.GATEWAY_CONFIG ?? DEFAULT_CONFIG;
  switch (command) {
    case 'serve': {
      tuneHeap();
      const logger = createLogger();
      try {
        const serving = await serve({ configPath, logger });
        process.on('SIGHUP', () => {
          logger.info({ signal: 'SIGHUP' }, 'reloading the config');
          serving.reload();
        });
        const stop = (signal: string) => {
          const drainMs = serving.gateway.runtime().config.shutdown.drainMs;
          logger.info({ signal, drainMs, inFlight: serving.gateway.runtime().inFlight() }, 'draining, then stopping');
          serving.stop().then(
            () => {
              logger.info('stopped');
              process.exit(0);
            },
            () => process.exit(1),
          );
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
        return -1; // keep running
      } catch (e) {
        if (e instanceof ConfigError || e instanceof ContractError) {
          logger.fatal(e.message);
          return 2;
        }
        throw e;
      }
    }
    case 'backend': {
      const { url } = await startReferenceBackendFromEnv();
      console.log(`reference backend (latest-only, in memory, demo data) listening on ${url}`);
      return -1;
    }
    case 'check-config': {
      const file = args.find((a) => !a.startsWith('--')) ?? configPath;
      try {
        const { calendar } = loadConfigFile(file, {});
        console.log(`${file}: valid\n`);
        for (const line of calendarLines(calendar, new Date())) console.log(line);
        return 0;
      } catch (e) {
        if (e instanceof ConfigError) {
          console.error(e.message);
          return 1;
        }
        throw e;
      }
    }
    case 'check-contract':
      return runCheckContract(io);
    case 'translate': {
      const from = Number(option(args, '--from'));
      const method = option(args, '--method');
      if (!Number.isInteger(from) || !method) {
        process.stderr.write(USAGE);
        return 64;
      }
      const configFile = option(args, '--config');
      const upstream = option(args, '--upstream');
      return runTranslate(io, {
        from,
        method,
        body: option(args, '--body') ?? (await readStdin()),
        ...(configFile && { configPath: configFile }),
        ...(upstream && { upstream }),
      });
    }
    default:
      process.stderr.write(USAGE);
      return command === undefined || command === '--help' || command === 'help' ? 0 : 64;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
