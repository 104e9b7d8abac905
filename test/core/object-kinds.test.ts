// Declarative changes through arrays and tagged unions, object kinds in requests and answers, and the check that
// refuses a declared change that would do nothing at run time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldAdded, fieldConverted, fieldRemoved, fieldRenamed, fieldToArray, object, request, response } from '../../src/core/contract-model/builders.js';
import { checkContract } from '../../src/core/contract-model/check.js';
import { ContractError, loadContract } from '../../src/core/contract-model/load.js';
import { schemaHas } from '../../src/core/contract-model/schema-paths.js';
import type { Change, Json, MethodSpec, MigrationContext, VersionSpec } from '../../src/core/contract-model/types.js';
import { translateRequest, translateResponse } from '../../src/core/translate/engine.js';
import { collect, splitAtElements, withoutFilters } from '../../src/core/translate/paths.js';
import { buildPlan, type MethodPlan } from '../../src/core/translate/plan.js';
import { NO_SERVICES } from '../helpers/no-services.js';

const ctx: MigrationContext = { clientVersion: 1, callBackend: async () => ({}), principal: 'p', state: new Map(), services: NO_SERVICES };
const open = z.looseObject({});
const version = (n: number, methods: Record<string, MethodSpec>, changes: Change[] = []): VersionSpec => ({ version: n, methods, changes });
const planOf = (versions: VersionSpec[], at: number, method: string): MethodPlan => {
  const plan = buildPlan(loadContract({ versions }), at, method);
  if (!plan) throw new Error(`no plan for ${method} at ${at}`);
  return plan;
};
const up = (plan: MethodPlan, body: Json) => translateRequest(plan, structuredClone(body), ctx);
const down = (plan: MethodPlan, body: Json) => translateResponse(plan, structuredClone(body), ctx) as Promise<Json>;

const board = (items: Json[]): Json => ({ tabs: [{ id: 't1', items }, { id: 't2', items: [] }] });

describe('paths with array steps and union members', () => {
  const body = board([
    { type: 'title', data: { textColor: 'red' } },
    { type: 'text', data: { textColor: 'blue' } },
    { type: 'title', data: {} },
  ]);

  it('collects every element, or only the members with the tag', () => {
    expect(collect(body, 'tabs.*.items.*.data.textColor')).toEqual(['red', 'blue']);
    expect(collect(body, 'tabs.*.items.*[type=title].data.textColor')).toEqual(['red']);
    expect(collect(body, 'tabs.*.items.*[type=title|text].data.textColor')).toEqual(['red', 'blue']);
    expect(collect(body, 'tabs.*.items.*[type=image]')).toEqual([]);
  });

  it('steps into a keyed member only when its tag matches', () => {
    const controls = { items: [{ data: { sourceType: 'manual', source: { elementType: 'select', fieldType: 's' } } }, { data: { sourceType: 'dataset', source: { fieldType: 'd' } } }] };
    expect(collect(controls, 'items.*.data[sourceType=manual].source[elementType=select|input].fieldType')).toEqual(['s']);
    expect(splitAtElements('items.*.data[sourceType=manual].source.fieldType')).toEqual({ base: 'items.*.data[sourceType=manual]', rest: 'source.fieldType' });
    expect(withoutFilters('items.*[type=x].data[sourceType=manual].source')).toBe('items.*.data.source');
  });

  it('splits a path at its last array step, and names schema places without the filters', () => {
    expect(splitAtElements('tabs.*.items.*[type=title].data.textColor')).toEqual({ base: 'tabs.*.items.*[type=title]', rest: 'data.textColor' });
    expect(splitAtElements('data.description')).toEqual({ base: '', rest: 'data.description' });
    expect(withoutFilters('a.*[type=x].b')).toBe('a.*.b');
  });

  it('refuses malformed and prototype-touching segments', () => {
    expect(() => collect(body, 'tabs.*[type=').length).toThrow(/malformed/);
    expect(() => collect(body, 'tabs.*[__proto__=x]')).toThrow(/forbidden/);
    expect(() => collect(body, 'a[0]')).toThrow(/malformed/);
  });
});

