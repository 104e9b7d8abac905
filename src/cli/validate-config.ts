// The one validation of a config file that check-config, serve and reload all run: the schema, the dates,
// the environment overrides, the admin token, and the calendar against the shipped contract's versions.

import { type LoadedConfig, loadConfigFile } from '../config/load.js';
import { shippedContract } from '../contract/index.js';
import { loadContract } from '../core/contract-model/load.js';

type Env = Readonly<Record<string, string | undefined>>;

let versions: readonly number[] | undefined;

/** The shipped contract's versions (the contract is code: computed once per process). */
export function shippedVersions(): readonly number[] {
  versions ??= loadContract(shippedContract).versions;
  return versions;
}

/** Reads and validates the config file as serve uses it; throws ConfigError with every problem's key. */
export function validateConfigFile(path: string, env: Env): LoadedConfig {
  return loadConfigFile(path, env, { contractVersions: shippedVersions() });
}
