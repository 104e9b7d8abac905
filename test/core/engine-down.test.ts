// The engine's side of a backend below the client (src/core/translate/engine.ts): the lossless check of a request
// translated down (lostPaths, the paths a written way down owns), and the two refusals it makes, with their details.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BodyMigration, Json, MigrationContext } from '../../src/core/contract-model/types.js';
import { GatewayError } from '../../src/core/errors.js';
import { lostPaths, translateRequest, translateResponse } from '../../src/core/translate/engine.js';
import { DEFAULT_POLICY } from '../../src/core/translate/guard.js';
import type { MethodPlan } from '../../src/core/translate/plan.js';
import { NO_SERVICES } from '../helpers/no-services.js';

const ctx = (): MigrationContext => ({ clientVersion: 3, principal: 'p', state: new Map(), services: NO_SERVICES, callBackend: async () => ({}) });

/** A plan of `call` at version 3 above a backend at 2: `down` translates the request, `back` is its way back. */
const planOf = (down: BodyMigration[], back: BodyMigration[], extra: Partial<MethodPlan> = {}): MethodPlan => ({
  method: 'call',
  version: 3,
  head: 2,
  spec: { request: z.looseObject({}), response: z.looseObject({}) },
  upstreamMethod: 'call',
  passThrough: false,
  up: down,
  down: [],
  requestBack: back,
  guarded: [],
  checksResponse: true,
  ...extra,
});
/** Drops the named top-level fields. */
const without =
  (...keys: string[]): BodyMigration =>
  (b) =>
    Object.fromEntries(Object.entries(b).filter(([k]) => !keys.includes(k)));

