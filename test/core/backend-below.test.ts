// A backend below the client's version, in the core alone: every kind of change carried down and back up, for every
// pair of versions (client above backend) of a small contract. Down then up gives back what the client sent (and an
// answer up then down gives back what the backend answered), or the request is refused with the fields named.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { custom, fieldAdded, fieldConverted, fieldRemoved, fieldRenamed, fieldToArray, methodAdded, object, request, response } from '../../src/core/contract-model/builders.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { Json, MethodSpec, MigrationContext, VersionSpec } from '../../src/core/contract-model/types.js';
import { GatewayError } from '../../src/core/errors.js';
import { lostPaths, translateRequest, translateResponse, validateRequest } from '../../src/core/translate/engine.js';
import { buildPlan, buildPlans, type MethodPlan } from '../../src/core/translate/plan.js';
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

const PRIORITIES = ['low', 'mid', 'high'] as const;
const dims = z.strictObject({ w: z.number().int(), h: z.number().int() });
const id = z.strictObject({ id: z.string() });
const ok = z.strictObject({ ok: z.boolean() });
// The widget kind per version: v2 renames name → title, adds size (default 1), removes draft (older read false);
// v3 moves color into style.color.
const widgets = {
  1: z.strictObject({ id: z.string(), name: z.string(), color: z.string(), tag: z.string().optional(), draft: z.boolean(), version: z.number().int() }),
  2: z.strictObject({ id: z.string(), title: z.string(), color: z.string(), size: z.number().int(), tag: z.string().optional(), version: z.number().int() }),
  3: z.strictObject({ id: z.string(), title: z.string(), style: z.strictObject({ color: z.string() }), dims: dims, tag: z.string().optional(), version: z.number().int() }),
} as const;
const newWidget = {
  1: z.strictObject({ name: z.string(), color: z.string(), tag: z.string().optional(), draft: z.boolean().optional() }),
  2: z.strictObject({ title: z.string(), color: z.string(), size: z.number().int().optional(), tag: z.string().optional() }),
  3: z.strictObject({ title: z.string(), style: z.strictObject({ color: z.string() }), dims: dims.optional(), tag: z.string().optional() }),
} as const;

function methods(v: 1 | 2 | 3): Record<string, MethodSpec> {
  const widget = widgets[v];
  return {
    createWidget: { request: z.strictObject({ widget: newWidget[v] }), response: widget, objects: [{ type: 'widget', path: '' }], requestObjects: [{ type: 'widget', path: 'widget' }] },
    getWidget: { request: id, response: widget, objects: [{ type: 'widget', path: '' }] },
    // v2: the tag filter becomes a list.
    // v3: the answer's `items` is named `results`.
    listWidgets: {
      request: z.strictObject({ tag: v === 1 ? z.string().optional() : z.array(z.string()).optional() }),
      response: v === 3 ? z.strictObject({ results: z.array(widget) }) : z.strictObject({ items: z.array(widget) }),
      objects: [{ type: 'widget', path: v === 3 ? 'results.*' : 'items.*' }],
    },
    archiveWidget: { request: v === 3 ? z.strictObject({ id: z.string(), reason: z.string() }) : id, response: ok },
    ...(v >= 2 && {
      // v3: a priority number (1-3) becomes a name.
      // v3 also answers what it set.
      setPriority: { request: z.strictObject({ id: z.string(), priority: v === 2 ? z.number().int().min(1).max(3) : z.enum(PRIORITIES) }), response: v === 3 ? ok.extend({ set: z.literal(true) }) : ok },
      cloneWidget: { request: id, response: widget, objects: [{ type: 'widget', path: '' }] },
    }),
  };
}

const widget = object('widget');
const versions: VersionSpec[] = [
  { version: 1, methods: methods(1), changes: [] },
  {
    version: 2,
    methods: methods(2),
    changes: [
      fieldRenamed(widget, 'name', 'title', 'name is title'),
      fieldAdded(widget, 'size', 1, 'widgets have a size'),
      fieldRemoved(widget, 'draft', 'draft is gone', { downDefault: false }),
      fieldToArray(request('listWidgets'), 'tag', 'filter by several tags'),
      methodAdded('setPriority', 'priorities'),
      methodAdded('cloneWidget', 'clones'),
    ],
  },
  {
    version: 3,
    methods: methods(3),
    changes: [
      // First, so that an older client's answer is renamed back last (the objects are located in v3's shape going down).
      fieldRenamed(response('listWidgets'), 'items', 'results', 'listWidgets answers results'),
      fieldConverted(widget, 'color', 'style.color', { up: (c, existing) => existing ?? c, down: (c) => c }, 'color moves into style'),
      custom({
        description: 'priorities are names',
        compatible: false,
        covers: [{ target: request('setPriority'), path: 'priority' }],
        request: { setPriority: (b) => ({ ...b, priority: PRIORITIES[(b.priority as number) - 1] }) },
        requestDown: { setPriority: (b) => ({ ...b, priority: PRIORITIES.indexOf(b.priority as (typeof PRIORITIES)[number]) + 1 }) },
        response: { setPriority: ({ set: _set, ...b }) => b },
        responseUp: { setPriority: (b) => ({ ...b, set: true }) },
      }),
      custom({
        description: 'a widget has dimensions for its size',
        compatible: false,
        covers: [{ target: widget, path: 'size' }, { target: widget, path: 'dims' }],
        object: { widget: ({ dims: d, ...w }) => (d === undefined ? w : { ...w, size: (d as Json).w }) },
        objectUp: { widget: ({ size, ...w }) => (size === undefined ? w : { ...w, dims: { w: size, h: size } }) },
      }),
      custom({
        description: 'archiving takes a reason',
        compatible: false,
        covers: [{ target: request('archiveWidget'), path: 'reason' }],
        request: { archiveWidget: (b) => ({ ...b, reason: 'unknown' }) },
        oneWay: 'an archive reason has no place below version 3',
      }),
    ],
  },
];
const loaded = loadContract({ versions });