describe('field changes through arrays and tagged unions', () => {
  const versions = (): VersionSpec[] => [
    version(1, { save: { request: open, response: open } }),
    version(2, { save: { request: open, response: open } }, [
      fieldConverted(
        request('save'),
        'tabs.*.items.*[type=title].data.textColor',
        'tabs.*.items.*[type=title].data.textSettings.color',
        { up: (c) => ({ light: c, dark: c }), down: (t) => (t as Json).light },
        'titles: textColor becomes a themed pair',
      ),
      fieldRenamed(request('save'), 'tabs.*.items.*.data.note', 'tabs.*.items.*.data.comment', 'items: note is comment'),
      fieldRemoved(request('save'), 'tabs.*.legacy', 'tabs drop legacy'),
      fieldAdded(request('save'), 'tabs.*.hidden', false, 'tabs take hidden'),
      fieldToArray(request('save'), 'tabs.*.items.*[type=neuro].data.widgetTabId', 'neuro items take a list'),
    ]),
  ];

  it('migrates every element a path reaches, and only the tagged members', async () => {
    const sent = board([
      { type: 'title', data: { textColor: '#f00', note: 'a' } },
      { type: 'text', data: { textColor: '#0f0' } },
      { type: 'neuro', data: { widgetTabId: 'w' } },
    ]);
    (sent.tabs as Json[])[0]!.legacy = 1;
    expect(await up(planOf(versions(), 1, 'save'), sent)).toStrictEqual({
      tabs: [
        {
          id: 't1',
          hidden: false,
          items: [
            { type: 'title', data: { textSettings: { color: { light: '#f00', dark: '#f00' } }, comment: 'a' } },
            { type: 'text', data: { textColor: '#0f0' } },
            { type: 'neuro', data: { widgetTabId: ['w'] } },
          ],
        },
        { id: 't2', items: [], hidden: false },
      ],
    });
  });

  it('a conversion sees what the newer field already holds', async () => {
    const versions2 = [
      version(1, { save: { request: open, response: open } }),
      version(2, { save: { request: open, response: open } }, [
        fieldConverted(request('save'), 'items.*.id', 'items.*.ids', { up: (v, existing) => existing ?? [v], down: (ids) => (ids as unknown[])[0] }, 'ids'),
      ]),
    ];
    expect(await up(planOf(versions2, 1, 'save'), { items: [{ id: 'a' }, { id: 'b', ids: ['b', 'c'] }] })).toStrictEqual({
      items: [{ ids: ['a'] }, { ids: ['b', 'c'] }],
    });
  });

  it('round-trips any item list through the converted rename', async () => {
    const plan1 = planOf(versions(), 1, 'save');
    const item = fc.record({ type: fc.constantFrom('title', 'text'), data: fc.record({ textColor: fc.string({ minLength: 1 }) }, { requiredKeys: [] }) });
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 5 }), async (items) => {
        const sent = JSON.parse(JSON.stringify({ tabs: [{ id: 't', hidden: false, items }] })) as Json;
        const head = await up(plan1, sent);
        // Down on the same path walk (as the answer of an object would): the converted field comes back.
        const backSteps = planOf(
          [
            version(1, { save: { request: open, response: open } }),
            version(2, { save: { request: open, response: open } }, [
              fieldConverted(response('save'), 'tabs.*.items.*[type=title].data.textColor', 'tabs.*.items.*[type=title].data.textSettings.color', { up: (c) => ({ light: c, dark: c }), down: (t) => (t as Json).light }, 'pair'),
            ]),
          ],
          1,
          'save',
        );
        expect(await down(backSteps, head)).toStrictEqual(sent);
      }),
      { numRuns: 50 },
    );
  });
});

describe('object kinds: one change migrates requests up and answers down wherever the kind appears', () => {
  const entry = (extra: Json = {}) => z.looseObject({ ...extra });
  const dash = (n: number): MethodSpec => ({
    request: z.looseObject({ entry: entry() }),
    response: z.looseObject({ entry: entry({ data: z.looseObject({ description: z.string().optional() }) }) }),
    objects: [{ type: 'dashboard', path: 'entry', idField: 'entryId', versionField: 'apiVersion' }],
    requestObjects: [{ type: 'dashboard', path: 'entry' }],
    ...(n > 0 && {}),
  });
  const list: MethodSpec = {
    request: open,
    response: z.looseObject({ entries: z.array(z.looseObject({ scope: z.string(), data: open })) }),
    objects: [{ type: 'dashboard', path: 'entries.*[scope=dash]', idField: 'entryId', listing: { content: 'data' } }],
  };
  const versions = (): VersionSpec[] => [
    version(1, { createDashboard: dash(1), getEntries: list }),
    version(2, { createDashboard: dash(2), getEntries: list }, [
      fieldRenamed(object('dashboard'), 'data.description', 'annotation.description', 'dashboards: description moves to annotation'),
    ]),
  ];

  it('migrates the request up and the answer down with one declaration', async () => {
    const plan = planOf(versions(), 1, 'createDashboard');
    expect(await up(plan, { entry: { data: { description: 'd', tabs: [] }, key: 'k' } })).toStrictEqual({
      entry: { data: { tabs: [] }, key: 'k', annotation: { description: 'd' } },
    });
    expect(await down(plan, { entry: { entryId: 'e', apiVersion: 1, data: { tabs: [] }, annotation: { description: 'd' } } })).toStrictEqual({
      entry: { entryId: 'e', apiVersion: 1, data: { tabs: [], description: 'd' } },
    });
  });

  it('migrates only the listing rows of the kind, and guards rows that carry content', async () => {
    const plan = planOf(versions(), 1, 'getEntries');
    const rows = {
      entries: [
        { entryId: 'a', scope: 'dash', version: 1, data: { x: 1 }, annotation: { description: 'd' } },
        { entryId: 'b', scope: 'widget', version: 1, data: {}, annotation: { description: 'w' } },
      ],
    };
    expect(await down(plan, rows)).toStrictEqual({
      entries: [
        { entryId: 'a', scope: 'dash', version: 1, data: { x: 1, description: 'd' } },
        { entryId: 'b', scope: 'widget', version: 1, data: {}, annotation: { description: 'w' } },
      ],
    });
    // A newer row with content: served when the rename loses nothing of it (lossless rule), refused under the strict rule
    // and when the round trip drops a field (a stale `data.description` beside the annotation's).
    const newer = { entryId: 'a', scope: 'dash', version: 2, data: { tabs: [] }, annotation: { description: 'n' } };
    expect(await down(plan, { entries: [newer] })).toStrictEqual({ entries: [{ entryId: 'a', scope: 'dash', version: 2, data: { tabs: [], description: 'n' } }] });
    const strict = { olderClients: 'refuse-newer', releasedThrough: 2 } as const;
    await expect(translateResponse(plan, { entries: [structuredClone(newer)] }, ctx, strict)).rejects.toMatchObject({ code: 'UNSUPPORTED_OBJECT_VERSION' });
    await expect(down(plan, { entries: [{ ...newer, data: { tabs: [], description: 'stale' } }] })).rejects.toMatchObject({
      code: 'UNSUPPORTED_OBJECT_VERSION',
      details: { objectType: 'dashboard', objectId: 'a', objectVersion: 2, requestedVersion: 1, fields: ['data.description'] },
    });
    // A row of another kind saved later is not this kind's business.
    await expect(down(plan, { entries: [{ entryId: 'b', scope: 'widget', version: 2, data: {} }] })).resolves.toBeDefined();
  });
});