async function refusal(plan: MethodPlan, body: Json): Promise<GatewayError> {
  try {
    await translateRequest(plan, body, ctx());
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('lostPaths', () => {
  it('nothing when back holds all of original (what back adds is no loss)', () => {
    expect(lostPaths({ a: 1, b: { c: [1, { d: 'x' }] } }, { a: 1, b: { c: [1, { d: 'x', e: 2 }] }, f: 3 })).toEqual([]);
    expect(lostPaths('same', 'same')).toEqual([]);
    expect(lostPaths(Number.NaN, Number.NaN)).toEqual([]);
  });

  it('the dotted paths of what is missing or different, array indexes as numbers', () => {
    expect(lostPaths({ a: 1, b: { c: 2, d: 3 }, e: [1, 2, { f: 1 }] }, { a: 2, b: { c: 2 }, e: [1, 3, { f: 2 }] })).toEqual(['a', 'b.d', 'e.1', 'e.2.f']);
    expect(lostPaths({ a: { b: 1 } }, { a: [1] })).toEqual(['a']);
    expect(lostPaths({ a: [1] }, { a: { 0: 1 } })).toEqual(['a']);
    expect(lostPaths(1, 2)).toEqual(['']);
    expect(lostPaths({ a: null }, { a: 0 })).toEqual(['a']);
  });

  it('a field the original leaves undefined is not lost; one back leaves undefined is', () => {
    expect(lostPaths({ a: undefined, b: 1 }, { b: 1 })).toEqual([]);
    expect(lostPaths({ a: 1 }, { a: undefined })).toEqual(['a']);
  });

  it('arrays of different lengths: the indexes one has and the other not', () => {
    expect(lostPaths({ t: ['a', 'b', 'c'] }, { t: ['a'] })).toEqual(['t.1', 't.2']);
    expect(lostPaths({ t: ['a'] }, { t: ['b', 'c'] })).toEqual(['t.0', 't.1']);
  });

  it('at most 20 paths, also among the keys of one object', () => {
    const list = (n: number) => Array.from({ length: 25 }, (_, i) => i + n);
    expect(lostPaths({ t: list(0) }, { t: list(100) })).toEqual(Array.from({ length: 20 }, (_, i) => `t.${i}`));
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
    expect(lostPaths(many, {})).toHaveLength(20);
    expect(lostPaths({ a: many, b: 1 }, { a: {}, b: 2 })).toHaveLength(20);
    expect(lostPaths({ a: many, b: 1 }, { a: {}, b: 2 })).not.toContain('b');
  });
});

describe('a request translated down', () => {
  it('is sent as translated when its way back gives back what the client sent', async () => {
    const plan = planOf([without('n')], [(b) => ({ ...b, n: 0 })]);
    expect(await translateRequest(plan, { k: 'x', n: 0 }, ctx())).toEqual({ k: 'x' });
  });

  it('the way back runs on a copy: what is sent is not what the way back made of it', async () => {
    const plan = planOf([(b) => b], [(b) => Object.assign(b, { added: true })]);
    expect(await translateRequest(plan, { k: 'x' }, ctx())).toEqual({ k: 'x' });
  });

  it('is refused naming the fields that do not come back, with the backend version and the reason', async () => {
    const plan = planOf([without('n', 'm')], [(b) => ({ ...b, n: 0 })]);
    const e = await refusal(plan, { k: 'x', n: 5, m: [1] });
    expect(e.code).toBe('VERSION_TRANSLATION_FAILED');
    expect(e.message).toBe('API version 2, which the backend speaks, cannot carry n, m of this call request');
    expect(e.details).toEqual({
      method: 'call',
      field: 'n',
      fields: ['n', 'm'],
      backendVersion: 2,
      reason: 'these fields do not translate down to API version 2 and back unchanged',
    });
  });

  it('names at most 20 fields, however many are lost', async () => {
    const body = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
    const e = await refusal(planOf([() => ({})], []), body);
    expect((e.details as { fields: string[] }).fields).toEqual(Object.keys(body).slice(0, 20));
  });

  it('leaves to a written way down the paths it owns: a path, what lies under it, `*` for any index, "" for the whole body', async () => {
    const body = { k: 'x', a: { b: 1, c: 2 }, list: [{ v: 1 }, { v: 2 }], other: 1 };
    const lose = (...keys: string[]) => planOf([without(...keys)], [], { requestOwned: [] });
    expect((await refusal(lose('a', 'list', 'other'), body)).details).toMatchObject({ fields: ['a', 'list', 'other'] });
    const owning = (owned: string[]) => planOf([(b) => ({ k: b.k, a: {}, list: [{}, {}] })], [], { requestOwned: owned });
    // Each path lost: a.b, a.c, list.0.v, list.1.v, other.
    expect((await refusal(owning(['a']), body)).details).toMatchObject({ fields: ['list.0.v', 'list.1.v', 'other'] });
    expect((await refusal(owning(['a.b', 'list.*.v']), body)).details).toMatchObject({ fields: ['a.c', 'other'] });
    expect((await refusal(owning(['a.b.c', 'list.0', 'other']), body)).details).toMatchObject({ fields: ['a.b', 'a.c', 'list.1.v'] });
    // `*` stands for an index, not for a key.
    expect((await refusal(owning(['*.b', '*', 'list.*.v']), body)).details).toMatchObject({ fields: ['a.b', 'a.c', 'other'] });
    expect((await refusal(owning(['list.*', 'a.*']), body)).details).toMatchObject({ fields: ['a.b', 'a.c', 'other'] });
    expect(await translateRequest(owning(['']), body, ctx())).toEqual({ k: 'x', a: {}, list: [{}, {}] });
  });

  it('an owned `*` step, with or without a member filter, matches any index however many digits, and no key', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ v: i }));
    const body = { rows, m: { x1: 1, '1x': 2, '7': 3 } };
    const owning = (owned: string[]) => planOf([() => ({ rows: rows.map(() => ({})), m: {} })], [], { requestOwned: owned });
    expect((await refusal(owning(['rows.*[type=a].v']), body)).details).toMatchObject({ fields: ['m.7', 'm.x1', 'm.1x'] });
    expect((await refusal(owning(['rows.*.v', 'm.*']), body)).details).toMatchObject({ fields: ['m.x1', 'm.1x'] });
  });

  it('is refused, naming the paths, when it is not a request the backend version takes', async () => {
    const backendRequest = z.strictObject({ k: z.string(), n: z.number().int(), deep: z.strictObject({ v: z.string() }).optional() });
    const plan = planOf([(b) => b], [], { backendRequest });
    expect(await translateRequest(plan, { k: 'x', n: 1 }, ctx())).toEqual({ k: 'x', n: 1 });
    const e = await refusal(plan, { k: 'x', n: 'one', deep: { v: 1 } });
    expect(e.code).toBe('VERSION_TRANSLATION_FAILED');
    expect(e.message).toBe('this call request is not one API version 2, which the backend speaks, takes (n, deep.v)');
    expect(e.details).toEqual({
      method: 'call',
      field: 'n',
      fields: ['n', 'deep.v'],
      backendVersion: 2,
      reason: 'n: Invalid input: expected number, received string; deep.v: Invalid input: expected string, received number',
    });
    // Two issues at one path name it once.
    const twice = planOf([(b) => b], [], { backendRequest: z.strictObject({ n: z.string().min(3).regex(/^[a-z]+$/) }) });
    expect((await refusal(twice, { n: '1' })).details).toMatchObject({ fields: ['n'], field: 'n' });
  });

  it('a refusal of the whole body says so, and its reason is at most 500 characters', async () => {
    const body = z.looseObject({}).refine(() => false, { message: 'never' });
    const e = await refusal(planOf([(b) => b], [], { backendRequest: body }), { k: 'x' });
    expect(e.message).toBe('this call request is not one API version 2, which the backend speaks, takes (the body)');
    expect(e.details).toMatchObject({ field: '', fields: [''], reason: '(body): never' });
    const long = z.strictObject(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, z.string()])));
    const many = await refusal(planOf([(b) => b], [], { backendRequest: long }), {});
    expect((many.details as { reason: string }).reason).toHaveLength(500);
  });

  it('the way down and back run in order, each step on what the one before gave', async () => {
    const trail: string[] = [];
    const step =
      (name: string): BodyMigration =>
      async (b) => {
        trail.push(name);
        return { ...b, [name]: true };
      };
    const plan = planOf([step('d1'), step('d2')], [without('d1', 'd2'), step('b1')], { requestOwned: [] });
    expect(await translateRequest(plan, { k: 'x' }, ctx())).toEqual({ k: 'x', d1: true, d2: true });
    expect(trail).toEqual(['d1', 'd2', 'b1']);
  });

  it('a migration that fails unexpectedly is an internal error; a refusal it throws is kept', async () => {
    const boom: BodyMigration = () => {
      throw new Error('boom');
    };
    expect((await refusal(planOf([boom], []), { k: 'x' })).code).toBe('INTERNAL_ERROR');
    expect((await refusal(planOf([(b) => b], [boom]), { k: 'x' })).code).toBe('INTERNAL_ERROR');
    const own: BodyMigration = () => {
      throw new GatewayError('VERSION_TRANSLATION_FAILED', 'mine', { fields: ['x'] });
    };
    expect((await refusal(planOf([own], []), { k: 'x' })).message).toBe('mine');
  });
});

