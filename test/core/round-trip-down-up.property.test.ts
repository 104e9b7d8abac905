// Down and back up, as properties, for every kind of declared change and every pair of versions (client above the
// backend), on small synthetic contracts: one per change kind, each kind declared on a method's request, on its
// answer and on an object kind (located in requests and answers, at the body itself and in a listing). Bodies are
// generated from the contract's own zod schemas (z.toJSONSchema → test/helpers/json-schema-arbitrary.ts).
//
// Requests: a request valid at the client's version c, translated down to the backend's b < c, is a request of b
// that translates back up to exactly what the client sent, or it is refused (VERSION_TRANSLATION_FAILED) with the
// fields named, never silently narrowed. A request that came up from b is always carried down (no needless refusal).
// Answers: an answer at b translated up is an answer of c, and translated down to b again gives back the backend's
// answer, except for the fields the contract removed between b and c (which c cannot carry by declaration).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  custom,
  fieldAdded,
  fieldConverted,
  fieldMoved,
  fieldRemoved,
  fieldRenamed,
  fieldToArray,
  methodAdded,
  methodRemoved,
  object,
  request,
  response,
} from '../../src/core/contract-model/builders.js';
import { type LoadedContract, loadContract, methodAt } from '../../src/core/contract-model/load.js';
import type { Change, FieldAdded, Json, MethodSpec, MigrationContext, Target, VersionSpec } from '../../src/core/contract-model/types.js';
import { GatewayError } from '../../src/core/errors.js';
import { lostPaths, translateRequest, translateResponse, validateRequest } from '../../src/core/translate/engine.js';
import { collect } from '../../src/core/translate/paths.js';
import { buildPlan, buildPlans, type MethodPlan } from '../../src/core/translate/plan.js';
import { arbitraryOf } from '../helpers/json-schema-arbitrary.js';
import { NO_SERVICES } from '../helpers/no-services.js';

const ctx = (): MigrationContext => ({
  clientVersion: 0,
  principal: 'test',
  state: new Map(),
  services: NO_SERVICES,
  callBackend: async () => {
    throw new Error('no backend here');
  },
});

type V = 1 | 2 | 3;
type Side = 'request' | 'answer';
/** The fields a scenario changes, per version and side (requests may omit what answers always carry). */
type Fields = (v: V, side: Side) => Record<string, z.ZodType>;

const item = object('item');
/** The three places a field change may target: `call`'s request, `call`'s answer, the `item` kind. */
const TARGETS: readonly Target[] = [request('call'), response('call'), item];

/**
 * A contract of three versions whose methods carry the scenario's fields: `call` (its request and answer), `get` (an
 * item as the answer), `list` (items in a listing), `create` (an item in the request and the answer).
 */
function contractOf(fields: Fields, changes: (v: 2 | 3) => Change[], extra: (v: V) => Record<string, MethodSpec> = () => ({}), additions?: (v: V) => FieldAdded[] | undefined): VersionSpec[] {
  const itemAt = (v: V) => z.strictObject({ id: z.string(), version: z.number().int().min(1).max(v), ...fields(v, 'answer') });
  const methods = (v: V): Record<string, MethodSpec> => ({
    call: { request: z.strictObject({ key: z.string(), ...fields(v, 'request') }), response: z.strictObject({ ok: z.boolean(), ...fields(v, 'answer') }) },
    get: { request: z.strictObject({ id: z.string() }), response: itemAt(v), objects: [{ type: 'item', path: '' }] },
    list: { request: z.strictObject({}), response: z.strictObject({ items: z.array(itemAt(v)) }), objects: [{ type: 'item', path: 'items.*' }] },
    create: {
      request: z.strictObject({ item: z.strictObject(fields(v, 'request')) }),
      response: itemAt(v),
      objects: [{ type: 'item', path: '' }],
      requestObjects: [{ type: 'item', path: 'item' }],
    },
    // The fields as version 1 has them, at every version: no change targets twin, so none of call's may touch it.
    twin: { request: z.strictObject({ key: z.string(), ...fields(1, 'request') }), response: z.strictObject({ ok: z.boolean(), ...fields(1, 'answer') }) },
    ...extra(v),
  });
  return ([1, 2, 3] as const).map((v) => {
    const adds = additions?.(v);
    return { version: v, methods: methods(v), changes: v === 1 ? [] : changes(v), ...(adds && { additions: adds }) };
  });
}

