// Fuzzing the real gateway (fast-check, ~200 runs per property, raw sockets so any byte can be sent) and the
// translators directly. At the edge: every answer is a 2xx or a non-5xx answer (a problem, or a bare 4xx from
// Node's parser), a refused request is never forwarded, an accepted one is forwarded exactly once acting for
// the version it was answered at, and the process never emits unhandledRejection or uncaughtException.
// In the engine: translating any JSON with the shipped v1 plans yields a body or a GatewayError (or the
// backend's own refusal), never another exception, and never INTERNAL_ERROR for a body the v1 schema accepts.

import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shippedContract } from '../../src/contract/index.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { Json, MigrationContext } from '../../src/core/contract-model/types.js';
import { BackendCallError, GatewayError } from '../../src/core/errors.js';
import { translateRequest, translateResponse, validateRequest } from '../../src/core/translate/engine.js';
import { buildPlans } from '../../src/core/translate/plan.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { type BackendTap, HOSTILE_LIMITS, REQUEST_DEADLINE_MS, createV1Report, expectStillServing, tapBackend } from '../helpers/hostile.js';
import { type ParsedResponse, head, post, rawExchange } from '../helpers/raw-socket.js';
import { memoryServices } from '../helpers/services.js';
import { type Stack, startStack } from '../helpers/stack.js';

const NUM_RUNS = 200;

// ── Process-level failures: registered for the whole file, asserted after every test ────────────────
const incidents: { kind: string; error: unknown }[] = [];
const onRejection = (error: unknown) => incidents.push({ kind: 'unhandledRejection', error });
const onException = (error: unknown) => incidents.push({ kind: 'uncaughtException', error });

let stack: Stack;
let tap: BackendTap;
let reportId: string;
let knownMethods: ReadonlySet<string>;

beforeAll(async () => {
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  stack = await startStack({ config: { limits: HOSTILE_LIMITS } });
  tap = tapBackend(stack);
  reportId = await createV1Report(stack, 'reports/sales/fuzz');
  knownMethods = new Set(stack.gateway.runtime().contract.availableIn.keys());
});
afterAll(async () => {
  tap.stop();
  await stack.close();
  process.off('unhandledRejection', onRejection);
  process.off('uncaughtException', onException);
});
afterEach(() => {
  expect(incidents.map((i) => `${i.kind}: ${String(i.error)}`)).toEqual([]);
});

/** Every version of the contract, and `latest`. */
const VERSION_VALUES = [...VERSIONS.map(String), 'latest'];
const versionArb = fc.constantFrom(...VERSION_VALUES);

/** One raw request, bounded; answers the response and the requests the backend saw meanwhile. */
async function exchange(bytes: Buffer | string) {
  const mark = tap.mark();
  const result = await rawExchange(stack.url, [bytes], { deadlineMs: REQUEST_DEADLINE_MS, responses: 1 });
  expect(result.closedBy, `no answer within ${REQUEST_DEADLINE_MS} ms`).not.toBe('deadline');
  const res = result.responses[0];
  expect(res, 'an answer').toBeDefined();
  return { res: res as ParsedResponse, seen: tap.since(mark) };
}

/** Never a 5xx; a gateway refusal is a problem and forwards nothing; a success was forwarded exactly once. */
function expectSane(res: ParsedResponse, seen: ReturnType<BackendTap['since']>) {
  expect(res.status, res.bodyText.slice(0, 300)).toBeLessThan(500);
  expect(res.status).toBeGreaterThanOrEqual(200);
  if (res.status >= 400 && res.body !== undefined) {
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.status).toBe(res.status);
  }
  if (res.status < 300) {
    expect(seen.length).toBeGreaterThanOrEqual(1);
    const main = seen.at(-1)!;
    expect(main.headers['x-dl-client-api-version']).toBe(res.headers['x-dl-api-version']);
    expect(main.headers['x-dl-api-version']).toBe(String(HEAD));
  }
}