describe('the object guard on answers', () => {
  const guardedPlan = (version: number, head: number): MethodPlan => ({
    ...planOf([], []),
    version,
    head,
    guarded: [{ type: 'item', path: 'items.*' }],
    kinds: new Map(),
  });
  const unstamped = (v: number) => ({ ...DEFAULT_POLICY, unstampedVersion: v });

  it('an object without its stamp is the backend fault, unless the policy says which version such objects were saved under', async () => {
    const answer = () => ({ items: [{ id: 'a' }, { id: 'b', version: null }, { id: 'c', version: 2 }] });
    await expect(translateResponse(guardedPlan(3, 2), answer(), ctx())).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    // Translated up (the client above the backend): the objects get the stamp of the version they were saved under.
    expect(await translateResponse(guardedPlan(3, 2), answer(), ctx(), unstamped(1))).toEqual({
      items: [
        { id: 'a', version: 1 },
        { id: 'b', version: 1 },
        { id: 'c', version: 2 },
      ],
    });
    // At or below the backend the answer is not the client's own shape to stamp: it stays as the backend gave it.
    expect(await translateResponse(guardedPlan(2, 2), answer(), ctx(), unstamped(1))).toEqual(answer());
    expect(await translateResponse(guardedPlan(2, 3), answer(), ctx(), unstamped(1))).toEqual(answer());
    // An unstamped object read as saved above the client's version is guarded like a stamped one.
    await expect(translateResponse(guardedPlan(1, 3), { items: [{ id: 'a' }] }, ctx(), unstamped(2))).rejects.toMatchObject({
      code: 'UNSUPPORTED_OBJECT_VERSION',
      details: { objectVersion: 2, requestedVersion: 1 },
    });
  });

  it('an object saved under a version not released yet says so', async () => {
    const plan = guardedPlan(1, 3);
    const policy = { olderClients: 'lossless', releasedThrough: 2 } as const;
    const refused = translateResponse(plan, { items: [{ id: 'a', version: 3 }] }, ctx(), policy);
    await expect(refused).rejects.toMatchObject({
      message: 'this item was saved under API version 3 (not released yet); API version 1 cannot serve it',
      details: { objectId: 'a', objectVersion: 3, minVersion: 3, minVersionReleased: false },
    });
    const released = await translateResponse(plan, { items: [{ id: 'a', version: 2 }] }, ctx(), policy).catch((e: GatewayError) => e);
    expect((released as GatewayError).message).toBe('this item was saved under API version 2; API version 1 cannot serve it');
    expect((released as GatewayError).details).not.toHaveProperty('minVersionReleased');
  });
});

describe('the object guard on a kind without a way back', () => {
  const plan = (): MethodPlan => ({
    ...planOf([], []),
    version: 1,
    head: 3,
    guarded: [{ type: 'item', path: '' }],
    kinds: new Map([['item', { changedAt: [3], down: [], up: [], noWayBack: 'version 3 changes item without a way back' }]]),
  });

  it('serves an object saved under a version its kind did not change in', async () => {
    expect(await translateResponse(plan(), { id: 'a', version: 2 }, ctx())).toEqual({ id: 'a', version: 2 });
  });

  it('refuses one saved across the change, whole, with the reason', async () => {
    await expect(translateResponse(plan(), { id: 'a', version: 3 }, ctx())).rejects.toMatchObject({
      code: 'UNSUPPORTED_OBJECT_VERSION',
      message: 'this item was saved under API version 3; API version 1 cannot serve it whole',
      details: { objectId: 'a', fields: [], reason: 'version 3 changes item without a way back' },
    });
  });
});