/** The same change on each of the three targets. */
const onEach = (make: (t: Target) => Change): Change[] => TARGETS.map(make);

const LEVELS = ['low', 'mid', 'high'] as const;
const refuse = (field: string) =>
  new GatewayError('VERSION_TRANSLATION_FAILED', `cannot carry ${field}`, { field, fields: [field], reason: 'test' });

interface Scenario {
  readonly name: string;
  readonly versions: () => VersionSpec[];
}

/** One scenario per kind of change; each changes its fields at version 2 and again at version 3, so 3 → 1 chains two. */
const SCENARIOS: readonly Scenario[] = [
  {
    name: 'fieldAdded (and a compatible addition shipped in a version)',
    versions: () =>
      contractOf(
        (v, side) => {
          const opt = <T extends z.ZodType>(s: T) => (side === 'request' ? s.optional() : s);
          return {
            k: z.string(),
            ...(v >= 2 && { a: opt(z.number().int()) }),
            ...(v >= 3 && { b: opt(z.enum(['x', 'y'])), c: opt(z.boolean()) }),
          };
        },
        (v) => (v === 2 ? onEach((t) => fieldAdded(t, 'a', 0, 'a appears')) : onEach((t) => fieldAdded(t, 'b', 'x', 'b appears'))),
        undefined,
        (v) => (v === 3 ? TARGETS.map((t) => fieldAdded(t, 'c', true, 'c shipped while 3 is current')) : undefined),
      ),
  },
  {
    name: 'fieldRemoved (with and without the value older clients read)',
    versions: () =>
      contractOf(
        (v, side) => {
          const opt = <T extends z.ZodType>(s: T) => (side === 'request' ? s.optional() : s);
          return { k: z.string(), ...(v <= 1 && { r: opt(z.string()) }), ...(v <= 2 && { s: opt(z.number().int()) }) };
        },
        (v) => (v === 2 ? onEach((t) => fieldRemoved(t, 'r', 'r is gone', { downDefault: 'old' })) : onEach((t) => fieldRemoved(t, 's', 's is gone'))),
      ),
  },
  {
    name: 'fieldRenamed (a rename, a move to another depth, a rename inside array elements)',
    versions: () =>
      contractOf(
        (v, side) => {
          const opt = <T extends z.ZodType>(s: T) => (side === 'request' ? s.optional() : s);
          return {
            k: z.string(),
            ...(v === 1 && { n: opt(z.string()) }),
            ...(v === 2 && { title: opt(z.string()) }),
            ...(v === 3 && { meta: opt(z.strictObject({ title: z.string() })) }),
            rows: opt(z.array(v === 3 ? z.strictObject({ label: z.number().int() }) : z.strictObject({ n: z.number().int() }))),
          };
        },
        (v) =>
          v === 2
            ? onEach((t) => fieldRenamed(t, 'n', 'title', 'n is title'))
            : [...onEach((t) => fieldMoved(t, 'title', 'meta.title', 'title moves into meta')), ...onEach((t) => fieldRenamed(t, 'rows.*.n', 'rows.*.label', 'rows label'))],
      ),
  },
  {
    name: 'fieldRenamed with a conversion (a colour → a themed pair, a number → its decimal text)',
    versions: () =>
      contractOf(
        (v, side) => {
          const opt = <T extends z.ZodType>(s: T) => (side === 'request' ? s.optional() : s);
          return {
            k: z.string(),
            ...(v === 1 ? { color: opt(z.enum(['red', 'blue'])) } : { theme: opt(z.strictObject({ light: z.enum(['red', 'blue']), dark: z.enum(['red', 'blue']) })) }),
            ...(v <= 2 ? { count: opt(z.number().int()) } : { amount: opt(z.string()) }),
          };
        },
        (v) =>
          v === 2
            ? onEach((t) =>
                fieldConverted(t, 'color', 'theme', { up: (c, existing) => existing ?? { light: c, dark: c }, down: (th) => (th as Json).light }, 'colour is themed'),
              )
            : onEach((t) => fieldConverted(t, 'count', 'amount', { up: (n) => String(n), down: (s) => (/^-?[1-9][0-9]{0,14}$|^0$/.test(s as string) ? Number(s) : s) }, 'count is text')),
      ),
  },
  {
    name: 'fieldToArray',
    versions: () =>
      contractOf(
        (v, side) => {
          const opt = <T extends z.ZodType>(s: T) => (side === 'request' ? s.optional() : s);
          return {
            k: z.string(),
            tag: opt(v === 1 ? z.string() : z.array(z.string())),
            cat: opt(v <= 2 ? z.number().int() : z.array(z.number().int())),
          };
        },
        (v) => (v === 2 ? onEach((t) => fieldToArray(t, 'tag', 'tags')) : onEach((t) => fieldToArray(t, 'cat', 'cats'))),
      ),
  },
  {
    name: 'custom (written ways down and up: requestDown, responseUp, object, objectUp)',
    versions: () =>
      contractOf(
        (v, side) => {
          const opt = <T extends z.ZodType>(s: T) => (side === 'request' ? s.optional() : s);
          return {
            k: z.string(),
            level: opt(v === 1 ? z.number().int().min(1).max(3) : z.enum(LEVELS)),
            ...(v <= 2 ? { size: opt(z.number().int().min(0).max(9)) } : { dims: opt(z.strictObject({ w: z.number().int().min(0).max(9), h: z.number().int().min(0).max(9) })) }),
          };
        },
        (v) => {
          const named = (b: Json): Json => (b.level === undefined ? b : { ...b, level: LEVELS[(b.level as number) - 1] });
          const numbered = (b: Json): Json => (b.level === undefined ? b : { ...b, level: LEVELS.indexOf(b.level as (typeof LEVELS)[number]) + 1 });
          const toDims = ({ size, ...b }: Json): Json => (size === undefined ? b : { ...b, dims: { w: size, h: size } });
          const toSize = ({ dims, ...b }: Json): Json => (dims === undefined ? b : { ...b, size: (dims as Json).w });
          const toSizeOrRefuse = (b: Json): Json => {
            const d = b.dims as { w: number; h: number } | undefined;
            if (d && d.w !== d.h) throw refuse('dims.h');
            return toSize(b);
          };
          if (v === 2) {
            return [
              custom({
                description: 'levels are names',
                compatible: false,
                covers: [{ target: request('call'), path: 'level' }, { target: response('call'), path: 'level' }, { target: item, path: 'level' }],
                request: { call: named },
                requestDown: { call: numbered },
                response: { call: numbered },
                responseUp: { call: named },
                object: { item: numbered },
                objectUp: { item: named },
              }),
            ];
          }
          return [
            custom({
              description: 'a size is two dimensions',
              compatible: false,
              covers: [{ target: request('call'), path: 'dims' }, { target: response('call'), path: 'dims' }, { target: item, path: 'dims' }],
              request: { call: toDims },
              requestDown: { call: toSizeOrRefuse },
              response: { call: toSize },
              responseUp: { call: toDims },
              object: { item: toSize },
              objectUp: { item: toDims },
            }),
          ];
        },
      ),
  },
  {
    name: 'several changes of one version on one field (undone in reverse order going down)',
    versions: () =>
      contractOf(
        (v, side) => {
          const opt = <T extends z.ZodType>(s: T) => (side === 'request' ? s.optional() : s);
          return {
            k: z.string(),
            ...(v === 1 && { n: opt(z.string()) }),
            ...(v === 2 && { name: opt(z.array(z.string())) }),
            ...(v === 3 && { meta: opt(z.strictObject({ label: z.array(z.string()) })) }),
          };
        },
        (v) =>
          v === 2
            ? [...onEach((t) => fieldRenamed(t, 'n', 'name', 'n is name')), ...onEach((t) => fieldToArray(t, 'name', 'names'))]
            : [...onEach((t) => fieldRenamed(t, 'name', 'label', 'name is label')), ...onEach((t) => fieldMoved(t, 'label', 'meta.label', 'label moves into meta'))],
      ),
  },
  {
    name: 'methodAdded and methodRemoved (replaced, kept by the backend)',
    versions: () =>
      contractOf(
        () => ({ k: z.string() }),
        (v) =>
          v === 2
            ? [methodAdded('fresh', 'fresh appears'), methodRemoved('stale', 'stale is fresh', { method: 'fresh' })]
            : [methodRemoved('legacy', 'legacy leaves the contract', 'kept-by-backend'), methodAdded('newest', 'newest appears')],
        (v) => ({
          ...(v === 1 && { stale: { request: z.strictObject({ q: z.string() }), response: z.strictObject({ n: z.number().int() }) } }),
          ...(v >= 2 && { fresh: { request: z.strictObject({ q: z.string() }), response: z.strictObject({ n: z.number().int() }) } }),
          ...(v <= 2 && { legacy: { request: z.strictObject({ q: z.string() }), response: z.strictObject({ n: z.number().int() }) } }),
          ...(v === 3 && { newest: { request: z.strictObject({}), response: z.strictObject({ n: z.number().int() }) } }),
          echo: { request: z.strictObject({ q: z.string(), n: z.number().int().optional() }), response: z.strictObject({ q: z.string() }) },
        }),
      ),
  },
];

