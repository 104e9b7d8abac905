// A plan's kind histories (plan.kinds, read by the object-version guard): which versions touch each kind the head
// answer locates, the object-level steps both ways of each field change (on the kind itself, or on the answer around
// it, relative to where the kind sits), and why a kind has no round trip (a replaced method, a whole-answer migration,
// an object migration without a way back, a covered object without a migration). Also a custom change's request step
// (objects first, then the method's own), and object kinds located in requests.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  custom,
  fieldAdded,
  fieldConverted,
  fieldRemoved,
  fieldRenamed,
  fieldToArray,
  methodAdded,
  methodRemoved,
  object,
  request,
  response,
} from '../../src/core/contract-model/builders.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { BodyMigration, Change, Json, MethodSpec, MigrationContext, ObjectLocation, VersionSpec } from '../../src/core/contract-model/types.js';
import { translateRequest } from '../../src/core/translate/engine.js';
import type { KindHistory, ObjectStep } from '../../src/core/translate/guard.js';
import { buildPlan, type MethodPlan } from '../../src/core/translate/plan.js';
import { NO_SERVICES } from '../helpers/no-services.js';

const ctx = (): MigrationContext => ({ clientVersion: 1, principal: 'p', state: new Map(), services: NO_SERVICES, callBackend: async () => ({}) });
const spec = (objects?: ObjectLocation[], requestObjects?: ObjectLocation[]): MethodSpec => ({
  request: z.looseObject({}),
  response: z.looseObject({}),
  ...(objects && { objects }),
  ...(requestObjects && { requestObjects }),
});
const version = (n: number, methods: Record<string, MethodSpec>, changes: Change[] = []): VersionSpec => ({ version: n, methods, changes });
const planOf = (versions: VersionSpec[], at: number, method: string): MethodPlan => {
  const plan = buildPlan(loadContract({ versions }), at, method);
  if (!plan) throw new Error(`no plan for ${method} at ${at}`);
  return plan;
};
const historyOf = (plan: MethodPlan, type: string): KindHistory => {
  const h = plan.kinds?.get(type);
  if (!h) throw new Error(`no history of ${type}`);
  return h;
};
const run = async (steps: readonly ObjectStep[], o: Json): Promise<Json> => {
  let current = structuredClone(o);
  for (const step of steps) current = await step(current, ctx());
  return current;
};
/** A migration that appends `m` to the body's trail. */
const mark = (m: string): BodyMigration => (b: Json): Json => ({ ...b, trail: [...((b.trail as string[] | undefined) ?? []), m] });
/** What a history says, without its steps (which are run separately). */
const summary = (h: KindHistory) => ({ keys: Object.keys(h).sort(), changedAt: h.changedAt, up: h.up.length, down: h.down.length, noWayBack: h.noWayBack });

