// A body at a version newer than the fixtures are written for: the newest fixture version's body, translated up to
// the head by the contract itself (as the gateway would), so that a new version replays before its fixtures exist.

import type { Json, MigrationContext } from '../../src/core/contract/types.js';
import { translateRequest, validateRequest } from '../../src/core/translate/engine.js';
import { buildPlans, planKey } from '../../src/core/translate/plan.js';
import { memoryServices } from '../helpers/services.js';
import { CONTRACT } from './contract.js';
import { FIXTURE_VERSIONS } from './fixture.js';

const PLANS = buildPlans(CONTRACT);

/** The newest version the fixtures are written for. */
export const NEWEST_FIXTURE_VERSION: number = FIXTURE_VERSIONS.at(-1)!;

/** True when `version` is newer than every version the fixtures are written for. */
export const beyondFixtures = (version: number): boolean => version > NEWEST_FIXTURE_VERSION;

/** The head-version body of `body`, which the fixture wrote for `from`: translated up through every version since. */
export async function upToHead(method: string, from: number, body: unknown): Promise<unknown> {
  const plan = PLANS.get(planKey(from, method));
  if (!plan) throw new Error(`${method} has no plan at version ${from}`);
  const ctx: MigrationContext = {
    clientVersion: from,
    principal: 'replay',
    state: new Map(),
    services: memoryServices(),
    callBackend: async (called) => {
      throw new Error(`${method}: translating to ${plan.head} calls the backend (${called}); give the fixture a body for version ${plan.head}`);
    },
  };
  return translateRequest(plan, validateRequest(plan, body ?? {}) as Json, ctx);
}