describe('check-contract: a declared change must do something at run time', () => {
  const items = z.array(
    z.discriminatedUnion('type', [
      z.looseObject({ type: z.literal('title'), data: z.looseObject({ textSettings: z.looseObject({ color: z.string() }).optional() }) }),
      z.looseObject({ type: z.literal('text'), data: z.looseObject({ text: z.string() }) }),
    ]),
  );
  const v1: MethodSpec = { request: z.looseObject({ items: z.array(z.record(z.string(), z.unknown())) }), response: z.object({}) };
  const v2: MethodSpec = { request: z.looseObject({ items }), response: z.object({}) };
  const rules = (change: Change) =>
    checkContract({ versions: [version(1, { save: v1 }), version(2, { save: v2 }, [change])] })
      .filter((p) => p.rule === 'change-without-effect')
      .map((p) => p.message);

  it('knows the schema places a path names, union members included', () => {
    expect(schemaHas(v2.request, 'items.*[type=title].data.textSettings.color')).toBe(true);
    expect(schemaHas(v2.request, 'items.*[type=image].data')).toBe(false);
    expect(schemaHas(v2.request, 'items.*[type=text].data.textSettings')).toBe(false);
    expect(schemaHas(v1.request, 'items.*.data.anything')).toBe(true);
    expect(schemaHas(v1.request, 'items.*[type=title]')).toBe(false);
  });

  it('passes a change whose path one of the schemas has', () => {
    expect(rules(fieldRenamed(request('save'), 'items.*[type=title].data.textColor', 'items.*[type=title].data.textSettings.color', 'colour'))).toEqual([]);
  });

  it('flags a path no schema has, a union tag no schema has, and a kind no method locates', () => {
    expect(rules(fieldRemoved(request('save'), 'nothing.here', 'drop'))).toEqual([
      '"drop" (fieldRemoved on save request): no schema of versions 1 or 2 has nothing.here (or the union member it names)',
    ]);
    expect(rules(fieldRenamed(request('save'), 'items.*[type=image].data.a', 'items.*[type=image].data.b', 'image'))).toHaveLength(1);
    expect(rules(fieldRemoved(object('gadget'), 'x', 'gadgets drop x', { downDefault: 1 }))).toEqual([
      '"gadgets drop x" (fieldRemoved on gadget objects): no method of versions 1 or 2 locates gadget objects (objects or requestObjects)',
    ]);
    expect(rules(fieldRemoved(request('other'), 'x', 'other drops x'))).toEqual([
      '"other drops x" (fieldRemoved on other request): the method is in neither version 1 nor 2',
    ]);
  });

  it('refuses at load time a move whose paths do not share their array steps', () => {
    const bad = fieldRenamed(request('save'), 'items.*.a', 'b', 'a leaves the items');
    expect(() => loadContract({ versions: [version(1, { save: v1 }), version(2, { save: v2 }, [bad])] })).toThrow(ContractError);
    const fine = fieldRenamed(request('save'), 'items.*.a', 'items.*.b.c', 'a goes deeper');
    expect(() => loadContract({ versions: [version(1, { save: v1 }), version(2, { save: v2 }, [fine])] })).not.toThrow();
  });
});