describe('field changes declared on a kind', () => {
  const versions = (): VersionSpec[] => {
    const methods = { get: spec([{ type: 'widget', path: '' }]) };
    return [
      version(1, methods),
      version(2, methods, [
        fieldAdded(object('widget'), 'size', 1, 'widgets have a size'),
        fieldRemoved(object('widget'), 'draft', 'widgets lose draft, false for older clients', { downDefault: false }),
        fieldRemoved(object('widget'), 'note', 'widgets lose note'),
        fieldConverted(object('widget'), 'color', 'style', { up: (v, existing) => ({ c: v, had: existing ?? null }), down: (v) => (v as { c: unknown }).c }, 'a colour is a style'),
        fieldToArray(object('widget'), 'tag', 'widgets have tags'),
      ]),
      version(3, methods, [fieldRenamed(object('widget'), 'name', 'title', 'a widget name is its title')]),
    ];
  };

  it('lists the versions that touch the kind, with one step up per change and one down per change that has a way down', () => {
    const h = historyOf(planOf(versions(), 1, 'get'), 'widget');
    expect(summary(h)).toEqual({ keys: ['changedAt', 'down', 'up'], changedAt: [2, 3], up: 6, down: 4, noWayBack: undefined });
    expect(summary(historyOf(planOf(versions(), 2, 'get'), 'widget'))).toEqual({ keys: ['changedAt', 'down', 'up'], changedAt: [3], up: 1, down: 1, noWayBack: undefined });
    expect(planOf(versions(), 3, 'get').kinds?.get('widget')).toEqual({ changedAt: [], down: [], up: [] });
  });

  it('carries an object saved at the client version up to the head, change by change', async () => {
    const h = historyOf(planOf(versions(), 1, 'get'), 'widget');
    expect(await run(h.up, { id: 'w', name: 'n', color: 'red', draft: true, note: 'x', tag: 't' })).toStrictEqual({
      id: 'w',
      title: 'n',
      style: { c: 'red', had: null },
      size: 1,
      tag: ['t'],
    });
    // An added field is filled only when absent.
    expect(await run(h.up, { id: 'w', size: 7 })).toStrictEqual({ id: 'w', size: 7 });
  });

  it('carries a head object down, the newest version first and each version in reverse declaration order', async () => {
    const h = historyOf(planOf(versions(), 1, 'get'), 'widget');
    expect(await run(h.down, { id: 'w', title: 'n', style: { c: 'red' }, size: 1, tag: ['t', 'u'] })).toStrictEqual({
      id: 'w',
      name: 'n',
      color: 'red',
      draft: false,
      size: 1,
      tag: 't',
    });
    // Without a value for older clients, a removed field is not restored (not even as undefined).
    expect(await run(h.down, { id: 'w' })).toStrictEqual({ id: 'w', draft: false });
  });
});

describe('answer changes reach the kinds located inside the changed path', () => {
  const versions = (): VersionSpec[] => {
    const methods = { get: spec([{ type: 'widget', path: 'data' }, { type: 'page', path: '' }]), other: spec() };
    return [
      version(1, methods),
      version(2, methods, [fieldRenamed(response('get'), 'data.name', 'data.title', 'get: data.name is data.title')]),
      version(3, methods, [
        fieldAdded(response('get'), 'meta.count', 0, 'get answers a count'),
        fieldRemoved(response('get'), 'database', 'get drops database'),
        fieldToArray(response('get'), 'datax', 'get answers datax as a list'),
        fieldAdded(response('get'), 'database.size', 0, 'a prefix of the path is not its parent'),
      ]),
      version(4, methods, [
        fieldRenamed(response('get'), 'data.size', 'size', 'get: the size moves out of data'),
        fieldRenamed(response('get'), 'count', 'data.count', 'get: the count moves into data'),
      ]),
      version(5, methods, [
        fieldRenamed(request('get'), 'name', 'title', 'get takes title'),
        fieldRenamed(response('other'), 'data.name', 'data.title', 'other: data.name is data.title'),
        fieldAdded(object('nobody'), 'x', 1, 'a kind get does not answer'),
      ]),
    ];
  };

  it('touches a kind only for changes under its location, not for changes outside, across its edge, to requests or to other methods', () => {
    const plan = planOf(versions(), 1, 'get');
    expect(summary(historyOf(plan, 'widget'))).toEqual({ keys: ['changedAt', 'down', 'up'], changedAt: [2], up: 1, down: 1, noWayBack: undefined });
    expect(historyOf(plan, 'page').changedAt).toEqual([2, 3, 4]);
    expect([...(plan.kinds?.keys() ?? [])]).toEqual(['widget', 'page']);
    expect(summary(historyOf(planOf(versions(), 4, 'get'), 'page'))).toEqual({ keys: ['changedAt', 'down', 'up'], changedAt: [], up: 0, down: 0, noWayBack: undefined });
  });

  it('gives the steps paths relative to the kind', async () => {
    const plan = planOf(versions(), 1, 'get');
    const widget = historyOf(plan, 'widget');
    expect(await run(widget.up, { id: 'w', name: 'n' })).toStrictEqual({ id: 'w', title: 'n' });
    expect(await run(widget.down, { id: 'w', title: 'n' })).toStrictEqual({ id: 'w', name: 'n' });
    // The kind at the answer's root sees the answer's own paths.
    const page = historyOf(plan, 'page');
    expect(await run(page.up, { data: { name: 'n', size: 2 }, database: 'x', datax: 'y', count: 3 })).toStrictEqual({
      data: { title: 'n', count: 3 },
      meta: { count: 0 },
      database: { size: 0 },
      datax: ['y'],
      size: 2,
    });
    expect(await run(page.down, { data: { title: 'n', count: 3 }, datax: ['y'], size: 2 })).toStrictEqual({
      data: { name: 'n', size: 2 },
      datax: 'y',
      count: 3,
    });
  });
});

