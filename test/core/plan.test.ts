// The per-method, per-version chains of migrations: which steps each kind of change contributes, in which order.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  custom,
  fieldAdded,
  fieldRemoved,
  fieldRenamed,
  fieldToArray,
  methodAdded,
  methodRemoved,
  object,
  request,
} from '../../src/core/contract-model/builders.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { Change, FieldAdded, Json, MethodSpec, MigrationContext, ObjectLocation, VersionSpec } from '../../src/core/contract-model/types.js';
import { GatewayError } from '../../src/core/errors.js';
import { translateRequest, translateResponse } from '../../src/core/translate/engine.js';
import { buildPlan, buildPlans, type MethodPlan, planKey, requirePlan } from '../../src/core/translate/plan.js';
import { NO_SERVICES } from '../helpers/no-services.js';

const ctx: MigrationContext = { clientVersion: 1, callBackend: async () => ({}), principal: 'p', state: new Map(), services: NO_SERVICES };
const spec = (objects?: ObjectLocation[]): MethodSpec => ({
  request: z.looseObject({}),
  response: z.looseObject({}),
  ...(objects && { objects }),
});
const version = (n: number, methods: Record<string, MethodSpec>, changes: Change[] = [], additions?: FieldAdded[]): VersionSpec => ({
  version: n,
  methods,
  changes,
  ...(additions && { additions }),
});
const planOf = (versions: VersionSpec[], at: number, method: string): MethodPlan => {
  const plan = buildPlan(loadContract({ versions }), at, method);
  if (!plan) throw new Error(`no plan for ${method} at ${at}`);
  return plan;
};
/** Runs the down-steps without the object-version guard, to see what they do to any body. */
const runDown = async (plan: MethodPlan, body: Json): Promise<Json> => {
  let current = body;
  for (const step of plan.down) current = await step(current, ctx);
  return current;
};
const up = (plan: MethodPlan, body: Json) => translateRequest(plan, structuredClone(body), ctx);
/** A migration that appends `mark` to the body's trail. */
const mark = (m: string) => (b: Json): Json => ({ ...b, trail: [...((b.trail as string[] | undefined) ?? []), m] });

describe('request field changes, translated up', () => {
  const versions = (): VersionSpec[] => [
    version(1, { make: spec() }),
    version(2, { make: spec() }, [
      fieldAdded(request('make'), 'size', { w: 1 }, 'make takes size'),
      fieldRenamed(request('make'), 'name', 'title', 'make: name is title'),
      fieldRemoved(request('make'), 'opts.color', 'make drops opts.color'),
      fieldToArray(request('make'), 'tag', 'make takes tags'),
    ]),
    version(3, { make: spec() }, [
      fieldRenamed(request('make'), 'title', 'label', 'make: title is label'),
      fieldRenamed(request('make'), 'a.b.c', 'z', 'make: a.b.c moves up'),
    ]),
  ];
  const v1 = () => planOf(versions(), 1, 'make');

  it('applies the changes of each later version, in declaration order', async () => {
    expect(await up(v1(), { name: 'n', opts: { color: 'c' }, tag: 't', a: { b: { c: 5 } } })).toStrictEqual({
      size: { w: 1 },
      label: 'n',
      tag: ['t'],
      z: 5,
    });
    expect(await up(planOf(versions(), 2, 'make'), { title: 'n', size: 3 })).toStrictEqual({ label: 'n', size: 3 });
  });

  it('fills an added field only when absent, with a fresh copy of its default each time', async () => {
    const first = await up(v1(), {});
    (first.size as { w: number }).w = 99;
    expect(await up(v1(), {})).toStrictEqual({ size: { w: 1 } });
    expect(await up(v1(), { size: null })).toStrictEqual({ size: null });
  });

  it('removes a field and the containers it leaves empty, and only those', async () => {
    expect(await up(v1(), { size: 1, opts: { color: 'c', shape: 's' } })).toStrictEqual({ size: 1, opts: { shape: 's' } });
    expect(await up(v1(), { size: 1, opts: {} })).toStrictEqual({ size: 1, opts: {} });
    expect(await up(v1(), { size: 1, a: { b: { c: 5 }, d: 1 } })).toStrictEqual({ size: 1, a: { d: 1 }, z: 5 });
  });

  it('wraps a scalar in an array, leaving an array, an absent field and an undefined one alone', async () => {
    expect(await up(v1(), { size: 1, tag: ['t'] })).toStrictEqual({ size: 1, tag: ['t'] });
    expect(await up(v1(), { size: 1 })).toStrictEqual({ size: 1 });
    expect(await up(v1(), { size: 1, tag: undefined })).toStrictEqual({ size: 1, tag: undefined });
  });

  it('leaves the request of another method alone', async () => {
    const others = [
      version(1, { make: spec(), other: spec() }),
      version(2, { make: spec(), other: spec() }, [fieldRenamed(request('other'), 'name', 'title', 'other: name is title')]),
    ];
    const plan = planOf(others, 1, 'make');
    expect(plan.up).toEqual([]);
    expect(await up(plan, { name: 'n' })).toStrictEqual({ name: 'n' });
  });

  it('translates nothing at the head, and nothing down for request changes', () => {
    const head = planOf(versions(), 3, 'make');
    expect(head).toMatchObject({ passThrough: true, up: [], down: [], checksResponse: false, head: 3, version: 3 });
    expect(v1()).toMatchObject({ passThrough: false, down: [], checksResponse: false, upstreamMethod: 'make', head: 3, version: 1 });
    expect(v1().up).toHaveLength(6);
  });
});

