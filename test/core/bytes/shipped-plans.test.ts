// Every plan of the shipped contract whose answer migration is data: on answers generated from the backend's answer
// schema, the rewritten bytes parse to what translateResponse gives (the guard's refusals aside, which run before it).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shippedContract } from '../../../src/contract/index.js';
import '../../../src/contract/v3/dashboards-edits.js';
import { loadContract, methodAt } from '../../../src/core/contract-model/load.js';
import type { MigrationContext } from '../../../src/core/contract-model/types.js';
import { programFor, rewrite } from '../../../src/core/translate/bytes/index.js';
import { translateResponse } from '../../../src/core/translate/engine.js';
import { collect, isJsonObject } from '../../../src/core/translate/paths.js';
import { buildPlans } from '../../../src/core/translate/plan.js';
import { arbitraryOf } from '../../helpers/json-schema-arbitrary.js';
import { NO_SERVICES } from '../../helpers/no-services.js';

const loaded = loadContract(shippedContract);
const ctx = (): MigrationContext => ({ clientVersion: 1, callBackend: async () => ({}), principal: 't', state: new Map(), services: NO_SERVICES });
const plans = [...buildPlans(loaded).values()].filter((p) => !p.passThrough && !p.unservable && p.down.length > 0);

describe('the shipped plans on the bytes', () => {
  const made = plans.map((p) => ({ plan: p, made: programFor(loaded, p.version, p.method) }));
  const data = made.filter((m) => m.made.kind === 'program');

  it('turn most answer migrations into data, and say why not for the others', () => {
    for (const m of made) if (m.made.kind === 'buffered') expect(m.made.reason).toMatch(/code|above|removed/);
    expect(data.length).toBeGreaterThan(made.length / 2);
  });

  it('rewrite generated head answers as the buffered path translates them', async () => {
    for (const { plan, made: m } of data) {
      if (m.kind !== 'program') continue;
      const head = methodAt(loaded, plan.head, plan.upstreamMethod);
      if (!head) continue;
      let schema: unknown;
      try {
        schema = z.toJSONSchema(head.response, { unrepresentable: 'any' });
      } catch {
        continue;
      }
      await fc.assert(
        fc.asyncProperty(arbitraryOf(schema as Record<string, unknown>, 0, 7), async (answer) => {
          // Stamped at the client's version, so the guard serves the objects and the migration runs.
          for (const loc of plan.guarded) for (const o of collect(answer, loc.path)) if (isJsonObject(o)) o[loc.versionField ?? 'version'] = plan.version;
          const text = JSON.stringify(answer);
          let expected: unknown;
          try {
            expected = await translateResponse(plan, JSON.parse(text), ctx());
          } catch {
            return; // refused by the guard (409, 502) or a migration: the rewrite is not asked
          }
          const r = rewrite(Buffer.from(text), m.program, m.guarded);
          if (r.kind === 'fallback') return;
          expect(JSON.parse(Buffer.concat(r.chunks).toString('utf8')), `${plan.method} at ${plan.version}`).toEqual(JSON.parse(JSON.stringify(expected)));
        }),
        { numRuns: 25 },
      );
    }
  }, 120_000);
});
