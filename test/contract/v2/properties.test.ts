// Properties of the SHIPPED contract (v1 → v2), checked with fast-check against the real reference backend:
// the contract's own adapters (legacy-key resolver, page-token cache) make their backend calls through
// ctx.callBackend, which here POSTs to the reference backend with fetch, as the gateway's backend client does.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { version1 } from '../../../src/contract/v1/index.js';
import { version2 } from '../../../src/contract/v2/index.js';
import { DEFAULT_PAGE_SIZE, LARGEST_PAGE_SIZE } from '../../../src/contract/v2/entries-page-token.js';
import { DEFAULTS } from '../../../src/config/schema.js';
import { omit } from '../../../src/core/contract-model/builders.js';
import { loadContract, type LoadedContract } from '../../../src/core/contract-model/load.js';
import type { Contract, Json, MigrationContext } from '../../../src/core/contract-model/types.js';
import { BackendCallError, GatewayError } from '../../../src/core/errors.js';
import { translateRequest, translateResponse, validateRequest } from '../../../src/core/translate/engine.js';
import { buildPlans, requirePlan, type MethodPlan } from '../../../src/core/translate/plan.js';
import {
  DEMO_ENTRIES,
  DEMO_WORKBOOKS,
  ENTRY_SCOPES,
  createReferenceBackend,
  type ReferenceBackend,
} from '../../../src/reference-backend/index.js';
import { expectNoPollution, expectOrdinaryPrototypes, mix, pollutingBody, snapshot } from '../../helpers/pollution.js';
import { memoryServices } from '../../helpers/services.js';

// ── The stack: reference backend + shipped contract with real adapters ──────────────────────────────

/** The operator's configured prefix; the other demo folders are resolved by the backend. */
const CONFIG_PREFIXES = { 'reports/marketing/': 'wb_demo_marketing' } as const;
/** Every legacy folder the backend or the configuration knows, with its workbook. */
const KNOWN_FOLDERS: readonly (readonly [string, string])[] = [
  ...Object.entries(CONFIG_PREFIXES),
  ...DEMO_WORKBOOKS.filter((w) => w.legacyFolderKey !== undefined).map((w) => [w.legacyFolderKey as string, w.workbookId as string] as const),
];
const expectedWorkbook = (key: string): string | undefined =>
  KNOWN_FOLDERS.filter(([prefix]) => key.startsWith(prefix)).sort(([a], [b]) => b.length - a.length)[0]?.[1];

let backend: ReferenceBackend;
let baseUrl: string;
/** The shipped contract's versions 1 and 2: the translations this file is about, whatever newer head it has. */
const V1_TO_V2: Contract = { versions: [version1, version2] };

let loaded: LoadedContract;
let plans: ReadonlyMap<string, MethodPlan>;
let backendCallCount = 0;