describe('response field changes, translated down', () => {
  const versions = (): VersionSpec[] => [
    version(1, { get: spec() }),
    version(2, { get: spec() }, [
      fieldRenamed({ response: 'get' }, 'name', 'title', 'get: name is title'),
      fieldRemoved({ response: 'get' }, 'color', 'get loses color', { downDefault: 'black' }),
      fieldRemoved({ response: 'get' }, 'shade', 'get loses shade'),
      fieldToArray({ response: 'get' }, 'tag', 'get answers tags'),
      fieldAdded({ response: 'get' }, 'extra', 0, 'get answers extra'),
    ]),
    version(3, { get: spec() }, [fieldRenamed({ response: 'get' }, 'a.b.c', 'z', 'get: a.b.c moves up')]),
  ];
  const v1 = () => planOf(versions(), 1, 'get');

  it('undoes each version from the head down', async () => {
    expect(await runDown(v1(), { title: 'n', tag: ['t', 'u'], extra: 1, z: 5 })).toStrictEqual({
      name: 'n',
      tag: 't',
      extra: 1,
      color: 'black',
      a: { b: { c: 5 } },
    });
    expect(v1().up).toEqual([]);
    expect(v1().down).toHaveLength(4);
    expect(v1().checksResponse).toBe(true);
  });

  it('gives an emptied array as undefined and leaves a scalar alone', async () => {
    expect(await runDown(v1(), { tag: [], color: 'red' })).toStrictEqual({ tag: undefined, color: 'red' });
    expect(await runDown(v1(), { tag: 'x', color: 'red' })).toStrictEqual({ tag: 'x', color: 'red' });
  });

  it('leaves a response without the renamed field alone', async () => {
    expect(await runDown(v1(), { color: 'red' })).toStrictEqual({ color: 'red' });
  });
});

describe('the order of migrations', () => {
  const step = (name: string, kind: 'request' | 'response') =>
    custom({ description: name, compatible: false, covers: [], [kind]: { get: mark(name) } });
  const versions = (): VersionSpec[] => [
    version(1, { get: spec() }),
    version(2, { get: spec() }, [step('A2', 'request'), step('B2', 'request'), step('a2', 'response'), step('b2', 'response')]),
    version(3, { get: spec() }, [step('C3', 'request'), step('c3', 'response')]),
  ];

  it('runs up-migrations from the client version to the head, each version in declaration order', async () => {
    expect(await translateRequest(planOf(versions(), 1, 'get'), {}, ctx)).toEqual({ trail: ['A2', 'B2', 'C3'] });
  });

  it('runs down-migrations from the head to the client version, each version in reverse declaration order', async () => {
    expect(await translateResponse(planOf(versions(), 1, 'get'), {}, ctx)).toEqual({ trail: ['c3', 'b2', 'a2'] });
    expect(await translateResponse(planOf(versions(), 2, 'get'), {}, ctx)).toEqual({ trail: ['c3'] });
  });
});

