// The object-version guard's rule as plain functions: which objects are served, checked or refused (decideObject),
// where two values differ (differences, its 20-path bound, absent and undefined keys, values of different kinds), and
// the round trip's answers when a step throws or a kind has no way back (lostFields).
import { describe, expect, it } from 'vitest';
import type { Json, MigrationContext } from '../../src/core/contract-model/types.js';
import { DEFAULT_POLICY, type GuardPolicy, OLDER_CLIENTS_RULES, decideObject, differences, lostFields } from '../../src/core/translate/guard.js';
import { NO_SERVICES } from '../helpers/no-services.js';

const ctx = (): MigrationContext => ({
  clientVersion: 1,
  callBackend: async () => {
    throw new Error('no backend in this test');
  },
  principal: 'p',
  state: new Map(),
  services: NO_SERVICES,
});

const lossless: GuardPolicy = { olderClients: 'lossless', releasedThrough: 10 };
const strict = (releasedThrough: number): GuardPolicy => ({ olderClients: 'refuse-newer', releasedThrough });

describe('the rules an operator may choose', () => {
  it('are lossless and refuse-newer, lossless by default with every version released', () => {
    expect(OLDER_CLIENTS_RULES).toEqual(['lossless', 'refuse-newer']);
    expect(DEFAULT_POLICY).toEqual({ olderClients: 'lossless', releasedThrough: Number.MAX_SAFE_INTEGER });
  });
});

describe('decideObject', () => {
  it('serves an object saved at or below the client version, even under the strict rule and a change at that version', () => {
    expect(decideObject(strict(10), 3, 2, 2, [2])).toBe('serve');
    expect(decideObject(strict(10), 3, 2, 1, [1, 2])).toBe('serve');
    expect(decideObject(lossless, 3, 2, 2, [2])).toBe('serve');
  });

  it('refuses an object saved above the head the gateway knows, whatever the rule and changes', () => {
    expect(decideObject(lossless, 3, 1, 4, [])).toBe('refuse');
    expect(decideObject(lossless, 3, 3, 4, [])).toBe('refuse');
    expect(decideObject(lossless, 3, 1, 3, [])).toBe('serve');
  });

  it('under refuse-newer refuses newer objects of released versions only', () => {
    expect(decideObject(strict(3), 3, 1, 3, [])).toBe('refuse');
    expect(decideObject(strict(3), 3, 1, 2, [])).toBe('refuse');
    // version 3 is not released yet: its objects are not refused by the strict rule
    expect(decideObject(strict(2), 3, 1, 3, [])).toBe('serve');
    expect(decideObject(strict(2), 3, 1, 3, [3])).toBe('check');
  });

  it('checks only when a change lies in (client, saved]', () => {
    expect(decideObject(lossless, 5, 2, 4, [3])).toBe('check');
    expect(decideObject(lossless, 5, 2, 4, [4])).toBe('check');
    expect(decideObject(lossless, 5, 2, 4, [])).toBe('serve');
    // a change at the client's own version, or before it, is already in what the client reads
    expect(decideObject(lossless, 5, 2, 4, [2])).toBe('serve');
    expect(decideObject(lossless, 5, 2, 4, [1, 2])).toBe('serve');
    // a change after the version the object was saved under does not concern it
    expect(decideObject(lossless, 5, 2, 4, [5])).toBe('serve');
    expect(decideObject(lossless, 5, 2, 4, [1, 5, 3])).toBe('check');
  });
});