const text = fc.string({ maxLength: 6 });
const requestOf: Record<string, (v: 1 | 2 | 3) => fc.Arbitrary<Json>> = {
  createWidget: (v) =>
    fc.record({
      widget: fc.record<Json>(
        (v === 1
          ? { name: text, color: text, tag: text, draft: fc.boolean() }
          : v === 2
            ? { title: text, color: text, size: fc.integer({ min: 0, max: 5 }), tag: text }
            : { title: text, style: fc.record({ color: text }), dims: fc.record({ w: fc.integer({ min: 0, max: 3 }), h: fc.integer({ min: 0, max: 3 }) }), tag: text }) as Record<string, fc.Arbitrary<unknown>>,
        { requiredKeys: v === 1 ? ['name', 'color'] : v === 2 ? ['title', 'color'] : ['title', 'style'] },
      ),
    }),
  getWidget: () => fc.record({ id: text }),
  listWidgets: (v) => fc.record({ tag: v === 1 ? text : fc.array(text, { maxLength: 3 }) }, { requiredKeys: [] }),
  setPriority: (v) => fc.record({ id: text, priority: v === 2 ? fc.integer({ min: 1, max: 3 }) : fc.constantFrom(...PRIORITIES) }),
};
const answerOf = (v: 1 | 2 | 3, backend: number): fc.Arbitrary<Json> => {
  const stamp = fc.integer({ min: 1, max: backend });
  return fc.record<Json>(
    (v === 1
      ? // A field removed above the backend is not the client's: its answers carry only the value older versions read for it.
        { id: text, name: text, color: text, tag: text, draft: fc.constant(false), version: stamp }
      : v === 2
        ? { id: text, title: text, color: text, size: fc.integer(), tag: text, version: stamp }
        : { id: text, title: text, style: fc.record({ color: text }), dims: fc.record({ w: fc.integer(), h: fc.integer() }), tag: text, version: stamp }) as Record<string, fc.Arbitrary<unknown>>,
    { requiredKeys: v === 1 ? ['id', 'name', 'color', 'draft', 'version'] : v === 2 ? ['id', 'title', 'color', 'size', 'version'] : ['id', 'title', 'style', 'size', 'version'] },
  );
};

const PAIRS = [[2, 1], [3, 1], [3, 2]] as const;

/** The request translated down, or the refusal's fields. */
async function down(plan: MethodPlan, body: Json): Promise<{ sent: Json } | { fields: string[] }> {
  try {
    return { sent: await translateRequest(plan, validateRequest(plan, structuredClone(body)), ctx()) };
  } catch (e) {
    if (!(e instanceof GatewayError) || e.code !== 'VERSION_TRANSLATION_FAILED') throw e;
    return { fields: (e.details as { fields: string[] }).fields };
  }
}

