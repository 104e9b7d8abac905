// Translation never drops what a client sent: for every v1 method whose request is migrated up, any field the
// client sends that no change of the contract claims arrives at the backend unchanged (unknown fields included,
// where the schema keeps them). The migrations' backend calls (key lookups, page walks) go to the reference backend.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shippedContract as contract } from '../../src/contract/index.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { Change, Json, MigrationContext, Target } from '../../src/core/contract-model/types.js';
import { BackendCallError, GatewayError } from '../../src/core/errors.js';
import { translateRequest, validateRequest } from '../../src/core/translate/engine.js';
import { buildPlans, requirePlan } from '../../src/core/translate/plan.js';
import { DEMO_ENTRIES, DEMO_WORKBOOKS, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { HEAD } from '../helpers/calendar.js';
import { objectOf } from '../helpers/json-schema-arbitrary.js';
import { memoryServices } from '../helpers/services.js';

const services = memoryServices({ 'reports/marketing/': 'wb_demo_marketing' }, 10_000);
const loaded = loadContract(contract);
const plans = buildPlans(loaded);
const v1 = contract.versions[0]!;

/** The top-level request fields of `method` that some change of the contract rewrites (its migration owns them). */
function ownedFields(method: string): Set<string> {
  const owned = new Set<string>();
  const claim = (target: Target, path: string) => {
    if ('request' in target && target.request === method) owned.add(path.split('.')[0] as string);
    // An object kind's change owns the request field that carries the object, wherever the method locates it.
    if ('object' in target) {
      for (const v of contract.versions) {
        for (const loc of v.methods[method]?.requestObjects ?? []) {
          if (loc.type === target.object) owned.add(((loc.path || path).split('.')[0]) as string);
        }
      }
    }
  };
  const changes: Change[] = contract.versions.flatMap((v) => [...v.changes, ...(v.additions ?? [])]);
  for (const change of changes) {
    if (change.kind === 'custom') change.covers.forEach((c) => claim(c.target, c.path));
    else if (change.kind === 'fieldRenamed') [change.from, change.to].forEach((p) => claim(change.target, p));
    else if ('target' in change) claim(change.target, change.path);
  }
  return owned;
}

/** Values a migration needs to get anywhere: keys some workbook holds, small pages. */
const overrides: Record<string, Record<string, fc.Arbitrary<unknown>>> = {
  createReport: { key: fc.constantFrom('reports/marketing/q3', 'reports/marketing/x/y') },
  updateReport: { key: fc.constantFrom('reports/marketing/q3', 'reports/marketing/x/y') },
  getEntries: { page: fc.integer({ min: 0, max: 3 }), pageSize: fc.integer({ min: 1, max: 50 }) },
  // From version 3 a Wizard config needs a visualization id (its document requires visualization.type).
  createWizardChart: { data: fc.dictionary(fc.string(), fc.jsonValue()).map((d) => ({ ...d, visualization: { id: 'line' } })) },
  updateWizardChart: { data: fc.dictionary(fc.string(), fc.jsonValue()).map((d) => ({ ...d, visualization: { id: 'line' } })) },
};

let backend: ReferenceBackend;
let baseUrl: string;

const ctxFor = (principal: string): MigrationContext => ({
  clientVersion: 1,
  principal,
  state: new Map(),
  services,
  callBackend: async (method, body) => {
    const res = await fetch(`${baseUrl}/rpc/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dl-api-version': String(HEAD), 'x-dl-client-api-version': '1' },
      body: JSON.stringify(body),
    });
    const parsed = (await res.json()) as Json;
    if (!res.ok) throw new BackendCallError(res.status, parsed);
    return parsed;
  },
});

beforeAll(async () => {
  backend = createReferenceBackend({ seed: { workbooks: [...DEMO_WORKBOOKS], entries: [...DEMO_ENTRIES] } });
  baseUrl = await backend.listen(0, '127.0.0.1');
});
afterAll(() => backend?.close());

const migrated = Object.keys(v1.methods).filter((method) => requirePlan(plans, loaded, 1, method).up.length > 0);

describe('a v1 request translated up', () => {
  it('is migrated for some methods (the property below has something to check)', () => {
    expect(migrated).toEqual(expect.arrayContaining(['createReport', 'updateReport', 'getEntries']));
  });

  it.each(migrated)('%s: every field the client sent and no change claims arrives unchanged', async (method) => {
    const plan = requirePlan(plans, loaded, 1, method);
    const schema = z.toJSONSchema(v1.methods[method]!.request, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    const owned = ownedFields(method);
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(objectOf(schema, 0, overrides[method]), fc.string({ minLength: 1, maxLength: 6 }), async (generated, principal) => {
        const sent = JSON.parse(JSON.stringify(generated)) as Json; // as it arrives on the wire
        fc.pre(plan.spec.request.safeParse(sent).success);
        let out: Json;
        try {
          out = await translateRequest(plan, validateRequest(plan, sent), ctxFor(principal));
        } catch (e) {
          // A request the latest version cannot express is refused as a whole, never half-forwarded.
          if (e instanceof GatewayError && e.code === 'VERSION_TRANSLATION_FAILED') return;
          if (e instanceof BackendCallError) return;
          throw e;
        }
        for (const [field, value] of Object.entries(sent)) {
          if (owned.has(field)) continue;
          expect(out, `${method}: ${field}`).toHaveProperty([field]);
          expect(out[field], `${method}: ${field}`).toStrictEqual(value);
          checked++;
        }
      }),
      { numRuns: 150 },
    );
    // Something was checked, unless every field the v1 request can carry is some change's to rewrite (a newer
    // version may claim the last free one, as a rename of `config` does).
    const free = Object.keys((schema.properties ?? {}) as object).filter((field) => !owned.has(field));
    if (free.length > 0 || schema.additionalProperties !== false) expect(checked).toBeGreaterThan(0);
  });
});