describe('a replaced method', () => {
  const versions = (): VersionSpec[] => [
    version(1, { old: spec([{ type: 'widget', path: 'w' }]), other: spec(), get: spec([{ type: 'widget', path: '' }]) }),
    version(2, { fresh: spec([{ type: 'widget', path: 'item' }]), other2: spec(), get: spec([{ type: 'widget', path: '' }]) }, [
      fieldAdded(response('get'), 'size', 1, 'get answers a size'),
      methodRemoved('old', 'old is fresh', { method: 'fresh', response: mark('fresh') }),
      methodRemoved('other', 'other is other2', { method: 'other2' }),
    ]),
    version(3, { fresh: spec([{ type: 'widget', path: 'item' }]), other2: spec(), get: spec([{ type: 'widget', path: '' }]) }, [
      fieldRenamed(response('fresh'), 'item.name', 'item.title', 'fresh: item.name is item.title'),
      fieldRenamed(response('get'), 'name', 'title', 'get: name is title'),
    ]),
  ];

  it('leaves the kind without a round trip from the replacement on, and follows the new name for later changes', async () => {
    const plan = planOf(versions(), 1, 'old');
    expect(plan.upstreamMethod).toBe('fresh');
    const h = historyOf(plan, 'widget');
    expect(summary(h)).toEqual({ keys: ['changedAt', 'down', 'noWayBack', 'up'], changedAt: [2, 3], up: 1, down: 1, noWayBack: 'old is served by fresh from version 2' });
    expect(await run(h.up, { name: 'n' })).toStrictEqual({ title: 'n' });
  });

  it('does not touch the kinds of a method that another method’s replacement leaves alone', () => {
    expect(summary(historyOf(planOf(versions(), 1, 'get'), 'widget'))).toEqual({ keys: ['changedAt', 'down', 'up'], changedAt: [2, 3], up: 2, down: 1, noWayBack: undefined });
  });
});

describe('custom changes', () => {
  const objUp = mark('up');
  const widgetDown = mark('down');
  const gadgetDown = mark('gadget');
  const versions = (): VersionSpec[] => {
    const methods = {
      get: spec([
        { type: 'widget', path: '' },
        { type: 'gadget', path: 'g' },
        { type: 'thing', path: 't' },
        { type: 'part', path: 'p' },
      ]),
      other: spec(),
    };
    return [
      version(1, methods),
      version(2, methods, [
        custom({
          description: 'widgets and gadgets change; things too, without a migration',
          compatible: false,
          covers: [
            { target: object('widget'), path: 'a' },
            { target: object('thing'), path: 'y' },
            { target: request('get'), path: 'q' },
          ],
          object: { widget: widgetDown, gadget: gadgetDown },
          objectUp: { widget: objUp },
        }),
      ]),
      version(3, methods, [custom({ description: 'compatible: parts gain z', compatible: true, covers: [{ target: object('part'), path: 'z' }], response: { other: mark('other') } })]),
      version(4, methods, [custom({ description: 'parts change, and nothing says how', compatible: false, covers: [{ target: object('part'), path: 'z' }] })]),
      version(5, methods, [custom({ description: 'the whole answer changes', compatible: false, covers: [], response: { get: mark('whole') } })]),
    ];
  };

  it('takes an object migration and its way up as the kind’s steps', () => {
    const h = historyOf(planOf(versions(), 1, 'get'), 'widget');
    expect(h.up).toEqual([objUp]);
    expect(h.down).toEqual([widgetDown]);
    expect(h.changedAt).toEqual([2, 5]);
    // The first reason is kept: the whole answer's migration at version 5.
    expect(h.noWayBack).toBe("version 5 migrates get's whole answer");
    expect(summary(historyOf(planOf(versions(), 1, 'get'), 'gadget'))).toMatchObject({ changedAt: [2, 5], up: 0, down: 1 });
  });

  it('names the first reason a kind has no way back', () => {
    const plan = planOf(versions(), 1, 'get');
    expect(historyOf(plan, 'gadget').noWayBack).toBe("version 2's change to gadget declares no way back up");
    expect(historyOf(plan, 'thing').noWayBack).toBe('version 2 changes thing without an object migration');
    expect(summary(historyOf(plan, 'thing'))).toMatchObject({ changedAt: [2, 5], up: 0, down: 0 });
    // A compatible change's covers do not touch the kind; an incompatible one's do.
    expect(historyOf(plan, 'part').changedAt).toEqual([4, 5]);
    expect(historyOf(plan, 'part').noWayBack).toBe('version 4 changes part without an object migration');
  });

  it('has a round trip when the object migration comes with its way up', () => {
    const h = historyOf(planOf(versions().slice(0, 4), 1, 'get'), 'widget');
    expect(summary(h)).toEqual({ keys: ['changedAt', 'down', 'up'], changedAt: [2], up: 1, down: 1, noWayBack: undefined });
  });
});