/** POST /rpc/<method> at the latest version, acting for `clientVersion`; 2xx → the object, else BackendCallError. */
async function rpc(method: string, body: Json, clientVersion: number): Promise<Json> {
  backendCallCount++;
  const res = await fetch(`${baseUrl}/rpc/${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-dl-api-version': String(loaded.head),
      'x-dl-client-api-version': String(clientVersion),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!res.ok) throw new BackendCallError(res.status, parsed);
  expect(parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)).toBe(true);
  return parsed as Json;
}

/** The gateway's in-process caches, with the operator's folder prefixes. */
const services = memoryServices({ ...CONFIG_PREFIXES }, 10_000);

const ctxAt = (clientVersion: number, principal = 'prop-principal'): MigrationContext => ({
  clientVersion,
  principal,
  state: new Map(),
  services,
  callBackend: (method, body) => rpc(method, body, clientVersion),
});

const plan = (version: number, method: string) => requirePlan(plans, loaded, version, method);

beforeAll(async () => {
  backend = createReferenceBackend({ contract: V1_TO_V2, seed: { workbooks: [...DEMO_WORKBOOKS], entries: [...DEMO_ENTRIES] } });
  baseUrl = await backend.listen(0, '127.0.0.1');
  loaded = loadContract(V1_TO_V2);
  plans = buildPlans(loaded);
});
afterAll(() => backend.close());

// ── Arbitraries ────────────────────────────────────────────────────────────────────────────────────

/** Keys with and without a known folder prefix (and prefixes that only look close). */
const keyArb = fc
  .tuple(
    fc.constantFrom('reports/marketing/', 'reports/sales/', 'reports/', 'nowhere/', 'reports', 'Reports/', 'report/', ''),
    fc.string({ maxLength: 30 }),
  )
  .map(([prefix, rest]) => prefix + rest)
  .filter((k) => k.length >= 1 && k.length <= 1024);
const knownKeyArb = fc
  .tuple(fc.constantFrom('reports/marketing/', 'reports/sales/', 'reports/'), fc.string({ maxLength: 30 }))
  .map(([prefix, rest]) => prefix + rest);

/** Any JSON object, normalised through JSON so that what we compare is what travels. */
const configArb = fc
  .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
  .map((c) => JSON.parse(JSON.stringify(c)) as Record<string, unknown>);
const descriptionArb = fc.option(fc.string({ maxLength: 40 }), { nil: undefined });
const withOptional = <T extends object>(base: T, extra: Record<string, unknown>): T & Json => {
  const out: Json = { ...(base as Json) };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) out[k] = v;
  return out as T & Json;
};

const createReportV1 = fc
  .record({ key: keyArb, config: configArb, description: descriptionArb })
  .map(({ key, config, description }) => withOptional({ key, config }, { description }));
const updateReportV1 = fc
  .record({
    reportId: fc.string({ minLength: 1, maxLength: 20 }),
    key: fc.option(keyArb, { nil: undefined }),
    config: fc.option(configArb, { nil: undefined }),
    description: descriptionArb,
  })
  .map(({ reportId, ...rest }) => withOptional({ reportId }, rest));
const oneOrMany = (arb: fc.Arbitrary<string>) => fc.oneof(arb, fc.array(arb, { maxLength: 4 }));
const entryIdArb = fc.oneof(fc.constantFrom(...DEMO_ENTRIES.map((e) => e.entryId as string)), fc.string({ minLength: 1, maxLength: 12 }));
const authorArb = fc.oneof(fc.constantFrom('alice@example.com', 'bob@example.com', 'web-ui', 'api'), fc.string({ minLength: 1, maxLength: 12 }));
const getEntriesV1 = fc
  .record({
    // Absent half of the time, so that unfiltered listings long enough to walk pages are common.
    ids: fc.option(oneOrMany(entryIdArb), { nil: undefined, freq: 1 }),
    createdBy: fc.option(oneOrMany(authorArb), { nil: undefined, freq: 1 }),
    // The gateway accepts any scope string at v1 and v2; the backend only its enum (see the test further down).
    scope: fc.option(fc.constantFrom(...ENTRY_SCOPES), { nil: undefined }),
    page: fc.option(fc.oneof(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 100_000 })), { nil: undefined }),
    pageSize: fc.option(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 200 })), { nil: undefined }),
  })
  .map((b) => withOptional({}, b));

// ── Property 1 ─────────────────────────────────────────────────────────────────────────────────────

/** Translates a v1 body; answers the v2 body or the GatewayError. Any other exception fails the property. */
async function translateV1(method: string, body: Json, principal?: string): Promise<{ ok: Json } | { error: GatewayError }> {
  const p = plan(1, method);
  const valid = validateRequest(p, body); // the generators only make v1-valid bodies: this must not throw
  try {
    return { ok: await translateRequest(p, valid, ctxAt(1, principal)) };
  } catch (e) {
    if (e instanceof GatewayError) return { error: e };
    throw e;
  }
}
/** The latest version's request schema, with the field only the gateway adds (a report's v1 key, kept as `legacyKey`). */
const v2RequestSchema = (method: string) => ({
  safeParse: (body: Json) => plan(2, plan(1, method).upstreamMethod).spec.request.safeParse(omit(body, 'legacyKey')),
});

const expectTranslationFailure = (e: GatewayError) => {
  expect(e.code).toBe('VERSION_TRANSLATION_FAILED');
  expect(e.status).toBe(422);
};

describe('property 1: every v1 body translates to a valid v2 body, or fails with VERSION_TRANSLATION_FAILED', () => {
  it('createReport: known folders resolve to their workbook and keep the key as legacyKey; others → 422', async () => {
    const outcomes = { ok: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(createReportV1, async (body) => {
        const result = await translateV1('createReport', body);
        const workbookId = expectedWorkbook(body.key);
        outcomes['error' in result ? 'failed' : 'ok']++;
        if ('error' in result) {
          expectTranslationFailure(result.error);
          expect(workbookId).toBeUndefined();
          expect(result.error.details).toMatchObject({ field: 'key', key: body.key });
          return;
        }
        // Valid at v2 but for `legacyKey`, which only the gateway sends (the backend keeps it for v1 reads).
        expect(v2RequestSchema('createReport').safeParse(omit(result.ok, 'legacyKey')).success).toBe(true);
        expect(result.ok).toStrictEqual({
          workbookId,
          legacyKey: body.key,
          config: body.config,
          description: body.description ?? '',
        });
      }),
      { numRuns: 120 },
    );
    // The generator reached both outcomes (counts include shrinking runs, which only happen on failure).
    expect(outcomes.ok).toBeGreaterThan(0);
    expect(outcomes.failed).toBeGreaterThan(0);
  });

  it('updateReport: with a key as createReport; without one, the body is unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(updateReportV1, async (body) => {
        const result = await translateV1('updateReport', body);
        if ('error' in result) {
          expectTranslationFailure(result.error);
          expect(typeof body.key === 'string' && expectedWorkbook(body.key) === undefined).toBe(true);
          return;
        }
        expect(v2RequestSchema('updateReport').safeParse(omit(result.ok, 'legacyKey')).success).toBe(true);
        if (typeof body.key !== 'string') {
          expect(result.ok).toStrictEqual(body);
        } else {
          const { key, ...rest } = body;
          expect(result.ok).toStrictEqual({ ...rest, workbookId: expectedWorkbook(key), legacyKey: key });
        }
      }),
      { numRuns: 120 },
    );
  });

  it('getEntries: ids/createdBy become arrays, page becomes a token; only pages past the walk budget fail', async () => {
    const outcomes = { ok: 0, failed: 0, walked: 0 };
    await fc.assert(
      fc.asyncProperty(getEntriesV1, fc.constantFrom('p1', 'p2', 'p3'), async (body, principal) => {
        const result = await translateV1('getEntries', body, principal);
        const page = typeof body.page === 'number' ? body.page : 0;
        const size = typeof body.pageSize === 'number' ? body.pageSize : DEFAULT_PAGE_SIZE;
        outcomes['error' in result ? 'failed' : 'ok']++;
        if (!('error' in result) && typeof result.ok.pageToken === 'string') outcomes.walked++;
        if ('error' in result) {
          expectTranslationFailure(result.error);
          // A walk from the first entry in steps of the largest page (plus the calls that fill a larger v1 page):
          // only a page it cannot reach within paging.maxWalkCalls may be refused.
          const calls = Math.ceil((page * size) / LARGEST_PAGE_SIZE) + Math.ceil(size / LARGEST_PAGE_SIZE) - 1;
          expect(calls).toBeGreaterThan(DEFAULTS.pagingMaxWalkCalls);
          expect(result.error.details).toMatchObject({ field: 'page', page, setting: 'paging.maxWalkCalls' });
          return;
        }
        const out = result.ok;
        expect(v2RequestSchema('getEntries').safeParse(out).success).toBe(true);
        expect(Object.hasOwn(out, 'page')).toBe(false);
        expect(out.pageSize).toBe(Math.min(size, LARGEST_PAGE_SIZE));
        for (const field of ['ids', 'createdBy'] as const) {
          const sent = body[field];
          if (sent === undefined) expect(Object.hasOwn(out, field)).toBe(false);
          else expect(out[field]).toStrictEqual(Array.isArray(sent) ? sent : [sent]);
        }
        if (page === 0) expect(Object.hasOwn(out, 'pageToken')).toBe(false);
        // The backend accepts what the gateway sends (strict schemas there refuse leftover v1 fields).
        await expect(rpc('getEntries', out, 1)).resolves.toHaveProperty('entries');
      }),
      { numRuns: 100 },
    );
    expect(outcomes.ok).toBeGreaterThan(0);
    expect(outcomes.failed).toBeGreaterThan(0);
    expect(outcomes.walked).toBeGreaterThan(0);
  });

  /** Pages 0..last+1 of a v1 listing, in order; answers each page's entry ids and the backend calls it cost. */
  async function pageThrough(principal: string, pageSize: number, pages: number) {
    const out: { ids: string[]; calls: number }[] = [];
    for (let page = 0; page < pages; page++) {
      const before = backendCallCount;
      const p = plan(1, 'getEntries');
      const ctx = ctxAt(1, principal);
      const upBody = await translateRequest(p, validateRequest(p, { page, pageSize }), ctx);
      const answer = await rpc(p.upstreamMethod, upBody, 1);
      const down = (await translateResponse(p, answer, ctx)) as { entries: { entryId: string }[] };
      out.push({ ids: down.entries.map((e) => e.entryId), calls: backendCallCount - before });
    }
    return out;
  }

  it('getEntries page n at v1 returns the same entries as the offset listing (sequential pages)', async () => {
    const pageSize = 4;
    const all = ((await rpc('getEntries', { pageSize: 200 }, 1)).entries as { entryId: string }[]).map((e) => e.entryId);
    const pages = Math.ceil(all.length / pageSize) + 1; // one past the end: an empty page
    const seen = await pageThrough('sequential-a', pageSize, pages);
    seen.forEach(({ ids }, page) => expect(ids).toEqual(all.slice(page * pageSize, (page + 1) * pageSize)));
    // From page 2 to the last page, every page's token is cached by the previous answer: one backend call per page.
    // (The page past the end has no token: it walks one page from the last cached one, so it costs 2.)
    const inRange = seen.slice(2, -1);
    expect(inRange.map((s) => s.calls)).toEqual(inRange.map(() => 1));
    expect(seen.at(-1)).toEqual({ ids: [], calls: 2 });
  });

  // Regression (was a bug: page 0's nextPageToken was not cached, so page 1 re-fetched page 0 first).
  it('sequential v1 paging from page 0 costs one backend call per page, page 1 included', async () => {
    const seen = await pageThrough('sequential-b', 4, 3);
    expect(seen.map((s) => s.calls)).toEqual([1, 1, 1]);
  });

  it('a scope the backend refuses surfaces from the page walk as the backend\'s own refusal (BackendCallError 400)', async () => {
    // Not a VERSION_TRANSLATION_FAILED: the edge passes the backend's 400 through, exactly as it would for page 0.
    const p = plan(1, 'getEntries');
    const body = validateRequest(p, { scope: 'not-a-scope', page: 1 });
    await expect(translateRequest(p, body, ctxAt(1))).rejects.toMatchObject({ name: 'BackendCallError', status: 400 });
  });
});

// ── Property 2 ─────────────────────────────────────────────────────────────────────────────────────

/** One v1 call the way the edge makes it: validate, translate up, POST upstream, guard and translate down. */
async function callAtV1(method: string, body: unknown): Promise<{ upstream: Json; client: unknown }> {
  const p = plan(1, method);
  const ctx = ctxAt(1);
  const upBody = await translateRequest(p, validateRequest(p, body), ctx);
  const upstream = await rpc(p.upstreamMethod, upBody, 1);
  return { upstream, client: await translateResponse(p, structuredClone(upstream), ctx) };
}

describe('property 2: a report written at v1 reads back at v1 as written (plus defaults), end to end', () => {
  it('createReport then getReport at v1', async () => {
    await fc.assert(
      fc.asyncProperty(knownKeyArb, configArb, descriptionArb, async (key, config, description) => {
        const written = withOptional({ key, config }, { description });
        const created = await callAtV1('createReport', written);
        // What the backend holds: the workbook for the key, the key itself as legacyKey, saved under version 1.
        expect(created.upstream).toMatchObject({ workbookId: expectedWorkbook(key), legacyKey: key, version: 1 });
        const id = created.upstream.id as string;

        const read = await callAtV1('getReport', { reportId: id });
        for (const seen of [created.client, read.client]) {
          const r = seen as Json;
          expect(r.key).toBe(key);
          expect(r.config).toStrictEqual(config);
          expect(r.description).toBe(description ?? '');
          expect(r).toMatchObject({ id, version: 1 });
          expect(Object.hasOwn(r, 'workbookId')).toBe(false);
          expect(Object.hasOwn(r, 'legacyKey')).toBe(false);
          expect(plan(1, 'getReport').spec.response.safeParse(r).success).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('updateReport at v1 with a new key moves the report, and v1 reads the new key back', async () => {
    await fc.assert(
      fc.asyncProperty(knownKeyArb, knownKeyArb, configArb, async (key1, key2, config) => {
        const created = await callAtV1('createReport', { key: key1, config: {} });
        const id = created.upstream.id as string;
        const updated = await callAtV1('updateReport', { reportId: id, key: key2, config });
        expect(updated.upstream).toMatchObject({ workbookId: expectedWorkbook(key2), legacyKey: key2 });
        const read = (await callAtV1('getReport', { reportId: id })).client as Json;
        expect(read).toMatchObject({ id, key: key2, description: '', version: 1 });
        expect(read.config).toStrictEqual(config);
      }),
      { numRuns: 30 },
    );
  });

  it('a report saved by a v2 client is refused at v1 (409 with details)', async () => {
    const upstream = await rpc('createReport', { workbookId: 'wb_demo_sandbox', config: { a: 1 } }, 2);
    const p = plan(1, 'getReport');
    await expect(translateResponse(p, upstream, ctxAt(1))).rejects.toMatchObject({
      code: 'UNSUPPORTED_OBJECT_VERSION',
      details: { objectType: 'report', objectId: upstream.id, objectVersion: 2, requestedVersion: 1, minVersion: 2 },
    });
  });

  it('a report created before `description` existed (no field at head) reads description "" at v1', async () => {
    const p = plan(1, 'getReport');
    const head = { id: 'rep_old', workbookId: 'wb_demo_shared', config: {}, legacyKey: 'reports/old', version: 1 };
    await expect(translateResponse(p, head, ctxAt(1))).resolves.toStrictEqual({
      id: 'rep_old',
      key: 'reports/old',
      config: {},
      description: '',
      version: 1,
    });
    // Written at v2 (no legacy key) but readable at v1: the key reads null.
    await expect(translateResponse(p, { ...head, legacyKey: undefined }, ctxAt(1))).resolves.toMatchObject({ key: null });
  });
});

// ── Property 3 ─────────────────────────────────────────────────────────────────────────────────────

describe('property 3: translation never pollutes prototypes', () => {
  const ctx = () => ctxAt(1, 'proto');

  it('the shipped contract: v1 requests (validated and raw) and v2 answers with dangerous keys', async () => {
    const before = snapshot();
    await fc.assert(
      fc.asyncProperty(pollutingBody, knownKeyArb, async (extra, key) => {
        const cases: [string, Json, string?][] = [
          ['createReport', mix({ key, config: { a: 1 } }, extra, 'config')],
          ['updateReport', mix({ reportId: 'rep_x', key, config: {} }, extra, 'config')],
          ['getEntries', mix({ ids: 'ent_demo_01', page: 0 }, extra)],
          ['getDashboard', mix({ dashboardId: 'd1', data: {} }, extra, 'data')],
        ];
        for (const [method, body] of cases) {
          const p = plan(1, method);
          let valid: Json | undefined;
          try {
            valid = validateRequest(p, body);
          } catch (e) {
            expect(e).toBeInstanceOf(GatewayError);
          }
          if (valid) expectOrdinaryPrototypes(await translateRequest(p, valid, ctx()));
          try {
            expectOrdinaryPrototypes(await translateRequest(p, body, ctx()));
          } catch (e) {
            expect(e).toBeInstanceOf(GatewayError);
          }
        }
        const head = mix(
          { id: 'rep_p', workbookId: 'wb_demo_shared', legacyKey: key, config: { c: 1 }, version: 1, description: 'd' },
          extra,
          'config',
        );
        const down = (await translateResponse(plan(1, 'getReport'), head, ctx())) as Json;
        expect(down).toMatchObject({ id: 'rep_p', key, description: 'd' });
        expect(Object.hasOwn(down, 'legacyKey')).toBe(false);
        expectOrdinaryPrototypes(down);
        expectNoPollution(before);
      }),
      { numRuns: 150 },
    );
  });
});

// ── Plans of the shipped contract ──────────────────────────────────────────────────────────────────

describe('plans of the shipped contract', () => {
  it('v2 is the head: every v2 plan passes through and checks nothing', () => {
    expect(loaded.head).toBe(2);
    for (const [k, p] of plans) {
      if (p.version !== 2) continue;
      expect({ k, passThrough: p.passThrough, checksResponse: p.checksResponse }).toEqual({ k, passThrough: true, checksResponse: false });
    }
  });

  it('v1 report methods and getEntries translate; report responses are checked', () => {
    for (const m of ['createReport', 'getReport', 'updateReport']) {
      expect(plan(1, m)).toMatchObject({ passThrough: false, checksResponse: true, upstreamMethod: m });
      expect(plan(1, m).guarded).toEqual([{ type: 'report', path: '' }]);
    }
    expect(plan(1, 'getEntries').up).toHaveLength(1);
  });

  // Regression (was a bug in plan.ts: the reports object step was added to every v1 plan, so all 54 v1 methods had
  // checksResponse true and were buffered/parsed by the edge, 502 above limits.responseBytes).
  it('v1 methods whose shape did not change and that answer no versioned object stream their responses (checksResponse false)', () => {
    for (const m of ['deleteDashboard', 'getWorkbookExportResult', 'deleteReport', 'updateConnection']) {
      expect({ m, checksResponse: plan(1, m).checksResponse }).toEqual({ m, checksResponse: false });
    }
  });

  it('v1 methods that answer a versioned object are checked (the object-version guard reads them)', () => {
    for (const m of ['getDashboard', 'getWizardChart', 'getDataset', 'getConnection', 'getWorkbook', 'getCollection', 'getEntries']) {
      expect({ m, checksResponse: plan(1, m).checksResponse }).toEqual({ m, checksResponse: true });
    }
  });

  it('the migrations made real backend calls (resolveLegacyKey, getEntries page walks)', () => {
    expect(backendCallCount).toBeGreaterThan(0);
    const methods = new Set(backend.requests.map((r) => r.url));
    expect(methods.has('/rpc/resolveLegacyKey')).toBe(true);
    expect(methods.has('/rpc/getEntries')).toBe(true);
  });
});