describe('object changes', () => {
  const widget = (fields: Json): Json => ({ id: 'w', version: 1, ...fields });
  const versions = (): VersionSpec[] => [
    version(1, {
      get: spec([{ type: 'widget', path: '' }]),
      list: spec([
        { type: 'widget', path: 'data.entries.*' },
        { type: 'owner', path: 'data.owner' },
      ]),
      nest: spec([{ type: 'widget', path: 'holder.widget' }]),
      ownerOnly: spec([{ type: 'owner', path: '' }]),
      plain: spec(),
    }),
    version(
      2,
      {
        get: spec([{ type: 'widget', path: '' }]),
        list: spec([
          { type: 'widget', path: 'data.entries.*' },
          { type: 'owner', path: 'data.owner' },
        ]),
        nest: spec([{ type: 'widget', path: 'holder.widget' }]),
        ownerOnly: spec([{ type: 'owner', path: '' }]),
        plain: spec(),
      },
      [
        fieldRenamed(object('widget'), 'name', 'title', 'widgets: name is title'),
        fieldRemoved(object('owner'), 'mail', 'owners lose mail', { downDefault: 'none' }),
        custom({ description: 'widgets are marked', compatible: false, covers: [], object: { widget: mark('custom') } }),
      ],
    ),
  ];

  it('migrates an object that is the body itself', async () => {
    expect(await runDown(planOf(versions(), 1, 'get'), widget({ title: 't' }))).toStrictEqual(widget({ name: 't', trail: ['custom'] }));
  });

  it('migrates each object element of an array, several levels down, and leaves the rest', async () => {
    const body = { data: { entries: [widget({ title: 'a' }), 5, null, widget({})], owner: { id: 'o', version: 1 } } };
    expect(await runDown(planOf(versions(), 1, 'list'), body)).toStrictEqual({
      data: {
        entries: [widget({ name: 'a', trail: ['custom'] }), 5, null, widget({ trail: ['custom'] })],
        owner: { id: 'o', version: 1, mail: 'none' },
      },
    });
  });

  it('migrates an object held in a field of an object, and nothing held otherwise', async () => {
    const nest = planOf(versions(), 1, 'nest');
    expect(await runDown(nest, { holder: { widget: widget({ title: 'a' }) } })).toStrictEqual({
      holder: { widget: widget({ name: 'a', trail: ['custom'] }) },
    });
    expect(await runDown(nest, { holder: [{ widget: widget({ title: 'a' }) }] })).toStrictEqual({ holder: [{ widget: widget({ title: 'a' }) }] });
    expect(await runDown(nest, { holder: { widget: 'text' } })).toStrictEqual({ holder: { widget: 'text' } });
    expect(await runDown(nest, { holder: 'text' })).toStrictEqual({ holder: 'text' });
  });

  it('fills no object field added after the client version, and adds no step for another method’s response', async () => {
    const later = [
      version(1, { get: spec([{ type: 'widget', path: '' }]), other: spec() }),
      version(2, { get: spec([{ type: 'widget', path: '' }]), other: spec() }, [
        fieldRenamed(object('widget'), 'name', 'title', 'widgets: name is title'),
        fieldAdded(object('widget'), 'size', 1, 'widgets have size'),
        fieldRenamed({ response: 'other' }, 'a', 'b', 'other: a is b'),
      ]),
    ];
    const plan = planOf(later, 1, 'get');
    expect(plan.down).toHaveLength(1);
    expect(await runDown(plan, widget({ title: 't' }))).toStrictEqual(widget({ name: 't' }));
  });

  it('runs a custom change’s object migrations before its response migration, the reverse of the way up', async () => {
    const both = [
      version(1, { get: spec([{ type: 'widget', path: '' }]) }),
      version(2, { get: spec([{ type: 'widget', path: '' }]) }, [
        custom({ description: 'both', compatible: false, covers: [], response: { get: mark('response') }, object: { widget: mark('object') } }),
      ]),
    ];
    expect(await runDown(planOf(both, 1, 'get'), widget({}))).toStrictEqual(widget({ trail: ['object', 'response'] }));
  });

  it('adds steps only for the object types a method holds', () => {
    expect(planOf(versions(), 1, 'ownerOnly').down).toHaveLength(1);
    expect(planOf(versions(), 1, 'plain').down).toHaveLength(0);
    expect(planOf(versions(), 1, 'plain').checksResponse).toBe(false);
    expect(planOf(versions(), 1, 'get').guarded).toEqual([{ type: 'widget', path: '' }]);
  });

  it('guards objects against newer versions before migrating them', async () => {
    await expect(translateResponse(planOf(versions(), 1, 'get'), widget({ version: 2 }), ctx)).rejects.toMatchObject({
      code: 'UNSUPPORTED_OBJECT_VERSION',
    });
    expect(planOf(versions(), 1, 'get').checksResponse).toBe(true);
  });
});

