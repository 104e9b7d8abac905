// Reads the YAML config file, applies environment overrides, validates, and freezes the result.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { ZodError } from 'zod';
import { buildCalendar, type Calendar } from '../core/lifecycle/calendar.js';
import { configSchema, type GatewayConfig } from './schema.js';

/** The config file when neither --config nor GATEWAY_CONFIG names one. */
export const DEFAULT_CONFIG = fileURLToPath(new URL('../../config/gateway.yaml', import.meta.url));

export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`invalid config ${source}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }

  /** The problems on one line, for a start-up failure. */
  get line(): string {
    return `invalid config ${this.source}: ${this.problems.join('; ')}`;
  }
}

export interface LoadedConfig {
  readonly config: GatewayConfig;
  readonly calendar: Calendar;
  readonly source: string;
  /** The token POST /reload requires, read from ADMIN_TOKEN, ADMIN_TOKEN_FILE or admin.tokenFile; kept out of `config`. */
  readonly adminToken?: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/** What the config is checked against besides its own schema: the API contract's versions. */
export interface ConfigCheck {
  readonly contractVersions?: readonly number[];
}

/** Environment variables that override a config key, by key: they are named, not the key, when they are wrong. */
export const ENV_OVERRIDES = {
  PORT: 'listen.port',
  HOST: 'listen.host',
  UPSTREAM_URL: 'upstream.url',
  UPSTREAM_TIMEOUT_MS: 'upstream.timeoutMs',
  UPSTREAM_API_VERSION: 'upstream.apiVersion',
  UPSTREAM_KIND: 'upstream.kind',
  DATALENS_OSS_AUTH_COOKIE: 'upstream.datalensOss.authCookie',
  DATALENS_OSS_SERVICES: 'upstream.datalensOss.services',
  ADMIN_HOST: 'admin.host',
  ADMIN_PORT: 'admin.port',
  REDIS_URL: 'cache.redis.url',
  TRUSTED_PROXIES: 'listen.trustedProxies',
} as const;

const INTEGER_ENV = new Set(['PORT', 'UPSTREAM_TIMEOUT_MS', 'UPSTREAM_API_VERSION', 'ADMIN_PORT']);
/** Variables holding a list: its items separated by commas or spaces; `none` is the empty list (empty is unset, as for every variable). */
const LIST_ENV = new Set(['TRUSTED_PROXIES', 'DATALENS_OSS_SERVICES']);

const formatIssues = (error: ZodError, fromEnv: ReadonlyMap<string, string>): string[] =>
  error.issues.map((issue) => {
    const key = issue.path.length ? issue.path.join('.') : '(root)';
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.length ? `${key}.` : '';
      return `${issue.keys.map((k) => prefix + k).join(', ')}: unknown key`;
    }
    // A list's item (listen.trustedProxies.0) is named as the variable that set the list.
    const variable = fromEnv.get(key) ?? fromEnv.get(issue.path.slice(0, -1).join('.'));
    return variable ? `${variable} (environment variable, overrides ${key}): ${issue.message}` : `${key}: ${issue.message}`;
  });

/** Environment overrides for the usual deployment knobs; they win over the file. Returns the keys they set. */
function applyEnv(raw: Record<string, unknown>, env: Env): { document: Record<string, unknown>; fromEnv: Map<string, string>; problems: string[] } {
  const out: Record<string, unknown> = { ...raw };
  const fromEnv = new Map<string, string>();
  const problems: string[] = [];
  for (const [variable, key] of Object.entries(ENV_OVERRIDES)) {
    const text = env[variable];
    if (text === undefined || text === '') continue;
    let value: unknown = text;
    if (INTEGER_ENV.has(variable)) {
      if (!/^\d{1,15}$/.test(text.trim())) {
        problems.push(`${variable} (environment variable, overrides ${key}): not an integer: ${JSON.stringify(text.slice(0, 40))}`);
        continue;
      }
      value = Number(text);
    }
    if (LIST_ENV.has(variable)) value = text.trim() === 'none' ? [] : text.split(/[\s,]+/).filter(Boolean);
    // Copy each object on the way down to the key, so that the file's document is left as it was.
    const parts = key.split('.');
    let parent = out;
    for (const part of parts.slice(0, -1)) {
      const current = parent[part];
      const copy: Record<string, unknown> = current && typeof current === 'object' && !Array.isArray(current) ? { ...(current as object) } : {};
      parent[part] = copy;
      parent = copy;
    }
    parent[parts.at(-1) as string] = value;
    fromEnv.set(key, variable);
  }
  return { document: out, fromEnv, problems };
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\]|localhost)$/i;

/** What makes a token unusable as `Authorization: Bearer <token>` (blank, or whitespace inside); undefined if usable. */
function tokenProblem(token: string): string | undefined {
  if (token === '') return 'is blank (empty or only whitespace)';
  if (/\s/.test(token)) return 'contains whitespace, which a Bearer credential cannot carry';
  return undefined;
}

/** The admin token: ADMIN_TOKEN, else the file named by ADMIN_TOKEN_FILE or admin.tokenFile; a blank one is refused. */
function adminTokenOf(config: GatewayConfig, env: Env): { token?: string; problem?: string } {
  if (env.ADMIN_TOKEN) {
    const token = env.ADMIN_TOKEN.trim();
    const problem = tokenProblem(token);
    return problem ? { problem: `ADMIN_TOKEN (environment variable): the admin token ${problem}` } : { token };
  }
  const file = env.ADMIN_TOKEN_FILE || config.admin.tokenFile;
  const culprit = env.ADMIN_TOKEN_FILE ? 'ADMIN_TOKEN_FILE (environment variable)' : 'admin.tokenFile';
  if (!file) return {};
  let token: string;
  try {
    token = readFileSync(file, 'utf8').trim();
  } catch (e) {
    return { problem: `${culprit}: cannot read the token file: ${(e as Error).message}` };
  }
  const problem = tokenProblem(token);
  return problem ? { problem: `${culprit}: the token in ${file} ${problem}` } : { token };
}

/** The config's calendar must cover exactly the contract's versions: a version needs both a schema and dates. */
export function contractProblems(calendar: Calendar, contractVersions: readonly number[], upstreamVersion?: number): string[] {
  const configured = new Set(calendar.entries.map((e) => e.version));
  const problems: string[] = [];
  if (upstreamVersion !== undefined && !contractVersions.includes(upstreamVersion)) {
    problems.push(`upstream.apiVersion: version ${upstreamVersion} is not in the API contract (versions ${contractVersions.join(', ')})`);
  }
  for (const v of configured) {
    if (!contractVersions.includes(v)) {
      problems.push(`lifecycle.versions: version ${v} is not in the API contract (versions ${contractVersions.join(', ')})`);
    }
  }
  for (const v of contractVersions) {
    if (!configured.has(v)) problems.push(`lifecycle.versions: version ${v} of the API contract has no release date`);
  }
  return problems;
}

/** The calendar's own checks: versions listed once, dates in order, and (with `contractVersions`) the contract's versions. */
function calendarProblems(lifecycle: GatewayConfig['lifecycle'], contractVersions: readonly number[] | undefined, upstreamVersion?: number): { calendar?: Calendar; problems: string[] } {
  const problems: string[] = [];
  const seen = new Set<number>();
  for (const [i, v] of lifecycle.versions.entries()) {
    if (seen.has(v.version)) problems.push(`lifecycle.versions.${i}.version: version ${v.version} is listed twice`);
    seen.add(v.version);
  }
  if (problems.length) return { problems };
  let calendar: Calendar;
  try {
    calendar = buildCalendar(
      lifecycle.versions.map((v) => ({
        version: v.version,
        releasedAt: v.released,
        ...(v.sunset && { sunsetAt: v.sunset }),
        ...(v.migrationGuide && { migrationGuide: v.migrationGuide }),
        brownouts: v.brownouts,
        brownoutShare: v.brownoutShare,
        preview: v.preview,
      })),
      lifecycle.supportWindowDays,
    );
  } catch (e) {
    return { problems: [`lifecycle.versions: ${(e as Error).message}`] };
  }
  return { calendar, problems: contractVersions ? contractProblems(calendar, contractVersions, upstreamVersion) : [] };
}

/**
 * Validates an already-parsed document (YAML/JSON object); with `check.contractVersions`, against the contract too.
 * Every mistake is named in one go: the calendar is checked even when other keys are wrong.
 */
export function parseConfig(document: unknown, env: Env = {}, source = '(inline)', check: ConfigCheck = {}): LoadedConfig {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new ConfigError(source, ['(root): expected a mapping of settings']);
  }
  const applied = applyEnv(document as Record<string, unknown>, env);
  const problems = [...applied.problems];
  const result = configSchema.safeParse(applied.document);
  if (!result.success) problems.push(...formatIssues(result.error, applied.fromEnv));
  const lifecycle = result.success ? { success: true as const, data: result.data.lifecycle } : configSchema.shape.lifecycle.safeParse(applied.document.lifecycle);
  const { calendar, problems: calendarIssues } = lifecycle.success ? calendarProblems(lifecycle.data, check.contractVersions, result.success ? result.data.upstream.apiVersion : undefined) : { problems: [] };
  problems.push(...calendarIssues);
  if (!result.success || !calendar) throw new ConfigError(source, problems);
  const config = result.data;
  if (config.limits.headersTimeoutMs > config.limits.requestTimeoutMs) {
    problems.push('limits.headersTimeoutMs: must not exceed limits.requestTimeoutMs');
  }
  const { token: adminToken, problem: tokenProblem } = adminTokenOf(config, env);
  if (tokenProblem) problems.push(tokenProblem);
  else if (config.admin.enabled && !LOOPBACK.test(config.admin.host) && !adminToken) {
    const culprit = applied.fromEnv.get('admin.host') ?? 'admin.host';
    problems.push(
      `${culprit}: ${config.admin.host} is beyond loopback, so POST /reload needs a token: set ADMIN_TOKEN_FILE (or ADMIN_TOKEN, or admin.tokenFile)`,
    );
  }
  if (problems.length) throw new ConfigError(source, problems);
  return Object.freeze({ config: deepFreeze(config), calendar, source, ...(adminToken && { adminToken }) });
}

export function loadConfigFile(path: string, env: Env = process.env, check: ConfigCheck = {}): LoadedConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(path, [`cannot read the file: ${(e as Error).message}`]);
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (e) {
    throw new ConfigError(path, [`not valid YAML: ${(e as Error).message.split('\n')[0]}`]);
  }
  return parseConfig(document, env, path, check);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