const PAIRS = [
  [2, 1],
  [3, 1],
  [3, 2],
] as const;

const loadedOf = (s: Scenario) => loadContract({ versions: s.versions() });

/** A body of `schema`, generated from its JSON Schema. */
const bodyOf = (schema: z.ZodType) => arbitraryOf(z.toJSONSchema(schema) as Record<string, unknown>, 0, 6) as fc.Arbitrary<Json>;

/** Whether a dotted path (array indexes as numbers) reaches a value of `body`. */
function reaches(body: unknown, path: string): boolean {
  let node = body;
  for (const part of path.split('.')) {
    if (Array.isArray(node) && /^[0-9]+$/.test(part) && Number(part) < node.length) node = node[Number(part)];
    else if (typeof node === 'object' && node !== null && !Array.isArray(node) && Object.hasOwn(node, part)) node = (node as Json)[part];
    else return false;
  }
  return true;
}

/** The request translated down, or the refusal's fields and message. */
async function down(plan: MethodPlan, body: Json): Promise<{ sent: Json } | { fields: string[]; message: string; lossless: boolean }> {
  try {
    return { sent: await translateRequest(plan, validateRequest(plan, structuredClone(body)), ctx()) };
  } catch (e) {
    if (!(e instanceof GatewayError) || e.code !== 'VERSION_TRANSLATION_FAILED') throw e;
    const details = e.details as { fields: string[]; reason: string };
    return { fields: details.fields, message: e.message, lossless: details.reason.startsWith('these fields do not translate') };
  }
}

