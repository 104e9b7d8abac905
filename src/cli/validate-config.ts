// The one validation of a config file that check-config, serve and reload all run: the schema, the dates,
// the environment overrides, the admin token, and the calendar against the shipped contract's versions.

import { createLegacyKeyResolver } from '../adapters/legacy-key-resolver.js';
import { createPageTokenCache } from '../adapters/page-token-cache.js';
import { type LoadedConfig, loadConfigFile } from '../config/load.js';
import type { ContractDeps } from '../contract/deps.js';
import { createShippedContract } from '../contract/index.js';
import { loadContract } from '../core/contract/load.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Caches for a contract used outside a running gateway (no backend, small and short-lived). */
export const offlineDeps = (prefixes: Record<string, string> = {}): ContractDeps => ({
  legacyKeys: createLegacyKeyResolver({ prefixes, cacheSize: 100, cacheTtlMs: 60_000 }),
  pageTokens: createPageTokenCache({ size: 100, ttlMs: 60_000 }),
});

let versions: readonly number[] | undefined;

/** The shipped contract's versions (the contract is code: computed once per process). */
export function shippedVersions(): readonly number[] {
  versions ??= loadContract(createShippedContract(offlineDeps())).versions;
  return versions;
}

/** Reads and validates the config file as serve uses it; throws ConfigError with every problem's key. */
export function validateConfigFile(path: string, env: Env): LoadedConfig {
  return loadConfigFile(path, env, { contractVersions: shippedVersions() });
}