describe('removed methods', () => {
  const versions = (): VersionSpec[] => [
    version(1, { old: spec(), keep: spec(), other: spec(), dead: spec(), gone: spec(), kept: spec() }),
    version(
      2,
      { fresh: spec([{ type: 'widget', path: '' }]), keep: spec() },
      [
        custom({ description: 'old steps', compatible: false, covers: [], request: { old: mark('O') }, response: { old: mark('o') } }),
        methodRemoved('old', 'old is fresh', { method: 'fresh', request: mark('R'), response: mark('r') }),
        custom({ description: 'more old steps', compatible: false, covers: [], request: { old: mark('P') }, response: { old: mark('p') } }),
        methodAdded('fresh', 'fresh is new'),
        methodRemoved('other', 'other is keep', { method: 'keep' }),
        methodRemoved('dead', 'dead is gone'),
        methodRemoved('gone', 'gone is keep without migrations', { method: 'keep' }),
        methodRemoved('kept', 'kept is gone here, still served to version 1', 'kept-by-backend'),
        fieldRenamed(object('widget'), 'name', 'title', 'widgets: name is title'),
      ],
    ),
    version(3, { fresh: spec([{ type: 'widget', path: '' }]), keep: spec() }, [
      custom({ description: 'fresh steps', compatible: false, covers: [], request: { fresh: mark('F') }, response: { fresh: mark('f') } }),
    ]),
  ];

  it('serves a removed method through its replacement, bridging after the version’s other steps', async () => {
    const plan = planOf(versions(), 1, 'old');
    expect(plan.upstreamMethod).toBe('fresh');
    expect(plan.guarded).toEqual([{ type: 'widget', path: '' }]);
    expect(await translateRequest(plan, {}, ctx)).toEqual({ trail: ['O', 'P', 'R', 'F'] });
    expect(await runDown(plan, { id: 'w', version: 1, title: 't' })).toStrictEqual({ id: 'w', version: 1, name: 't', trail: ['f', 'p', 'o', 'r'] });
    expect(plan).not.toHaveProperty('unservable');
  });

  it('keeps the name of a method whose neighbour is replaced', () => {
    const plan = planOf(versions(), 1, 'keep');
    expect(plan.upstreamMethod).toBe('keep');
    expect(plan.up).toEqual([]);
    expect(plan.down).toEqual([]);
  });

  it('runs no migration for a replacement that declares none', async () => {
    const plan = planOf(versions(), 1, 'gone');
    expect(plan.upstreamMethod).toBe('keep');
    expect(plan.up).toEqual([]);
    expect(plan.down).toEqual([]);
    expect(await translateResponse(plan, { a: 1 }, ctx)).toEqual({ a: 1 });
  });

  it('marks a method removed without replacement as unservable', () => {
    const plan = planOf(versions(), 1, 'dead');
    expect(plan.unservable).toBe('dead was removed without a replacement');
    expect(plan.upstreamMethod).toBe('dead');
    expect(plan.guarded).toEqual([]);
  });

  it('forwards a method the backend keeps under its own name, unchanged and servable', async () => {
    const plan = planOf(versions(), 1, 'kept');
    expect(plan).toMatchObject({ upstreamMethod: 'kept', up: [], down: [], guarded: [], passThrough: false, checksResponse: false });
    expect(plan).not.toHaveProperty('unservable');
    expect(await translateRequest(plan, { a: 1 }, ctx)).toEqual({ a: 1 });
    expect(buildPlan(loadContract({ versions: versions() }), 2, 'kept')).toBeUndefined();
  });

  it('builds no plan for a method absent at the version', () => {
    expect(buildPlan(loadContract({ versions: versions() }), 2, 'old')).toBeUndefined();
  });
});