/**
 * The answer fields of `method` at `b` that changes of `kind` declare in (b, c]: those removed are lost by declaration
 * on the way up to `c` and back; those added stay (an older client's answer keeps what a newer version added).
 */
function declaredBetween(loaded: LoadedContract, b: number, c: number, method: string, kind: 'fieldRemoved' | 'fieldAdded', side: Side = 'answer'): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const spec = methodAt(loaded, b, method);
  const locations = (side === 'answer' ? spec?.objects : spec?.requestObjects) ?? [];
  for (let v = b + 1; v <= c; v++) {
    const at = loaded.byVersion.get(v)!;
    for (const change of [...at.changes, ...(at.additions ?? [])]) {
      if (change.kind !== kind) continue;
      if (side === 'answer' ? 'response' in change.target && change.target.response === method : 'request' in change.target && change.target.request === method) out.set(change.path, change.kind === 'fieldAdded' ? change.default : undefined);
      if ('object' in change.target) for (const loc of locations) if (loc.type === change.target.object) out.set(loc.path === '' ? change.path : `${loc.path}.${change.path}`, change.kind === 'fieldAdded' ? change.default : undefined);
    }
  }
  return out;
}
/** The request paths of `method` that compatible additions of versions in (b, c] add, with their defaults. */
function additionsBetween(loaded: LoadedContract, b: number, c: number, method: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const locations = methodAt(loaded, c, method)?.requestObjects ?? [];
  for (let v = b + 1; v <= c; v++) {
    for (const a of loaded.byVersion.get(v)!.additions ?? []) {
      if ('request' in a.target && a.target.request === method) out.set(a.path, a.default);
      if ('object' in a.target) for (const loc of locations) if (loc.type === a.target.object) out.set(`${loc.path}.${a.path}`, a.default);
    }
  }
  return out;
}

