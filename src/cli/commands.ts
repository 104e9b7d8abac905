// The commands (node:util parseArgs): serve, backend, check-config, check-contract, translate, nginx-front, impact,
// with --help and --version each. Exit codes: 0 ok, 1 a check failed, 2 bad arguments or a config/environment
// serve cannot start with.

import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfigFile } from '../config/load.js';
import { ContractError } from '../core/contract-model/load.js';
import { startReferenceBackendFromEnv } from '../reference-backend/index.js';
import { runCheckConfig } from './check-config.js';
import { NginxFrontError, nginxFront } from './nginx-front.js';
import { type Output, runCheckContract, runTranslate } from './contract-commands.js';
import { tuneHeap } from './heap.js';
import { runImpact } from './impact.js';
import { createLogger, logLevelProblem } from './logger.js';
import { DEFAULT_CONFIG, StartupError, serveProcess } from './serve.js';
import { versionNumberIn } from '../core/version/number.js';

const NAME = 'dl-version-gateway';
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const ENVIRONMENT = `environment (wins over the config file):
  GATEWAY_CONFIG       the config file when --config is not given (default config/gateway.yaml)
  PORT, HOST           listen.port, listen.host (the public listener)
  UPSTREAM_URL         upstream.url (the latest-only backend, or "embedded")
  UPSTREAM_TIMEOUT_MS  upstream.timeoutMs
  UPSTREAM_API_VERSION upstream.apiVersion (the API version the backend speaks; default the contract's latest, 1 for datalens-oss)
  UPSTREAM_KIND        upstream.kind: rpc (a backend serving /rpc/<method>; default) or datalens-oss (open-source DataLens's UI server)
  DATALENS_OSS_SERVICES  upstream.datalensOss.services: bi, meta-manager (comma-separated; default bi; none for neither)
  DATALENS_OSS_AUTH_COOKIE  upstream.datalensOss.authCookie: the cookie a Bearer token becomes (default auth)
  ADMIN_PORT, ADMIN_HOST  admin.port, admin.host (the admin listener: /metrics, POST /reload)
  ADMIN_TOKEN, ADMIN_TOKEN_FILE  the token POST /reload requires (needed when ADMIN_HOST is not loopback)
  REDIS_URL            cache.redis.url (replicas share v1 page tokens and legacy-key lookups; absent: each caches alone)
  TRUSTED_PROXIES      listen.trustedProxies: addresses/CIDR blocks of proxies whose X-Forwarded-* name the client (comma-separated; none for nobody)
  NOTICES_SECRET       the HMAC key signed sunset notices carry (else the file notices.secretFile names)
  LOG_LEVEL            fatal, error, warn, info (default), debug, trace or silent`;

const EXIT_CODES = 'exit status: 0 ok, 1 a check failed, 2 bad arguments or a config the gateway cannot start with';

const USAGE = `usage: ${NAME} <command> [options]

commands:
  serve [--config FILE]     start the gateway
  backend                   start the reference backend alone (BACKEND_HOST, BACKEND_PORT: 127.0.0.1:8081)
  check-config [FILE]       validate a config file as serve would, and print the version calendar
  check-contract            check the API contract against the versioning rules
  translate --from N --method M [--body JSON] [--config FILE] [--upstream URL]
                            print the latest-version body for an old body
  nginx-front [--config FILE] [--gateway URL] [--listen PORT]
                            print an nginx front: web traffic straight to the upstream, /rpc/ to the gateway
  impact [--admin URL] [--client C] [--api-version N] [--method M] [--json]
                            print a running gateway's per-client impact report

Every command takes --help and --version. ${EXIT_CODES}.

${ENVIRONMENT}
`;

