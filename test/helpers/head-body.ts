// What a body and a read look like at the head, derived from the contract: a version-N body translated up as the
// gateway would, and the API version stamp a read carries where the contract locates the method's object.

import { shippedContract } from '../../src/contract/index.js';
import { loadContract, methodAt } from '../../src/core/contract-model/load.js';
import type { Json, MigrationContext } from '../../src/core/contract-model/types.js';
import { translateRequest, validateRequest } from '../../src/core/translate/engine.js';
import { getAt } from '../../src/core/translate/paths.js';
import { buildPlans, planKey } from '../../src/core/translate/plan.js';
import { memoryServices } from './services.js';

const CONTRACT = loadContract(shippedContract);
const PLANS = buildPlans(CONTRACT);

/** `body`, written for version `from`, translated up to the head by the contract (no backend call allowed). */
export async function upToHead(method: string, from: number, body: unknown): Promise<unknown> {
  const plan = PLANS.get(planKey(from, method));
  if (!plan) throw new Error(`${method} has no plan at version ${from}`);
  const ctx: MigrationContext = {
    clientVersion: from,
    principal: 'test',
    state: new Map(),
    services: memoryServices(),
    callBackend: async (called) => {
      throw new Error(`${method}: translating to ${plan.head} calls the backend (${called}); write the body at version ${plan.head}`);
    },
  };
  return translateRequest(plan, validateRequest(plan, body ?? {}) as Json, ctx);
}

/** The API version `read` (an answer of `method` at `version`) says its object was saved under. */
export function stampAt(version: number, method: string, read: unknown): unknown {
  const location = methodAt(CONTRACT, version, method)?.objects?.[0];
  if (!location) throw new Error(`${method} locates no object at version ${version}`);
  const object = location.path === '' ? read : getAt(read as Record<string, unknown>, location.path).value;
  return (object as Record<string, unknown> | undefined)?.[location.versionField ?? 'version'];
}
