// A client above the backend (src/core/translate/plan-down.ts), on the cases the round-trip properties do not reach:
// the order of a version's steps on objects and on the method, the reasons a method is not served, kinds the change
// does not touch, and a kind located only in requests.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { custom, fieldAdded, fieldRenamed, object, request, response } from '../../src/core/contract-model/builders.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { Json, MethodSpec, MigrationContext, VersionSpec } from '../../src/core/contract-model/types.js';
import { GatewayError } from '../../src/core/errors.js';
import { translateRequest, translateResponse, validateRequest } from '../../src/core/translate/engine.js';
import { buildPlan, type MethodPlan } from '../../src/core/translate/plan.js';
import { NO_SERVICES } from '../helpers/no-services.js';

const ctx = (): MigrationContext => ({ clientVersion: 2, principal: 'p', state: new Map(), services: NO_SERVICES, callBackend: async () => ({}) });
const down = (plan: MethodPlan, body: Json) => translateRequest(plan, validateRequest(plan, body), ctx());
const item = object('item');
const same = (b: Json) => b;

describe('one version: steps on objects run before the method own, whatever the declaration order', () => {
  // v2 renames an item's name to title, and a custom change adds `echo`, the item's title, to the request and `shout`,
  // the title in capitals, to the answer. Its written ways read the item in the older shape (down) and the newer one
  // (up): they work only if the objects are already translated. Declared after the rename, the custom change would come
  // first going down; declared before it, first going up.
  const versions = (customFirst: boolean): VersionSpec[] => {
    const spec = (v: 1 | 2): MethodSpec => {
      const it = v === 1 ? z.strictObject({ name: z.string() }) : z.strictObject({ title: z.string() });
      return {
        request: v === 1 ? z.strictObject({ item: it }) : z.strictObject({ item: it, echo: z.string() }),
        response: v === 1 ? z.strictObject({ item: it }) : z.strictObject({ item: it, shout: z.string() }),
        objects: [{ type: 'item', path: 'item' }],
        requestObjects: [{ type: 'item', path: 'item' }],
      };
    };
    return [
      { version: 1, methods: { create: spec(1) }, changes: [] },
      {
        version: 2,
        methods: { create: spec(2) },
        changes: ((rename, own) => (customFirst ? [own, rename] : [rename, own]))(
          fieldRenamed(item, 'name', 'title', 'an item name is its title'),
          custom({
            description: 'create echoes the title',
            compatible: false,
            covers: [{ target: request('create'), path: 'echo' }],
            request: { create: (b) => ({ ...b, echo: (b.item as Json).title }) },
            requestDown: {
              create: ({ echo, ...b }) => {
                if (echo !== (b.item as Json).name) throw new GatewayError('VERSION_TRANSLATION_FAILED', 'echo is not the title', { fields: ['echo'] });
                return b;
              },
            },
            response: { create: ({ shout: _s, ...b }) => b },
            responseUp: { create: (b) => ({ ...b, shout: String((b.item as Json).title).toUpperCase() }) },
          }),
        ),
      },
    ];
  };

  for (const customFirst of [false, true]) {
    it(`a request goes down with its objects in the older shape before the written way down runs (custom change declared ${customFirst ? 'first' : 'last'})`, async () => {
      const plan = buildPlan(loadContract({ versions: versions(customFirst) }), 2, 'create', 1)!;
      expect(await down(plan, { item: { title: 'Tea' }, echo: 'Tea' })).toEqual({ item: { name: 'Tea' } });
      await expect(down(plan, { item: { title: 'Tea' }, echo: 'Coffee' })).rejects.toMatchObject({ code: 'VERSION_TRANSLATION_FAILED' });
    });

    it(`an answer comes up with its objects in the newer shape before the written way up runs (custom change declared ${customFirst ? 'first' : 'last'})`, async () => {
      const plan = buildPlan(loadContract({ versions: versions(customFirst) }), 2, 'create', 1)!;
      expect(await translateResponse(plan, { item: { name: 'Tea', version: 1 } }, ctx())).toEqual({ item: { title: 'Tea', version: 1 }, shout: 'TEA' });
    });
  }
});

describe('a custom change of two kinds at once', () => {
  it('carries each kind its way, in requests and in answers', async () => {
    const kinds = (v: 1 | 2) => ({
      item: v === 1 ? z.strictObject({ n: z.number().int() }) : z.strictObject({ n: z.string() }),
      tag: v === 1 ? z.strictObject({ t: z.string() }) : z.strictObject({ label: z.string() }),
    });
    const spec = (v: 1 | 2): MethodSpec => {
      const { item: i, tag: t } = kinds(v);
      return {
        request: z.strictObject({ item: i, tag: t }),
        response: z.strictObject({ item: i, tag: t }),
        objects: [{ type: 'item', path: 'item' }, { type: 'tag', path: 'tag' }],
        requestObjects: [{ type: 'item', path: 'item' }, { type: 'tag', path: 'tag' }],
      };
    };
    const loaded = loadContract({
      versions: [
        { version: 1, methods: { both: spec(1) }, changes: [] },
        {
          version: 2,
          methods: { both: spec(2) },
          changes: [
            custom({
              description: 'items count in words, tags have labels',
              compatible: false,
              covers: [{ target: item, path: 'n' }, { target: object('tag'), path: 'label' }],
              object: { item: ({ n, ...o }) => ({ ...o, n: Number(n) }), tag: ({ label, ...o }) => ({ ...o, t: label }) },
              objectUp: { item: ({ n, ...o }) => ({ ...o, n: String(n) }), tag: ({ t, ...o }) => ({ ...o, label: t }) },
            }),
          ],
        },
      ],
    });
    const plan = buildPlan(loaded, 2, 'both', 1)!;
    expect(await down(plan, { item: { n: '4' }, tag: { label: 'x' } })).toEqual({ item: { n: 4 }, tag: { t: 'x' } });
    expect(await translateResponse(plan, { item: { n: 4, version: 1 }, tag: { t: 'x', version: 1 } }, ctx())).toEqual({ item: { n: '4', version: 1 }, tag: { label: 'x', version: 1 } });
  });
});