/** Bytes of a header value: anything but CR and LF (which would end the line). */
const headerByte = fc.integer({ min: 0, max: 255 }).filter((b) => b !== 0x0a && b !== 0x0d);
const headerValueArb = fc.oneof(
  fc.array(headerByte, { maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.string({ unit: fc.constantFrom(...'0123456789+-.,; \txeEabLATESTlatest"\''.split('')), maxLength: 10 }),
  fc.constantFrom('1', '2', 'latest', ' 1', '2 ', '\t1', '1,2', '01', '1.0', 'LATEST', '3', '99999999999999999999', '\xa01', '1\xa0'),
);

describe('the edge under arbitrary input', () => {
  it('x-dl-api-version: any byte string gets a sane answer; refusals forward nothing', async () => {
    await fc.assert(
      fc.asyncProperty(headerValueArb, async (value) => {
        const { res, seen } = await exchange(post('/rpc/getReport', JSON.stringify({ reportId }), [['x-dl-api-version', value]]));
        expectSane(res, seen);
        if (res.status === 200) {
          expect(seen).toHaveLength(1);
          expect(VERSIONS.map(String)).toContain(res.headers['x-dl-api-version']);
        } else {
          expect(res.status).toBe(400);
          // A byte Node's parser refuses (NUL, …) is answered before the gateway reads the header.
          expect(['INVALID_API_VERSION_HEADER', 'MALFORMED_REQUEST']).toContain(res.body?.code);
          expect(seen).toEqual([]);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('method names: any string, percent-encoded into the path, is routed only if it is a contract method', async () => {
    const encode = (name: string) =>
      [...Buffer.from(name, 'utf8')]
        .map((b) => (/[A-Za-z0-9_]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`))
        .join('');
    const names = [...knownMethods];
    const nameArb = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 70 }),
      fc.string({ unit: fc.constantFrom(...'abcdefgRrtTpoE_0123456789'.split('')), minLength: 1, maxLength: 70 }),
      fc.constantFrom(...names),
      fc.tuple(fc.constantFrom(...names), fc.string({ maxLength: 3 })).map(([n, s]) => n + s),
      fc.constantFrom('constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'resolveLegacyKey', 'createWorkbook'),
    );
    await fc.assert(
      fc.asyncProperty(nameArb, versionArb, async (name, version) => {
        const { res, seen } = await exchange(post(`/rpc/${encode(name)}`, '{}', [['x-dl-api-version', version]]));
        expectSane(res, seen);
        const runtime = stack.gateway.runtime().contract;
        const at = version === 'latest' ? runtime.head : Number(version);
        if (!knownMethods.has(name) || !/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name)) {
          expect(res.status).toBe(404);
          expect(res.body.code).toBe('ENDPOINT_NOT_FOUND');
          expect(seen).toEqual([]);
        } else if (!runtime.availableIn.get(name)?.includes(at)) {
          // A method of another version: "not at this version", with the versions where it exists.
          expect(res.status).toBe(404);
          expect(res.body.details.availableIn).toEqual(runtime.availableIn.get(name));
          expect(res.body.code).toBe('ENDPOINT_NOT_FOUND');
          expect(seen).toEqual([]);
        } else {
          // A contract method: whatever `{}` earns, it is not "no such endpoint" from the gateway.
          if (seen.length === 0) expect(res.body?.code).not.toBe('ENDPOINT_NOT_FOUND');
          for (const s of seen) expect(s.url).toMatch(/^\/rpc\/[A-Za-z][A-Za-z0-9_]*$/);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  const methodArb = fc.constantFrom('getReport', 'createReport', 'updateReport', 'deleteReport', 'getEntries', 'getDashboard', 'getWorkbook');
  const dangerousKey = fc.constantFrom('__proto__', 'constructor', 'prototype', '\\u005f_proto__');
  /** JSON texts: arbitrary values, near-valid report bodies with arbitrary fields, and objects with dangerous keys. */
  const jsonTextArb = fc.oneof(
    fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
    fc
      .record(
        {
          reportId: fc.oneof(fc.constant('rep_missing'), fc.jsonValue({ maxDepth: 1 })),
          key: fc.oneof(fc.constantFrom('reports/sales/fuzz-b', 'nowhere/fuzz', ''), fc.jsonValue({ maxDepth: 1 })),
          workbookId: fc.oneof(fc.constantFrom('wb_demo_sandbox', 'wb_nope'), fc.jsonValue({ maxDepth: 1 })),
          config: fc.jsonValue({ maxDepth: 3 }),
          description: fc.jsonValue({ maxDepth: 1 }),
          ids: fc.jsonValue({ maxDepth: 2 }),
          page: fc.oneof(fc.integer({ min: -2, max: 30 }), fc.jsonValue({ maxDepth: 1 })),
          pageSize: fc.oneof(fc.integer({ min: -2, max: 1200 }), fc.jsonValue({ maxDepth: 1 })),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    fc
      .tuple(dangerousKey, fc.jsonValue({ maxDepth: 2 }), fc.boolean())
      .map(([k, v, nested]) => (nested ? `{"reportId":"rep_x","config":{"${k}":${JSON.stringify(v)}}}` : `{"${k}":${JSON.stringify(v)},"reportId":"rep_x"}`)),
  );

  it('JSON bodies: any JSON value to a report, entries or pass-through method at v1/v2/latest gets a sane answer', async () => {
    await fc.assert(
      fc.asyncProperty(jsonTextArb, methodArb, versionArb, async (text, method, version) => {
        const { res, seen } = await exchange(post(`/rpc/${method}`, text, [['x-dl-api-version', version]]));
        expectSane(res, seen);
        if (res.status === 413) expect(Buffer.byteLength(text)).toBeGreaterThan(HOSTILE_LIMITS.bodyBytes);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('byte bodies: any bytes (under and over the limit) get a sane answer', async () => {
    const bytesArb = fc.oneof(
      fc.uint8Array({ maxLength: 600 }),
      fc.uint8Array({ minLength: HOSTILE_LIMITS.bodyBytes - 8, maxLength: HOSTILE_LIMITS.bodyBytes + 8 }),
      fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.uint8Array({ maxLength: 8 }), fc.nat(40)).map(([v, junk, at]) => {
        const text = Buffer.from(JSON.stringify(v));
        const cut = Math.min(at, text.length);
        return Buffer.concat([text.subarray(0, cut), junk, text.subarray(cut)]);
      }),
    );
    await fc.assert(
      fc.asyncProperty(bytesArb, methodArb, versionArb, async (bytes, method, version) => {
        const { res, seen } = await exchange(post(`/rpc/${method}`, Buffer.from(bytes), [['x-dl-api-version', version]]));
        expectSane(res, seen);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  // Connection may list any header name, `host` included (the upstream's Host is the gateway's own).
  it('pass-through and hop-by-hop headers: any values on a v1 lookup or a v2 call get a sane answer', async () => {
    const listable = fc.constantFrom('keep-alive', 'close', 'x-dl-org-id', 'authorization', 'x-custom', 'content-type', 'content-length', 'x-request-id', 'x-dl-api-version', 'x-dl-client-api-version', 'te', 'upgrade', 'accept-encoding', 'host');
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          authorization: headerValueArb,
          org: headerValueArb,
          custom: headerValueArb,
          connection: fc.array(listable, { maxLength: 4 }).map((l) => l.join(', ')),
          requestId: headerValueArb,
        }),
        fc.constantFrom('lookup', 'v2'),
        async (h, kind) => {
          const headers: [string, string][] = [
            ['authorization', h.authorization],
            ['x-dl-org-id', h.org],
            ['x-custom', h.custom],
            ['x-request-id', h.requestId],
            ...(h.connection ? ([['connection', h.connection]] as [string, string][]) : []),
          ];
          const bytes =
            kind === 'lookup'
              ? post('/rpc/createReport', JSON.stringify({ key: `reports/fuzz/${Math.random()}`, config: {} }), [['x-dl-api-version', '1'], ...headers])
              : post('/rpc/getReport', JSON.stringify({ reportId }), [['x-dl-api-version', String(HEAD)], ...headers]);
          const { res, seen } = await exchange(bytes);
          expectSane(res, seen);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('raw request heads: a request line and headers built from arbitrary tokens get a sane answer', async () => {
    const token = fc.oneof(
      fc.constantFrom('POST', 'GET', '/rpc/getReport', 'HTTP/1.1', 'HTTP/1.0', 'content-length', 'transfer-encoding', 'chunked', '0', '5', 'x-dl-api-version', '1', 'latest', ':', ' '),
      fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(token, { minLength: 1, maxLength: 6 }).map((t) => t.join(' ')),
        fc.array(fc.tuple(token, token), { maxLength: 5 }),
        async (line, headers) => {
          const mark = tap.mark();
          const result = await rawExchange(stack.url, [head(line, headers) + '{}'], { deadlineMs: HOSTILE_LIMITS.requestTimeoutMs + 3_000, responses: 1 });
          expect(result.closedBy).not.toBe('deadline');
          for (const r of result.responses) expect(r.status).toBeLessThan(500);
          // Anything the backend saw went to a strict /rpc/<method> path.
          for (const s of tap.since(mark)) expect(s.url).toMatch(/^\/rpc\/[A-Za-z][A-Za-z0-9_]*$/);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('still serves normally after all of that', async () => {
    await expectStillServing(stack, reportId);
  });
});

// ── The translators, directly ──────────────────────────────────────────────────────────────────────
describe('the shipped v1 translators under arbitrary JSON', () => {
  const services = memoryServices({ 'reports/marketing/': 'wb_demo_marketing' }, 100);
  const loaded = loadContract(shippedContract);
  const plans = [...buildPlans(loaded).values()].filter((p) => p.version === 1);

  /** The backend, as a migration sees it: an arbitrary JSON object, or a refusal. */
  const answerArb = fc.oneof(
    { weight: 3, arbitrary: fc.dictionary(fc.constantFrom('workbookId', 'legacyFolderKey', 'entries', 'nextPageToken', 'x'), fc.jsonValue({ maxDepth: 2 })) },
    { weight: 1, arbitrary: fc.constantFrom(404, 401, 500).map((status) => new BackendCallError(status, { code: 'X' })) },
  );
  const ctxOf = (answer: Json | BackendCallError, principal: string): MigrationContext => ({
    clientVersion: 1,
    principal,
    state: new Map(),
    services,
    callBackend: async () => {
      if (answer instanceof BackendCallError) throw answer;
      return structuredClone(answer);
    },
  });
  /** A body, or a GatewayError, or the backend's own refusal; anything else rethrown (fails the property). */
  async function outcome(run: () => Promise<unknown>): Promise<{ ok: unknown } | { error: GatewayError | BackendCallError }> {
    try {
      return { ok: await run() };
    } catch (e) {
      if (e instanceof GatewayError || e instanceof BackendCallError) return { error: e };
      throw e;
    }
  }
  // Every plan, with the translating ones (reports, getEntries) drawn more often.
  // (Not every checked plan: most DataLens reads are checked now, for the object-version guard, without translating.)
  // Only those whose v1 request takes what the bodies below write (reportId, key, ids): a newer head that renames other
  // kinds' fields adds translating plans no generated body fits.
  const takesBodies = (p: (typeof plans)[number]) => {
    const { properties = {} } = z.toJSONSchema(p.spec.request, { io: 'input', unrepresentable: 'any' }) as { properties?: object };
    return ['reportId', 'key', 'ids'].some((key) => Object.hasOwn(properties, key));
  };
  const translating = plans.filter((p) => (p.up.length > 0 || p.guarded.some((l) => l.type === 'report')) && takesBodies(p));
  const planArb = fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...plans) }, { weight: 2, arbitrary: fc.constantFrom(...translating) });
  /** Bodies the v1 report and entries schemas accept (the report methods refuse fields they do not name). */
  const reportKey = fc.oneof(fc.constantFrom('reports/marketing/a', 'reports/x', 'nowhere/y'), fc.string({ minLength: 1, maxLength: 12 }));
  const config = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }));
  const validishArb = fc.oneof(
    fc.record({ reportId: fc.string({ minLength: 1, maxLength: 8 }) }),
    fc.record({ key: reportKey, config, description: fc.string({ maxLength: 8 }) }, { requiredKeys: ['key', 'config'] }),
    fc.record(
      { reportId: fc.string({ minLength: 1, maxLength: 8 }), key: reportKey, config, description: fc.string({ maxLength: 8 }) },
      { requiredKeys: ['reportId'] },
    ),
    fc.record(
      {
        ids: fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 3 })),
        page: fc.integer({ min: 0, max: 30 }),
        pageSize: fc.integer({ min: 1, max: 200 }),
      },
      { requiredKeys: [] },
    ),
  );
  const bodyArb = fc.oneof(
    { weight: 3, arbitrary: validishArb },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 5 }) },
    { weight: 1, arbitrary: fc.record(
      {
        reportId: fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 1 })),
        key: fc.oneof(fc.constantFrom('reports/marketing/a', 'reports/x', 'nowhere/y'), fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })),
        config: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), fc.jsonValue({ maxDepth: 2 })),
        description: fc.jsonValue({ maxDepth: 1 }),
        ids: fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
        createdBy: fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 1 })),
        page: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.jsonValue({ maxDepth: 1 })),
        pageSize: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.jsonValue({ maxDepth: 1 })),
      },
      { requiredKeys: [] },
    ) },
  );

  /** The body without the keys a strict request schema refuses, so that strict methods are translated too. */
  const fitting = (plan: (typeof plans)[number], body: unknown): unknown => {
    const schema = z.toJSONSchema(plan.spec.request, { io: 'input', unrepresentable: 'any' }) as { properties?: object; additionalProperties?: unknown };
    if (schema.additionalProperties !== false || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    return Object.fromEntries(Object.entries(body).filter(([key]) => Object.hasOwn(schema.properties ?? {}, key)));
  };

  it(`covers every v1 plan (${plans.length})`, () => {
    expect(plans.length).toBeGreaterThan(10);
    expect(plans.map((p) => p.method)).toEqual(expect.arrayContaining(['createReport', 'updateReport', 'getReport', 'getEntries']));
  });

  it('translateRequest of an arbitrary (unvalidated) JSON value: a body or a GatewayError, never another exception', async () => {
    await fc.assert(
      fc.asyncProperty(planArb, bodyArb, answerArb, fc.string({ maxLength: 6 }), async (plan, body, answer, principal) => {
        const result = await outcome(() => translateRequest(plan, structuredClone(body) as Json, ctxOf(answer, principal)));
        if ('ok' in result) expect(() => JSON.stringify(result.ok)).not.toThrow();
        else if (result.error instanceof BackendCallError) expect(result.error).toBe(answer);
      }),
      { numRuns: NUM_RUNS * 3 },
    );
  });

  it('translateRequest of a body the v1 schema accepts: an object for the backend, or a GatewayError that is not INTERNAL_ERROR', async () => {
    let translated = 0;
    await fc.assert(
      fc.asyncProperty(planArb, bodyArb, answerArb, fc.string({ maxLength: 6 }), async (plan, body, answer, principal) => {
        let valid: Json;
        try {
          valid = validateRequest(plan, fitting(plan, structuredClone(body)));
        } catch (e) {
          expect(e).toBeInstanceOf(GatewayError);
          expect((e as GatewayError).code).toBe('VALIDATION_ERROR');
          return;
        }
        const result = await outcome(() => translateRequest(plan, valid, ctxOf(answer, principal)));
        if ('ok' in result) {
          translated++;
          expect(result.ok).toBeTypeOf('object');
          expect(result.ok).not.toBeNull();
          expect(Array.isArray(result.ok)).toBe(false);
          // Serialisable and stable (compared as text: JSON has no -0, which fc.jsonValue may generate).
          const text = JSON.stringify(result.ok);
          expect(JSON.stringify(JSON.parse(text))).toBe(text);
        } else if (result.error instanceof GatewayError) {
          expect(result.error.code, result.error.message).not.toBe('INTERNAL_ERROR');
        } else {
          expect(result.error).toBe(answer);
        }
      }),
      { numRuns: NUM_RUNS * 3 },
    );
    // Enough bodies got through validation for the property to mean something (arbitrary dashboard and Wizard
    // bodies rarely pass their schemas, so the share falls as such plans join the v1 set).
    expect(translated).toBeGreaterThan(50);
  });

  it('translateResponse of an arbitrary backend answer: a body or a GatewayError (never INTERNAL_ERROR), never another exception', async () => {
    const checked = plans.filter((p) => p.checksResponse || p.down.length > 0);
    expect(checked.length).toBeGreaterThan(0);
    const answerBody = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record(
        {
          id: fc.jsonValue({ maxDepth: 1 }),
          workbookId: fc.jsonValue({ maxDepth: 1 }),
          legacyKey: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
          config: fc.jsonValue({ maxDepth: 2 }),
          version: fc.oneof(fc.constantFrom(1, 2, 3), fc.jsonValue({ maxDepth: 1 })),
          entries: fc.oneof(fc.array(fc.dictionary(fc.constantFrom('entryId', 'version', 'key'), fc.jsonValue({ maxDepth: 1 })), { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
          nextPageToken: fc.jsonValue({ maxDepth: 1 }),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...checked), answerBody, async (plan, body) => {
        const result = await outcome(() => translateResponse(plan, structuredClone(body), ctxOf({}, 'resp')));
        if ('ok' in result) expect(() => JSON.stringify(result.ok)).not.toThrow();
        else {
          // A 409 for an object saved under a newer version; a garbage answer is never a defect of the gateway (500).
          expect(result.error).toBeInstanceOf(GatewayError);
          expect((result.error as GatewayError).code).not.toBe('INTERNAL_ERROR');
        }
      }),
      { numRuns: NUM_RUNS * 2 },
    );
  });
});