interface Command {
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  readonly positionals: number;
  run(io: Output, values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<number>;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const configOf = (values: Record<string, unknown>) => (values.config as string | undefined) ?? (process.env.GATEWAY_CONFIG || DEFAULT_CONFIG);

/** A bad argument: exit 2 with one line and where to look. */
class UsageError extends Error {}

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: `usage: ${NAME} serve [--config FILE]

Starts the gateway: the public listener, the admin listener, and the embedded reference backend when
upstream.url is "embedded". Reloads the config on SIGHUP, on a change of the file and on POST /reload;
drains and exits 0 on SIGTERM/SIGINT, during start-up too (a SIGHUP then reloads once started). A config, environment variable or port it cannot start with is
reported in one line, exit status 2.

options:
  --config FILE   the config file (default: GATEWAY_CONFIG, else config/gateway.yaml)

${ENVIRONMENT}`,
    options: { config: { type: 'string' } },
    positionals: 0,
    async run(io, values) {
      const fail = (logger: ReturnType<typeof createLogger> | undefined, line: string) => {
        logger?.fatal(line);
        io.err(`${NAME} serve: ${line}`);
        return 2;
      };
      const level = process.env.LOG_LEVEL || 'info';
      const levelProblem = logLevelProblem(level);
      if (levelProblem) return fail(createLogger('info'), levelProblem);
      tuneHeap();
      // A log reader that went away must not crash the process through an unhandled EPIPE.
      process.stdout.on('error', () => {});
      process.stderr.on('error', () => {});
      const logger = createLogger(level);
      try {
        // Its signal handlers are in place before any port opens; a stop signal during start-up ends it with 0.
        return (await serveProcess({ configPath: configOf(values), logger })) === 'serving' ? -1 : 0;
      } catch (e) {
        if (e instanceof ConfigError) return fail(logger, e.line);
        if (e instanceof ContractError) return fail(logger, `the API contract does not load: ${e.problems.join('; ')}`);
        if (e instanceof StartupError) return fail(logger, e.message);
        throw e;
      }
    },
  },
  backend: {
    usage: `usage: ${NAME} backend

Starts the in-memory reference backend (latest-only, demo data) alone, for tests and demos.

environment:
  BACKEND_HOST, BACKEND_PORT   where it listens (default 127.0.0.1:8081)`,
    options: {},
    positionals: 0,
    async run(io) {
      try {
        const { url } = await startReferenceBackendFromEnv();
        io.out(`reference backend (latest-only, in memory, demo data) listening on ${url}`);
        return -1;
      } catch (e) {
        io.err(`${NAME} backend: ${(e as Error).message}`);
        return 2;
      }
    },
  },
  'check-config': {
    usage: `usage: ${NAME} check-config [FILE]

Runs the validation serve and reload run (schema, dates, the environment overrides, the admin token, the
calendar against the API contract) without starting, and prints each version's release, deprecation and
sunset dates and its status now; or every problem with its key, exit status 1.
FILE defaults to GATEWAY_CONFIG, else config/gateway.yaml. The environment variables serve reads apply.

exit status: 0 serve would start with this file, 1 it would not (an unreadable file too), 2 bad arguments.`,
    options: {},
    positionals: 1,
    async run(io, _values, positionals) {
      return runCheckConfig(io, positionals[0] ?? configOf({}), process.env);
    },
  },
  'check-contract': {
    usage: `usage: ${NAME} check-contract

Checks the shipped API contract against the versioning rules (an incompatible change needs a version bump
of exactly one, with its migrations); prints each problem, exit status 1.`,
    options: {},
    positionals: 0,
    async run(io) {
      return runCheckContract(io);
    },
  },
  translate: {
    usage: `usage: ${NAME} translate --from N --method M [--body JSON] [--config FILE] [--upstream URL]

Prints what a request body of API version N becomes at the latest version, or the error the gateway would
answer (exit status 1). The body is read from stdin when --body is absent. Legacy-key prefixes come from
the config file; translations that need the backend (legacy-key lookups, v1 page walks) need --upstream.

options:
  --from N          the client's API version
  --method M        the RPC method
  --body JSON       the request body (default: stdin)
  --config FILE     the config file (default: GATEWAY_CONFIG, else config/gateway.yaml)
  --upstream URL    a latest-only backend for lookups`,
    options: {
      from: { type: 'string' },
      method: { type: 'string' },
      body: { type: 'string' },
      config: { type: 'string' },
      upstream: { type: 'string' },
    },
    positionals: 0,
    async run(io, values) {
      const from = String(values.from ?? '');
      if (!values.from) throw new UsageError('--from N is required (the API version of the body)');
      if (versionNumberIn(from) === undefined) throw new UsageError(`--from: ${JSON.stringify(from)} is not an API version (a positive integer)`);
      if (!values.method) throw new UsageError('--method M is required (the RPC method)');
      const upstream = values.upstream as string | undefined;
      if (upstream !== undefined && !URL.canParse(upstream)) throw new UsageError(`--upstream: ${JSON.stringify(upstream)} is not a URL`);
      try {
        return await runTranslate(io, {
          from: Number(from),
          method: values.method as string,
          body: (values.body as string | undefined) ?? (await readStdin()),
          configPath: configOf(values),
          ...(upstream && { upstream }),
        });
      } catch (e) {
        if (e instanceof ConfigError) {
          io.err(`${NAME} translate: ${e.line}`);
          return 2;
        }
        throw e;
      }
    },
  },
  'nginx-front': {
    usage: `usage: ${NAME} nginx-front [--config FILE] [--gateway URL] [--listen PORT]

Prints an nginx configuration for the http {} context, made from the config file: nginx sends /rpc/ (every
spelling), the gateway's own routes, passthrough.exclude's prefixes and every request-target or Connection
header it cannot prove harmless to the gateway, and plain web traffic straight to upstream.url with the
pass-through's header rules (gateway-owned and hop-by-hop headers cleared, "_" names dropped, X-Forwarded-*
and X-Request-Id set). Needs a real upstream and pass-through on.

options:
  --config FILE    the config file (default: GATEWAY_CONFIG, else config/gateway.yaml)
  --gateway URL    where nginx reaches the gateway's public listener (default http://127.0.0.1:<listen.port>)
  --listen PORT    nginx's listen parameter, a port or address:port (default 80)`,
    options: { config: { type: 'string' }, gateway: { type: 'string' }, listen: { type: 'string' } },
    positionals: 0,
    async run(io, values) {
      const gateway = values.gateway as string | undefined;
      if (gateway !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(gateway)) throw new UsageError(`--gateway: ${JSON.stringify(gateway)} is not an http(s) origin such as http://gateway:8080`);
      const listen = (values.listen as string | undefined) ?? '80';
      if (!/^(?:[A-Za-z0-9.-]+:|\[[0-9A-Fa-f:.]+\]:)?[0-9]{1,5}$/.test(listen)) throw new UsageError(`--listen: ${JSON.stringify(listen)} is not a port or address:port`);
      try {
        const { config } = loadConfigFile(configOf(values));
        io.out(nginxFront(config, { gateway: new URL(gateway ?? `http://127.0.0.1:${config.listen.port}`), listen }).trimEnd());
        return 0;
      } catch (e) {
        if (e instanceof ConfigError) {
          io.err(`${NAME} nginx-front: ${e.line}`);
          return 2;
        }
        if (e instanceof NginxFrontError) {
          io.err(`${NAME} nginx-front: ${e.message}`);
          return 1;
        }
        throw e;
      }
    },
  },
  impact: {
    usage: `usage: ${NAME} impact [--admin URL] [--client C] [--api-version N] [--method M] [--json]

Prints a running gateway's per-client impact report (GET /impact on its admin listener): for each client and
version it calls, the sunset date and what it uses that changes or disappears at each later version.
Exit status 1 when the admin listener cannot give it.

options:
  --admin URL     the admin listener (default: http://ADMIN_HOST:ADMIN_PORT, else http://127.0.0.1:9090)
  --client C      only this client (as the report names it: org:<id>, cred:<hash> or anonymous)
  --api-version N only calls at this API version
  --method M      only this RPC method
  --json          print the report as JSON instead of a table`,
    options: { admin: { type: 'string' }, client: { type: 'string' }, 'api-version': { type: 'string' }, method: { type: 'string' }, json: { type: 'boolean' } },
    positionals: 0,
    async run(io, values) {
      const admin = (values.admin as string | undefined) ?? `http://${process.env.ADMIN_HOST || '127.0.0.1'}:${process.env.ADMIN_PORT || '9090'}`;
      if (!URL.canParse(admin)) throw new UsageError(`--admin: ${JSON.stringify(admin)} is not a URL`);
      const version = values['api-version'] as string | undefined;
      if (version !== undefined && versionNumberIn(version) === undefined) throw new UsageError(`--api-version: ${JSON.stringify(version)} is not an API version (a positive integer)`);
      return runImpact(
        io,
        admin,
        {
          ...(values.client !== undefined && { client: values.client as string }),
          ...(version !== undefined && { version: Number(version) }),
          ...(values.method !== undefined && { method: values.method as string }),
        },
        values.json === true,
      );
    },
  },
};

/** Runs one command line; resolves to the exit status, or -1 for a command that keeps running (serve, backend). */
export async function runCli(argv: readonly string[], io: Output): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE.trimEnd());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(`${NAME} ${VERSION}`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.err(`${NAME}: unknown command ${JSON.stringify(name.slice(0, 40))}\n\n${USAGE.trimEnd()}`);
    return 2;
  }
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...command.options, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.out(command.usage);
      return 0;
    }
    if (values.version) {
      io.out(`${NAME} ${VERSION}`);
      return 0;
    }
    if (positionals.length > command.positionals) {
      throw new UsageError(`unexpected argument ${JSON.stringify(positionals[command.positionals]?.slice(0, 80))}`);
    }
    return await command.run(io, values, positionals);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (e instanceof UsageError || code?.startsWith('ERR_PARSE_ARGS_')) {
      io.err(`${NAME} ${name}: ${(e as Error).message}\nRun '${NAME} ${name} --help' for usage.`);
      return 2;
    }
    throw e;
  }
}

/** The command names, for the README's table to be checked against. */
export const COMMAND_NAMES = Object.keys(COMMANDS);