describe('what a written way down answers for', () => {
  // v2 names call's levels and adds `extra` to call's request (default 0). The custom change's requestDown answers for
  // call's `level` only: its covers also name `extra` in call's answer and in peer's request, which it does not carry.
  const versions = (): VersionSpec[] => {
    const call = (v: 1 | 2): MethodSpec => ({
      request: v === 1 ? z.strictObject({ level: z.number().int() }) : z.strictObject({ level: z.enum(['low', 'high']), extra: z.number().int().optional() }),
      response: z.looseObject({}),
    });
    const peer: MethodSpec = { request: z.looseObject({}), response: z.looseObject({}) };
    return [
      { version: 1, methods: { call: call(1), peer }, changes: [] },
      {
        version: 2,
        methods: { call: call(2), peer },
        changes: [
          fieldAdded(request('call'), 'extra', 0, 'call takes extra'),
          custom({
            description: 'levels are names',
            compatible: false,
            covers: [
              { target: request('call'), path: 'level' },
              { target: response('call'), path: 'extra' },
              { target: request('peer'), path: 'extra' },
            ],
            request: { call: (b) => ({ ...b, level: b.level === 1 ? 'low' : 'high' }) },
            requestDown: { call: (b) => ({ ...b, level: b.level === 'low' ? 1 : 2 }) },
          }),
        ],
      },
    ];
  };

  it('the request paths its change covers for that method, and no other', async () => {
    const plan = buildPlan(loadContract({ versions: versions() }), 2, 'call', 1)!;
    expect(plan.requestOwned).toEqual(['level']);
    // `level` changes form on the way, which the written way down answers for.
    expect(await down(plan, { level: 'high' })).toEqual({ level: 2 });
    expect(await down(plan, { level: 'low', extra: 0 })).toEqual({ level: 1 });
    // `extra` is not its own: a value older versions cannot carry is refused, named.
    await expect(down(plan, { level: 'low', extra: 5 })).rejects.toMatchObject({ code: 'VERSION_TRANSLATION_FAILED', details: { fields: ['extra'] } });
  });
});

describe('why a method is not served by a backend below the client', () => {
  const loose = (extra: Partial<MethodSpec> = {}): MethodSpec => ({ request: z.looseObject({}), response: z.looseObject({}), ...extra });

  it('a custom change that migrates a request with no way down (and no oneWay) names what it lacks', () => {
    const loaded = loadContract({
      versions: [
        { version: 1, methods: { call: loose(), quiet: loose() }, changes: [] },
        { version: 2, methods: { call: loose(), quiet: loose() }, changes: [custom({ description: 'calls are stamped', compatible: false, covers: [], request: { call: same } })] },
      ],
    });
    expect(buildPlan(loaded, 2, 'call', 1)!.notServed).toBe(`version 2's change "calls are stamped" declares no way down for call's request; the backend speaks API version 1`);
    expect(buildPlan(loaded, 2, 'quiet', 1)!.notServed).toBeUndefined();
  });

  it('a method the backend version does not have, even without a declared methodAdded', () => {
    const loaded = loadContract({
      versions: [
        { version: 1, methods: { call: loose() }, changes: [] },
        { version: 2, methods: { call: loose(), extra: loose() }, changes: [custom({ description: 'a change', compatible: false, covers: [] })] },
      ],
    });
    const plan = buildPlan(loaded, 2, 'extra', 1)!;
    expect(plan.notServed).toBe('extra does not exist in API version 1');
    expect(plan.backendRequest).toBeUndefined();
    expect(plan.guarded).toEqual([]);
  });

  it('an object change without a way up stops only the methods that answer that kind', async () => {
    const versions: VersionSpec[] = [1, 2].map((v) => ({
      version: v,
      methods: {
        get: loose({ objects: [{ type: 'item', path: '' }] }),
        tags: loose({ objects: [{ type: 'tag', path: 'tags.*' }] }),
        // A kind located only in the request: nothing of it comes back up, so no way up is needed.
        put: { request: z.strictObject({ item: z.strictObject({ k: z.string() }) }), response: z.strictObject({ ok: z.boolean() }), requestObjects: [{ type: 'item', path: 'item' }] },
      },
      changes: v === 1 ? [] : [custom({ description: 'items grow', compatible: false, covers: [{ target: item, path: 'extra' }], object: { item: same } })],
    }));
    const loaded = loadContract({ versions });
    expect(buildPlan(loaded, 2, 'get', 1)!.notServed).toBe(`version 2's change "items grow" declares no way up for item objects; the backend speaks API version 1`);
    expect(buildPlan(loaded, 2, 'tags', 1)!.notServed).toBeUndefined();
    const put = buildPlan(loaded, 2, 'put', 1)!;
    expect(put.notServed).toBeUndefined();
    expect(await down(put, { item: { k: 'x' } })).toEqual({ item: { k: 'x' } });
    expect(await translateResponse(put, { ok: true }, ctx())).toEqual({ ok: true });
  });
});