/** The value at a dotted path (array indexes as numbers), undefined when it reaches none. */
function valueAt(body: unknown, path: string): unknown {
  let node = body;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Json)[part];
  }
  return node;
}

const generic = (path: string) => path.replace(/\.[0-9]+(?=\.|$)/g, '.*');

/** The methods a client at `c` calls that the backend at `b` serves. */
const servedMethods = (loaded: LoadedContract, c: number, b: number) =>
  Object.keys(loaded.byVersion.get(c)!.methods).filter((m) => buildPlan(loaded, c, m, b)!.notServed === undefined);

const RUNS = 60;

describe('requests down to a backend below the client, and back up', () => {
  for (const scenario of SCENARIOS) {
    for (const [c, b] of PAIRS) {
      it(`${scenario.name}: v${c} → backend v${b}: what the backend gets translates back up to what the client sent, or the request is refused naming the fields`, async () => {
        const loaded = loadedOf(scenario);
        let carried = 0;
        for (const method of servedMethods(loaded, c, b)) {
          const above = buildPlan(loaded, c, method, b)!;
          const below = buildPlan(loaded, b, method, c)!;
          // Above the backend a call is always translated, under its own name, and its answer always checked.
          expect(above).toMatchObject({ method, version: c, head: b, upstreamMethod: method, passThrough: false, checksResponse: true });
          const added = declaredBetween(loaded, b, c, method, 'fieldAdded', 'request');
          const additions = additionsBetween(loaded, b, c, method);
          await fc.assert(
            fc.asyncProperty(bodyOf(above.spec.request), async (body) => {
              const valid = validateRequest(above, structuredClone(body));
              const result = await down(above, body);
              if ('fields' in result) {
                // Refused: the fields are named, in the message too; a loss is named in the client's own terms.
                expect(result.fields.length).toBeGreaterThan(0);
                for (const f of result.fields) expect(result.message).toContain(f);
                if (result.lossless) for (const f of result.fields) expect(reaches(valid, f), `${f} of ${JSON.stringify(valid)}`).toBe(true);
                return;
              }
              // Carried: a request of the backend's version, which its way up turns back into what the client sent.
              carried++;
              const parsed = methodAt(loaded, b, method)!.request.safeParse(result.sent);
              expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
              const again = await translateRequest(below, validateRequest(below, structuredClone(result.sent)), ctx());
              // A compatible addition (VersionSpec.additions) is not filled on the way up: the backend defaults it; the
              // client may have sent just that default.
              const lost = lostPaths(valid, again).filter((p) => !(additions.has(generic(p)) && Object.is(valueAt(valid, p), additions.get(generic(p)))));
              expect(lost).toEqual([]);
              // What the way up adds is the default of a field added in between, which the client left out.
              for (const p of lostPaths(again, valid)) {
                expect(added.has(generic(p)), `${p} in ${JSON.stringify(again)}`).toBe(true);
                expect(reaches(valid, p)).toBe(false);
              }
            }),
            { numRuns: RUNS },
          );
        }
        // Not every request is refused (the property above would then hold for nothing).
        expect(carried).toBeGreaterThan(0);
      });

      it(`${scenario.name}: v${c} → backend v${b}: a request that came up from the backend's version is carried down, never refused`, async () => {
        const loaded = loadedOf(scenario);
        for (const method of servedMethods(loaded, c, b)) {
          const above = buildPlan(loaded, c, method, b)!;
          const below = buildPlan(loaded, b, method, c)!;
          await fc.assert(
            fc.asyncProperty(bodyOf(below.spec.request), async (older) => {
              const newer = await translateRequest(below, validateRequest(below, structuredClone(older)), ctx());
              const result = await down(above, newer);
              expect(result).toHaveProperty('sent');
              // Down again, then up: the same request of the client's version.
              const again = await translateRequest(below, validateRequest(below, structuredClone((result as { sent: Json }).sent)), ctx());
              expect(again).toEqual(newer);
            }),
            { numRuns: RUNS },
          );
        }
      });
    }
  }
});

