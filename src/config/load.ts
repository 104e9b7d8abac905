// Reads the YAML config file, applies environment overrides, validates, and freezes the result.

import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { type ZodError } from 'zod';
import { buildCalendar, type Calendar } from '../core/lifecycle/calendar.js';
import { configSchema, type GatewayConfig } from './schema.js';

export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`invalid config ${source}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export interface LoadedConfig {
  readonly config: GatewayConfig;
  readonly calendar: Calendar;
  readonly source: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const formatIssues = (error: ZodError): string[] =>
  error.issues.map((issue) => {
    const key = issue.path.length ? issue.path.join('.') : '(root)';
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.length ? `${key}.` : '';
      return `${issue.keys.map((k) => prefix + k).join(', ')}: unknown key`;
    }
    return `${key}: ${issue.message}`;
  });

/** Environment overrides for the usual deployment knobs; they win over the file. */
function applyEnv(raw: Record<string, unknown>, env: Env, source: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  const section = (name: string): Record<string, unknown> => {
    const current = out[name];
    const copy = current && typeof current === 'object' && !Array.isArray(current) ? { ...current } : {};
    out[name] = copy;
    return copy as Record<string, unknown>;
  };
  if (env.PORT !== undefined && env.PORT !== '') {
    const port = Number(env.PORT);
    if (!Number.isInteger(port)) throw new ConfigError(source, [`PORT: not an integer: ${env.PORT}`]);
    section('listen').port = port;
  }
  if (env.HOST) section('listen').host = env.HOST;
  if (env.UPSTREAM_URL) section('upstream').url = env.UPSTREAM_URL;
  if (env.UPSTREAM_TIMEOUT_MS) section('upstream').timeoutMs = Number(env.UPSTREAM_TIMEOUT_MS);
  if (env.ADMIN_PORT) section('admin').port = Number(env.ADMIN_PORT);
  if (env.ADMIN_HOST) section('admin').host = env.ADMIN_HOST;
  return out;
}

/** Validates an already-parsed document (YAML/JSON object). */
export function parseConfig(document: unknown, env: Env = {}, source = '(inline)'): LoadedConfig {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new ConfigError(source, ['(root): expected a mapping of settings']);
  }
  const result = configSchema.safeParse(applyEnv(document as Record<string, unknown>, env, source));
  if (!result.success) throw new ConfigError(source, formatIssues(result.error));
  const config = result.data;
  if (config.limits.headersTimeoutMs > config.limits.requestTimeoutMs) {
    throw new ConfigError(source, ['limits.headersTimeoutMs: must not exceed limits.requestTimeoutMs']);
  }
  const seen = new Set<number>();
  for (const [i, v] of config.lifecycle.versions.entries()) {
    if (seen.has(v.version)) throw new ConfigError(source, [`lifecycle.versions.${i}.version: version ${v.version} is listed twice`]);
    seen.add(v.version);
  }
  let calendar: Calendar;
  try {
    calendar = buildCalendar(
      config.lifecycle.versions.map((v) => ({
        version: v.version,
        releasedAt: v.released,
        ...(v.sunset && { sunsetAt: v.sunset }),
        ...(v.migrationGuide && { migrationGuide: v.migrationGuide }),
        brownouts: v.brownouts,
        brownoutShare: v.brownoutShare,
      })),
      config.lifecycle.supportWindowDays,
    );
  } catch (e) {
    throw new ConfigError(source, [`lifecycle.versions: ${(e as Error).message}`]);
  }
  return Object.freeze({ config: deepFreeze(config), calendar, source });
}

export function loadConfigFile(path: string, env: Env = process.env): LoadedConfig {
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
  return parseConfig(document, env, path);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