describe('differences', () => {
  it('is empty for deeply equal values, NaN included', () => {
    expect(differences({ a: [1, { b: 'x' }], c: null }, { a: [1, { b: 'x' }], c: null })).toEqual([]);
    expect(differences(Number.NaN, Number.NaN)).toEqual([]);
    expect(differences([], [])).toEqual([]);
  });

  it('names the place of a changed scalar, the body itself as ""', () => {
    expect(differences(1, 2)).toEqual(['']);
    expect(differences({ a: { b: 1 } }, { a: { b: 2 } })).toEqual(['a.b']);
    expect(differences({ a: [1, 2] }, { a: [1, 3] })).toEqual(['a.1']);
  });

  it('names the indexes one array has and the other has not, undefined elements included', () => {
    expect(differences([1, 2, 3], [1])).toEqual(['1', '2']);
    expect(differences([1], [1, 2, 3])).toEqual(['1', '2']);
    expect(differences([undefined], [])).toEqual(['0']);
    expect(differences([], [undefined])).toEqual(['0']);
    expect(differences({ a: [1, undefined] }, { a: [1] })).toEqual(['a.1']);
    expect(differences({ a: [1] }, { a: [1, undefined] })).toEqual(['a.1']);
  });

  it('reads values of different kinds as a difference at their own place', () => {
    expect(differences({ x: [1] }, { x: {} })).toEqual(['x']);
    expect(differences({ x: {} }, { x: [1] })).toEqual(['x']);
    expect(differences({ x: [] }, { x: {} })).toEqual(['x']);
    expect(differences({ x: {} }, { x: [] })).toEqual(['x']);
    expect(differences({ x: 5 }, { x: {} })).toEqual(['x']);
    expect(differences({ x: {} }, { x: 5 })).toEqual(['x']);
    expect(differences({ x: null }, { x: {} })).toEqual(['x']);
    expect(differences({ x: {} }, { x: null })).toEqual(['x']);
    expect(differences({ x: 'ab' }, { x: {} })).toEqual(['x']);
    expect(differences({ x: {} }, { x: 'ab' })).toEqual(['x']);
    expect(differences({ x: { a: 1 } }, { x: 'a' })).toEqual(['x']);
    expect(differences(5, {})).toEqual(['']);
    expect(differences({}, 5)).toEqual(['']);
  });

  it('names a key present on one side only, in either direction', () => {
    expect(differences({ a: 1, b: 2 }, { a: 1 })).toEqual(['b']);
    expect(differences({ a: 1 }, { a: 1, b: 2 })).toEqual(['b']);
    expect(differences({}, { a: { deep: 1 } })).toEqual(['a']);
  });

  it('reads a key holding undefined as absent, and ignores inherited keys', () => {
    expect(differences({ a: undefined }, {})).toEqual([]);
    expect(differences({}, { a: undefined })).toEqual([]);
    expect(differences({ a: undefined, b: 1 }, { b: 1 })).toEqual([]);
    expect(differences({ a: undefined }, { a: 1 })).toEqual(['a']);
    // an inherited x is not the object's own field: the other side's own x is a difference
    expect(differences(Object.create({ x: 1 }), { x: 1 })).toEqual(['x']);
    expect(differences({ x: 1 }, Object.create({ x: 1 }))).toEqual(['x']);
    // inherited on one side, own but undefined on the other: both absent
    expect(differences(Object.create({ x: 1 }), { x: undefined })).toEqual([]);
    expect(differences({ x: undefined }, Object.create({ x: 1 }))).toEqual([]);
  });

  it('stops at 20 paths, in arrays and objects, nested or not', () => {
    const long = Array.from({ length: 30 }, (_, i) => i);
    expect(differences(long, [])).toEqual(long.slice(0, 20).map(String));
    expect(differences([], long)).toHaveLength(20);
    const manyKeys = Object.fromEntries(long.map((i) => [`k${i}`, i]));
    expect(differences(manyKeys, {})).toEqual(long.slice(0, 20).map((i) => `k${i}`));
    expect(differences({}, manyKeys)).toHaveLength(20);
    const changed = Object.fromEntries(long.map((i) => [`k${i}`, i + 1]));
    expect(differences(manyKeys, changed)).toHaveLength(20);
    expect(differences(long, long.map((i) => i + 1))).toHaveLength(20);
    // 15 inside a, then 15 inside b: the bound holds across levels
    const half = (n: number) => Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`f${i}`, n]));
    const paths = differences({ a: half(1), b: half(1) }, { a: half(2), b: half(2) });
    expect(paths).toHaveLength(20);
    expect(paths.slice(14, 16)).toEqual(['a.f14', 'b.f0']);
  });

  it('adds nothing to a list that is already full, and appends to one that is not', () => {
    const full = Array.from({ length: 20 }, (_, i) => `p${i}`);
    expect(differences(1, 2, 'x', [...full])).toEqual(full);
    expect(differences({ a: 1 }, { a: 2 }, 'x', [...full])).toEqual(full);
    expect(differences(1, 2, 'x', ['earlier'])).toEqual(['earlier', 'x']);
    expect(differences({ a: 1 }, { a: 2 }, 'x')).toEqual(['x.a']);
  });
});

describe('lostFields', () => {
  const stored = (): Json => ({ id: 'o1', data: { title: 't', size: 3 } });

  it('is empty when the round trip gives the stored object back, which it leaves unchanged', async () => {
    const down = (o: Json): Json => ({ ...o, old: true });
    const up = async (o: Json): Promise<Json> => {
      const { old: _old, ...rest } = o;
      return rest;
    };
    const s = stored();
    expect(await lostFields({ changedAt: [2], down: [down], up: [up] }, s, ctx())).toEqual({ fields: [] });
    expect(s).toEqual(stored());
  });

  it('names the fields lost on the way, running each step in order on the previous one', async () => {
    const order: string[] = [];
    const dropSize = (o: Json): Json => {
      order.push('down1');
      const data = { ...(o.data as Json) };
      delete data.size;
      return { ...o, data };
    };
    const mark = async (o: Json): Promise<Json> => {
      order.push('down2');
      return { ...o, mark: 1 };
    };
    const unmark = (o: Json): Json => {
      order.push('up1');
      const { mark: _m, ...rest } = o;
      return rest;
    };
    const s = stored();
    const result = await lostFields({ changedAt: [2], down: [dropSize, mark], up: [unmark] }, s, ctx());
    expect(result).toEqual({ fields: ['data.size'] });
    expect(order).toEqual(['down1', 'down2', 'up1']);
    expect(s).toEqual(stored());
  });

  it('gives each step a copy, never the stored object', async () => {
    const s = stored();
    const mutate = (o: Json): Json => {
      (o.data as Json).title = 'changed';
      return o;
    };
    expect(await lostFields({ changedAt: [2], down: [mutate], up: [] }, s, ctx())).toEqual({ fields: ['data.title'] });
    expect(s).toEqual(stored());
  });

  it('counts an object whose trip throws, or whose kind has no way back, as lossy with the reason', async () => {
    const boom = (): Json => {
      throw new Error('boom');
    };
    const rejects = async (): Promise<Json> => Promise.reject(new Error('no'));
    const reason = 'the object does not translate back up to the version it was saved under';
    expect(await lostFields({ changedAt: [2], down: [boom], up: [] }, stored(), ctx())).toEqual({ fields: [], reason });
    expect(await lostFields({ changedAt: [2], down: [], up: [rejects] }, stored(), ctx())).toEqual({ fields: [], reason });
    expect(await lostFields({ changedAt: [2], down: [boom], up: [], noWayBack: 'custom change X' }, stored(), ctx())).toEqual({
      fields: [],
      reason: 'custom change X',
    });
  });
});