describe('answers up from a backend below the client, and back down', () => {
  for (const scenario of SCENARIOS) {
    for (const [c, b] of PAIRS) {
      it(`${scenario.name}: backend v${b} → v${c}: the answer is one of the client's version and goes back down to the backend's, but for the fields removed in between`, async () => {
        const loaded = loadedOf(scenario);
        for (const method of servedMethods(loaded, c, b)) {
          const above = buildPlan(loaded, c, method, b)!;
          const below = buildPlan(loaded, b, method, c)!;
          const removed = declaredBetween(loaded, b, c, method, 'fieldRemoved');
          const added = declaredBetween(loaded, b, c, method, 'fieldAdded');
          await fc.assert(
            fc.asyncProperty(bodyOf(methodAt(loaded, b, method)!.response), async (answer) => {
              const up = (await translateResponse(above, structuredClone(answer), ctx())) as Json;
              const parsed = above.spec.response.safeParse(up);
              expect(parsed.success, `${JSON.stringify(answer)} → ${JSON.stringify(up)}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
              const back = (await translateResponse(below, structuredClone(up), ctx())) as Json;
              const lost = lostPaths(answer, back).filter((p) => !removed.has(generic(p)));
              expect(lost, `${JSON.stringify(answer)} → ${JSON.stringify(up)} → ${JSON.stringify(back)}`).toEqual([]);
              // Nothing is made up on the way either: what comes back different is a field added or removed in between.
              const made = lostPaths(back, answer).filter((p) => !removed.has(generic(p)) && !added.has(generic(p)));
              expect(made, `${JSON.stringify(answer)} → ${JSON.stringify(up)} → ${JSON.stringify(back)}`).toEqual([]);
            }),
            { numRuns: RUNS },
          );
        }
      });
    }
  }
});

describe('methods a backend below the client does not serve', () => {
  it('a method added above the backend, or replaced by one, is not served, and says which version added it', () => {
    const loaded = loadedOf(SCENARIOS.find((s) => s.name.startsWith('methodAdded'))!);
    for (const [c, b] of PAIRS) {
      const plans = buildPlans(loaded, b);
      for (const method of Object.keys(loaded.byVersion.get(c)!.methods)) {
        const plan = plans.get(`${c}:${method}`)!;
        const addedAt = loaded.availableIn.get(method)![0]!;
        if (addedAt > b) expect(plan.notServed, `${c}:${method} from ${b}`).toBe(`${method} was added in API version ${addedAt}; the backend speaks API version ${b}`);
        else expect(plan.notServed, `${c}:${method} from ${b}`).toBeUndefined();
      }
      // The methods the client's version no longer has are not planned at all.
      expect(plans.has(`${c}:stale`)).toBe(false);
    }
    expect(buildPlans(loaded, 2).has('3:legacy')).toBe(false);
  });

  it('a custom change without a way back names what it lacks, or says oneWay why, for every pair it lies between', () => {
    const versions = contractOf(
      (v) => ({ k: z.string(), ...(v === 3 && { extra: z.string().optional() }) }),
      (v) =>
        v === 2
          ? [custom({ description: 'calls are stamped', compatible: false, covers: [], request: { call: (b) => b }, oneWay: 'a stamp has no place below 2' })]
          : [
              custom({ description: 'answers grow', compatible: false, covers: [{ target: response('call'), path: 'extra' }], response: { call: (b) => b } }),
              custom({ description: 'items grow', compatible: false, covers: [{ target: item, path: 'extra' }], object: { item: (o) => o } }),
            ],
    );
    const loaded = loadContract({ versions });
    expect(buildPlan(loaded, 2, 'call', 1)!.notServed).toBe('a stamp has no place below 2; the backend speaks API version 1');
    expect(buildPlan(loaded, 3, 'call', 2)!.notServed).toBe(`version 3's change "answers grow" declares no way up for call's answer; the backend speaks API version 2`);
    for (const m of ['get', 'list', 'create']) {
      expect(buildPlan(loaded, 3, m, 2)!.notServed).toBe(`version 3's change "items grow" declares no way up for item objects; the backend speaks API version 2`);
      expect(buildPlan(loaded, 3, m, 1)!.notServed).toMatch(/^version 3's change "items grow"/);
      expect(buildPlan(loaded, 2, m, 1)!.notServed).toBeUndefined();
    }
    // The newest version's gap is found first, going down.
    expect(buildPlan(loaded, 3, 'call', 1)!.notServed).toMatch(/^version 3's change "answers grow"/);
  });
});
