// `check-contract` and `translate`: the contract's rules, and what an old request becomes at the latest version.

import { Pool } from 'undici';
import { createBackendClient } from '../adapters/backend-client.js';
import { createLegacyKeyResolver } from '../adapters/legacy-key-resolver.js';
import { createPageTokenCache } from '../adapters/page-token-cache.js';
import { loadConfigFile } from '../config/load.js';
import { shippedContract } from '../contract/index.js';
import { checkContract } from '../core/contract-model/check.js';
import { loadContract } from '../core/contract-model/load.js';
import type { ContractServices } from '../core/contract-model/services.js';
import type { Contract, MigrationContext } from '../core/contract-model/types.js';
import { BackendCallError, GatewayError, isGatewayError } from '../core/errors.js';
import { translateRequest, validateRequest } from '../core/translate/engine.js';
import { buildPlans, requirePlan } from '../core/translate/plan.js';
import { problemBody } from '../edge/http/problem.js';
import { setBackendVersion } from '../edge/http/version-headers.js';

/** Services for migrations run outside a running gateway (small, short-lived caches). */
const offlineServices = (prefixes: Record<string, string> = {}): ContractServices => ({
  legacyKeys: createLegacyKeyResolver({ prefixes, cacheSize: 100, cacheTtlMs: 60_000, notFoundTtlMs: 60_000 }),
  pageTokens: createPageTokenCache({ size: 100, ttlMs: 60_000 }),
});

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export function runCheckContract(io: Output, contract: Contract = shippedContract): number {
  const problems = checkContract(contract);
  if (problems.length === 0) {
    const loaded = loadContract(contract);
    const changes = contract.versions.reduce((n, v) => n + v.changes.length + (v.additions?.length ?? 0), 0);
    io.out(`contract ok: versions ${loaded.versions.join(', ')}, ${loaded.availableIn.size} methods, ${changes} changes`);
    return 0;
  }
  for (const p of problems) io.err(`version ${p.version}: [${p.rule}] ${p.message}`);
  io.err(`${problems.length} problem(s) in the contract`);
  return 1;
}

export interface TranslateArgs {
  readonly from: number;
  readonly method: string;
  readonly body: string;
  /** The config file whose legacyKeys.prefixes apply (its environment overrides do not). */
  readonly configPath?: string;
  /** A backend for lookups (legacy keys, page walks); without it such a translation reports what it needed. */
  readonly upstream?: string;
}

export async function runTranslate(io: Output, args: TranslateArgs): Promise<number> {
  const prefixes = args.configPath ? { ...loadConfigFile(args.configPath, {}).config.legacyKeys.prefixes } : {};
  const contract = loadContract(shippedContract);
  if (!contract.byVersion.has(args.from)) {
    io.err(`API version ${args.from} does not exist (versions ${contract.versions.join(', ')})`);
    return 2;
  }
  const pool = args.upstream ? new Pool(new URL(args.upstream).origin) : undefined;
  const backend =
    args.upstream && pool
      ? createBackendClient({ baseUrl: args.upstream, dispatcher: pool, timeoutMs: 10_000 })
      : undefined;
  const ctx: MigrationContext = {
    clientVersion: args.from,
    principal: 'cli',
    state: new Map(),
    services: offlineServices(prefixes),
    callBackend: (method, body) => {
      if (!backend) {
        throw new GatewayError('UPSTREAM_UNAVAILABLE', `this translation needs the backend (${method}); pass --upstream URL`, {
          method,
          body,
        });
      }
      const headers: Record<string, string> = {};
      setBackendVersion(headers, contract.head, args.from);
      return backend.call(method, body, headers);
    },
  };
  try {
    const plan = requirePlan(buildPlans(contract), contract, args.from, args.method);
    let parsed: unknown;
    try {
      parsed = JSON.parse(args.body);
    } catch (e) {
      throw new GatewayError('INVALID_JSON', 'the body is not valid JSON', { reason: (e as Error).message });
    }
    const latest = await translateRequest(plan, validateRequest(plan, parsed), ctx);
    io.out(JSON.stringify({ method: plan.upstreamMethod, version: contract.head, body: latest }, null, 2));
    return 0;
  } catch (e) {
    if (isGatewayError(e)) io.err(JSON.stringify(problemBody(e, null), null, 2));
    else if (e instanceof BackendCallError) io.err(JSON.stringify({ backendStatus: e.status, body: e.body }, null, 2));
    else throw e;
    return 1;
  } finally {
    await pool?.destroy();
  }
}