describe('a client above the backend', () => {
  for (const [client, backend] of PAIRS) {
    for (const method of Object.keys(requestOf)) {
      if (!loaded.byVersion.get(backend)!.methods[method] || !loaded.byVersion.get(client)!.methods[method]) continue;
      it(`v${client} → backend v${backend}, ${method}: the request down and up again is what the client sent, or refused with the fields named`, async () => {
        const above = buildPlan(loaded, client, method, backend)!;
        const below = buildPlan(loaded, backend, method, client)!;
        expect(above.notServed).toBeUndefined();
        await fc.assert(
          fc.asyncProperty(requestOf[method]!(client), async (body) => {
            const valid = validateRequest(above, structuredClone(body));
            const result = await down(above, body);
            if ('fields' in result) {
              expect(result.fields.length).toBeGreaterThan(0);
              return;
            }
            // What the backend gets is a request of its own version.
            expect(methodsAt(backend)[method]!.request.safeParse(result.sent).success).toBe(true);
            const again = await translateRequest(below, validateRequest(below, structuredClone(result.sent)), ctx());
            expect(lostPaths(valid, again)).toEqual([]);
          }),
          { numRuns: 150 },
        );
      });
    }
    for (const method of ['createWidget', 'getWidget', 'listWidgets', ...(backend >= 2 ? ['setPriority'] : [])]) {
      it(`v${client} → backend v${backend}, ${method}: the answer up and down again is what the backend answered, in the client's shape`, async () => {
        const above = buildPlan(loaded, client, method, backend)!;
        const below = buildPlan(loaded, backend, method, client)!;
        const answer = method === 'setPriority' ? fc.record({ ok: fc.boolean() }) : method === 'listWidgets' ? fc.record({ items: fc.array(answerOf(backend as 1 | 2, backend), { maxLength: 3 }) }) : answerOf(backend as 1 | 2, backend);
        await fc.assert(
          fc.asyncProperty(answer, async (body) => {
            const up = (await translateResponse(above, structuredClone(body), ctx())) as Json;
            const parsed = methodsAt(client)[method]!.response.safeParse(up);
            expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
            const back = await translateResponse(below, structuredClone(up), ctx());
            expect(lostPaths(body, back)).toEqual([]);
          }),
          { numRuns: 150 },
        );
      });
    }
  }
});

const methodsAt = (v: number) => loaded.byVersion.get(v)!.methods;

describe('what a backend below cannot serve', () => {
  it('refuses a list the older single value cannot carry, naming the field, and carries a one-item list', async () => {
    const plan = buildPlan(loaded, 2, 'listWidgets', 1)!;
    expect(await down(plan, { tag: ['a', 'b'] })).toEqual({ fields: ['tag.1'] });
    expect(await down(plan, { tag: ['a'] })).toEqual({ sent: { tag: 'a' } });
  });

  it('refuses a field added above the backend unless it holds its default', async () => {
    const plan = buildPlan(loaded, 2, 'createWidget', 1)!;
    expect(await down(plan, { widget: { title: 't', color: 'c', size: 3 } })).toEqual({ fields: ['widget.size'] });
    expect(await down(plan, { widget: { title: 't', color: 'c', size: 1 } })).toEqual({ sent: { widget: { name: 't', color: 'c', draft: false } } });
  });

  it('refuses an object the older shape cannot carry through a custom change, naming the field', async () => {
    const plan = buildPlan(loaded, 3, 'createWidget', 2)!;
    expect(await down(plan, { widget: { title: 't', style: { color: 'c' }, dims: { w: 2, h: 3 } } })).toEqual({ fields: ['widget.dims.h'] });
    expect(await down(plan, { widget: { title: 't', style: { color: 'c' }, dims: { w: 2, h: 2 } } })).toEqual({ sent: { widget: { title: 't', color: 'c', size: 2 } } });
    expect(await down(buildPlan(loaded, 3, 'createWidget', 1)!, { widget: { title: 't', style: { color: 'c' }, dims: { w: 2, h: 2 } } })).toEqual({ fields: ['widget.dims.w', 'widget.dims.h'] });
  });

  it('does not serve a method added above the backend, nor one whose change is one-way, and says why', () => {
    const plans = buildPlans(loaded, 1);
    expect(plans.get('2:cloneWidget')!.notServed).toBe('cloneWidget was added in API version 2; the backend speaks API version 1');
    expect(plans.get('3:archiveWidget')!.notServed).toBe('an archive reason has no place below version 3; the backend speaks API version 1');
    expect(plans.get('2:archiveWidget')!.notServed).toBeUndefined();
    expect(buildPlans(loaded, 2).get('3:archiveWidget')!.notServed).toMatch(/^an archive reason/);
  });

  it('serves a method added above the backend at the version servedAt names: through at that version, translated down to it above', async () => {
    const plans = buildPlans(loaded, 1, new Map([['setPriority', 2]]));
    expect(plans.get('2:setPriority')).toMatchObject({ head: 2, passThrough: true });
    expect(plans.get('2:setPriority')!.notServed).toBeUndefined();
    const above = plans.get('3:setPriority')!;
    expect(above).toMatchObject({ head: 2, passThrough: false });
    expect(await down(above, { id: 'a', priority: 'high' })).toEqual({ sent: { id: 'a', priority: 3 } });
    expect(await translateResponse(above, { ok: true }, ctx())).toEqual({ ok: true, set: true });
    // The other methods still go to the backend's own version.
    expect(plans.get('2:getWidget')!.head).toBe(1);
    expect(plans.get('2:cloneWidget')!.notServed).toMatch(/^cloneWidget was added in API version 2/);
  });

  it('passes a client at the backend version through, and plans a client below it up to the backend only', () => {
    const plans = buildPlans(loaded, 2);
    expect(plans.get('2:getWidget')!.passThrough).toBe(true);
    expect(plans.get('1:getWidget')!.head).toBe(2);
    expect(plans.get('1:getWidget')!.kinds!.get('widget')!.changedAt).toEqual([2]);
  });
});