describe('defaults of compatible additions', () => {
  const got = { id: 'g', version: 1 };
  const versions = (): VersionSpec[] => [
    version(
      1,
      { get: spec([{ type: 'widget', path: '' }]), other: spec() },
      [],
      [
        fieldAdded({ response: 'get' }, 'note', 'n1', 'get answers note'),
        fieldAdded(object('widget'), 'size', 1, 'widgets have size'),
        fieldAdded({ response: 'get' }, 'keepMe', 'k', 'get answers keepMe'),
        fieldAdded(object('widget'), 'tint', 't', 'widgets have tint'),
        fieldAdded({ response: 'get' }, 'renamed', 'r', 'get answers renamed'),
        fieldAdded({ response: 'get' }, 'covered', 'c', 'get answers covered'),
        fieldAdded({ response: 'get' }, 'kept2', 'k2', 'get answers kept2'),
        fieldAdded(request('get'), 'q', 0, 'get takes q'),
        fieldAdded(object('widget'), 'gone', 'g', 'widgets have gone'),
        fieldAdded({ response: 'get' }, 'pairA', 'a', 'get answers pairA'),
        fieldAdded({ response: 'get' }, 'pairB', 'b', 'get answers pairB'),
      ],
    ),
    version(2, { get: spec([{ type: 'widget', path: '' }]), other: spec() }, [
      fieldRemoved({ response: 'get' }, 'note', 'get loses note'),
      fieldRemoved(request('get'), 'keepMe', 'a request field of the same name goes'),
      fieldRemoved({ response: 'other' }, 'keepMe', 'another method loses a field of the same name'),
      fieldRemoved(object('gadget'), 'tint', 'another object type loses a field of the same name'),
      fieldRenamed({ response: 'get' }, 'renamed', 'label', 'get: renamed is label'),
      custom({ description: 'covered is owned', compatible: false, covers: [{ target: { response: 'get' }, path: 'covered' }] }),
      custom({ description: 'kept2 is not owned', compatible: true, covers: [{ target: { response: 'get' }, path: 'kept2' }] }),
      fieldToArray({ response: 'other' }, 'x', 'other answers x as a list'),
      fieldAdded({ response: 'get' }, 'later', 'L', 'get answers later'),
      fieldRemoved(object('widget'), 'gone', 'widgets lose gone'),
      custom({
        description: 'pairA and pairB are owned',
        compatible: false,
        covers: [
          { target: { response: 'get' }, path: 'pairA' },
          { target: { response: 'get' }, path: 'pairB' },
        ],
      }),
    ]),
    version(3, { get: spec([{ type: 'widget', path: '' }]), other: spec() }, [fieldRemoved({ response: 'other' }, 'y', 'other loses y')]),
  ];

  it('fills the defaults known at the client version, under their names at that version', async () => {
    expect(await runDown(planOf(versions(), 2, 'get'), { ...got })).toStrictEqual({
      ...got,
      size: 1,
      keepMe: 'k',
      tint: 't',
      label: 'r',
      kept2: 'k2',
      later: 'L',
    });
  });

  it('does not fill a field added after the client version', async () => {
    expect(await runDown(planOf(versions(), 1, 'get'), { ...got })).toStrictEqual({
      ...got,
      note: 'n1',
      size: 1,
      keepMe: 'k',
      tint: 't',
      renamed: 'r',
      covered: 'c',
      kept2: 'k2',
      gone: 'g',
      pairA: 'a',
      pairB: 'b',
    });
  });

  it('adds no default steps to a method without the objects or the response they belong to', () => {
    expect(planOf(versions(), 2, 'other').down).toEqual([]);
  });

  it('keeps values the backend sent', async () => {
    const sent = { ...got, size: 7, keepMe: null, tint: 'x', label: 'l', kept2: 0, later: false };
    expect(await runDown(planOf(versions(), 2, 'get'), { ...sent })).toStrictEqual(sent);
  });

  it('translates nothing at the head', () => {
    const head = planOf(versions(), 3, 'get');
    expect(head.passThrough).toBe(true);
    expect(head.checksResponse).toBe(false);
  });
});