describe('a custom change’s request step', () => {
  const seen: BodyMigration = (b) => ({ ...b, seen: structuredClone(b.widget ?? null) });
  const own: BodyMigration = mark('own');
  const versions = (): VersionSpec[] => {
    const methods = { make: spec(undefined, [{ type: 'widget', path: 'widget' }]), touch: spec() };
    return [
      version(1, methods),
      version(2, methods, [
        custom({
          description: 'widgets in requests change',
          compatible: false,
          covers: [],
          request: { make: seen, touch: own },
          object: { widget: mark('down') },
          objectUp: { widget: mark('objectUp'), gadget: mark('gadget') },
        }),
      ]),
    ];
  };

  it('translates the objects of the request first, then runs the method’s own migration', async () => {
    const plan = planOf(versions(), 1, 'make');
    expect(plan.up).toHaveLength(1);
    expect(await translateRequest(plan, { widget: { id: 'w' } }, ctx())).toStrictEqual({
      widget: { id: 'w', trail: ['objectUp'] },
      seen: { id: 'w', trail: ['objectUp'] },
    });
  });

  it('is the method’s own migration alone when the request locates none of the objects', async () => {
    const plan = planOf(versions(), 1, 'touch');
    expect(plan.up).toEqual([own]);
    expect(await translateRequest(plan, {}, ctx())).toStrictEqual({ trail: ['own'] });
  });
});

describe('object kinds located in requests', () => {
  const versions = (): VersionSpec[] => {
    const methods = {
      both: spec(undefined, [
        { type: 'owner', path: 'owner' },
        { type: 'widget', path: 'widget' },
      ]),
      ownerOnly: spec(undefined, [{ type: 'owner', path: 'owner' }]),
    };
    return [version(1, methods), version(2, methods, [fieldRenamed(object('widget'), 'name', 'title', 'a widget name is its title')])];
  };

  it('translates the kind up where the request locates it among others', async () => {
    const plan = planOf(versions(), 1, 'both');
    expect(await translateRequest(plan, { owner: { name: 'o' }, widget: { name: 'w' } }, ctx())).toStrictEqual({ owner: { name: 'o' }, widget: { title: 'w' } });
  });

  it('adds no step to a request that locates only other kinds', () => {
    expect(planOf(versions(), 1, 'ownerOnly').up).toEqual([]);
  });

  it('adds no step for a method the backend keeps, whose later versions have no spec', () => {
    const kept = [
      version(1, { old: spec(), get: spec([{ type: 'widget', path: '' }]) }),
      version(2, { get: spec([{ type: 'widget', path: '' }]) }, [methodRemoved('old', 'old is kept by the backend', 'kept-by-backend')]),
      version(3, { get: spec([{ type: 'widget', path: '' }]), added: spec() }, [
        fieldAdded(object('widget'), 'x', 1, 'widgets have x'),
        methodAdded('added', 'added is new'),
      ]),
    ];
    const plan = planOf(kept, 1, 'old');
    expect(plan).toMatchObject({ upstreamMethod: 'old', up: [], down: [], guarded: [] });
    expect(plan.unservable).toBeUndefined();
  });
});