describe('a change of no known kind', () => {
  it('stops the plan with its kind named', () => {
    const bogus = { kind: 'bogus', description: 'from untyped code' } as unknown as Change;
    expect(() => planOf([version(1, { get: spec() }), version(2, { get: spec() }, [bogus])], 1, 'get')).toThrow('unknown change bogus');
  });
});

describe('checksResponse', () => {
  it('checks a response with objects to guard, or steps to run, below the head', () => {
    const versions = (): VersionSpec[] => [
      version(1, { guarded: spec([{ type: 'widget', path: '' }]), migrated: spec(), neither: spec() }),
      version(2, { guarded: spec([{ type: 'widget', path: '' }]), migrated: spec(), neither: spec() }, [
        fieldRemoved({ response: 'migrated' }, 'x', 'migrated loses x', { downDefault: 0 }),
      ]),
    ];
    expect(planOf(versions(), 1, 'guarded')).toMatchObject({ checksResponse: true, down: [] });
    expect(planOf(versions(), 1, 'migrated')).toMatchObject({ checksResponse: true, guarded: [] });
    expect(planOf(versions(), 1, 'neither').checksResponse).toBe(false);
    expect(planOf(versions(), 2, 'guarded').checksResponse).toBe(false);
  });
});

describe('buildPlans and requirePlan', () => {
  const fixture = () => {
    const loaded = loadContract({
      versions: [version(1, { a: spec(), b: spec() }), version(2, { a: spec() }, [methodRemoved('b', 'b is gone')])],
    });
    return { loaded, plans: buildPlans(loaded) };
  };

  it('plans every method at every version where it exists', () => {
    const { loaded, plans } = fixture();
    expect([...plans.keys()].sort()).toEqual(['1:a', '1:b', '2:a']);
    expect(planKey(2, 'a')).toBe('2:a');
    expect(requirePlan(plans, loaded, 2, 'a')).toBe(plans.get('2:a'));
  });

  it('refuses a method missing at the version, naming where it exists', () => {
    const { loaded, plans } = fixture();
    let error: unknown;
    try {
      requirePlan(plans, loaded, 2, 'b');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({
      code: 'ENDPOINT_NOT_FOUND',
      message: 'method b does not exist in API version 2',
      details: { method: 'b', requestedVersion: 2, availableIn: [1] },
    });
  });

  it('refuses an unknown method', () => {
    const { loaded, plans } = fixture();
    expect(() => requirePlan(plans, loaded, 1, 'zzz')).toThrow('no such method: zzz');
    try {
      requirePlan(plans, loaded, 1, 'zzz');
    } catch (e) {
      expect((e as GatewayError).details).toEqual({ method: 'zzz', requestedVersion: 1, availableIn: [] });
    }
  });
});
