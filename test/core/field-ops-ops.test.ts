// The field operations changes are made of, on one body: fill, restore, move (with and without a conversion), drop,
// toArray and fromArray, at the top level, inside objects and through array steps and union filters.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../src/core/contract-model/types.js';
import { copyOf, drop, each, fill, fromArray, move, restore, toArray } from '../../src/core/translate/field-ops.js';

describe('copyOf', () => {
  it('clones objects and arrays, and shares every other value', () => {
    const obj = { a: { b: 1 } };
    const arr = [{ c: 1 }];
    expect(copyOf(obj)).toEqual(obj);
    expect(copyOf(obj)).not.toBe(obj);
    expect((copyOf(obj) as typeof obj).a).not.toBe(obj.a);
    expect(copyOf(arr)).toEqual(arr);
    expect(copyOf(arr)).not.toBe(arr);
    expect(copyOf(null)).toBe(null);
    expect(copyOf(5)).toBe(5);
    expect(copyOf('s')).toBe('s');
    expect(copyOf(undefined)).toBe(undefined);
    // a function or a symbol cannot be cloned: it is passed as it is
    const fn = () => 1;
    expect(copyOf(fn)).toBe(fn);
    const sym = Symbol('s');
    expect(copyOf(sym)).toBe(sym);
  });
});

describe('each', () => {
  it('runs on the body for a plain path, and on each object an array step reaches otherwise', () => {
    const seen: Array<[unknown, string]> = [];
    const body: Json = { rows: [{ id: 1 }, 2, { id: 3 }] };
    expect(each('a.b', (o, rest) => seen.push([o, rest]))(body)).toBe(body);
    expect(seen).toEqual([[body, 'a.b']]);
    seen.length = 0;
    each('rows.*.data.x', (o, rest) => seen.push([o, rest]))(body);
    expect(seen).toEqual([
      [{ id: 1 }, 'data.x'],
      [{ id: 3 }, 'data.x'],
    ]);
  });
});

describe('fill', () => {
  it('sets a missing field to its own copy of the default, creating containers, and keeps a present one', () => {
    const value = { k: [1] };
    const a: Json = {};
    const b: Json = { data: {} };
    fill('data.x', value)(a);
    fill('data.x', value)(b);
    expect(a).toEqual({ data: { x: { k: [1] } } });
    expect(b).toEqual({ data: { x: { k: [1] } } });
    expect((a.data as Json).x).not.toBe(value);
    expect((a.data as Json).x).not.toBe((b.data as Json).x);
    const present: Json = { data: { x: null } };
    fill('data.x', value)(present);
    expect(present).toEqual({ data: { x: null } });
  });

  it('fills inside the members a filter selects only', () => {
    const body: Json = { items: [{ type: 'a' }, { type: 'b' }, { type: 'a', v: 2 }] };
    fill('items.*[type=a].v', 1)(body);
    expect(body).toEqual({ items: [{ type: 'a', v: 1 }, { type: 'b' }, { type: 'a', v: 2 }] });
  });
});

describe('restore', () => {
  it('puts a top-level field back when it is missing', () => {
    const body: Json = {};
    restore('x', 5)(body);
    expect(body).toEqual({ x: 5 });
    const kept: Json = { x: 1 };
    restore('x', 5)(kept);
    expect(kept).toEqual({ x: 1 });
  });

  it('puts a nested field back only inside a container the object has', () => {
    const partial: Json = { id: 1 };
    restore('data.x', 5)(partial);
    expect(partial).toEqual({ id: 1 });
    const full: Json = { data: {} };
    restore('data.x', 5)(full);
    expect(full).toEqual({ data: { x: 5 } });
    const kept: Json = { data: { x: 1 } };
    restore('data.x', 5)(kept);
    expect(kept).toEqual({ data: { x: 1 } });
    const deep: Json = { data: { inner: {} } };
    restore('data.inner.x', 'v')(deep);
    expect(deep).toEqual({ data: { inner: { x: 'v' } } });
    const deepPartial: Json = { data: {} };
    restore('data.inner.x', 'v')(deepPartial);
    expect(deepPartial).toEqual({ data: {} });
  });

  it('gives each object its own copy of the value', () => {
    const value = { list: [1] };
    const a: Json = {};
    const b: Json = {};
    restore('x', value)(a);
    restore('x', value)(b);
    expect(a.x).toEqual(value);
    expect(a.x).not.toBe(value);
    expect(a.x).not.toBe(b.x);
  });

  it('restores in each element an array step reaches', () => {
    const body: Json = { rows: [{ data: {} }, { id: 2 }] };
    restore('rows.*.data.x', 0)(body);
    expect(body).toEqual({ rows: [{ data: { x: 0 } }, { id: 2 }] });
  });
});

describe('move', () => {
  it('moves a field, pruning the containers it leaves empty', () => {
    const body: Json = { a: { b: 1 }, c: 2 };
    expect(move('a.b', 'x.y')(body)).toBe(body);
    expect(body).toEqual({ x: { y: 1 }, c: 2 });
  });

  it('does nothing, and calls no conversion, when the field is absent', () => {
    const calls: unknown[] = [];
    const body: Json = { c: 2 };
    move('a', 'b', (v) => {
      calls.push(v);
      return String(v);
    })(body);
    expect(body).toEqual({ c: 2 });
    expect(calls).toEqual([]);
  });

  it('converts the value with the one already at the target, and drops it when the conversion answers undefined', () => {
    const body: Json = { from: 2, to: 3 };
    move('from', 'to', (v, existing) => (v as number) * 10 + (existing as number))(body);
    expect(body).toEqual({ to: 23 });
    const gone: Json = { from: 2, to: 3 };
    move('from', 'to', () => undefined)(gone);
    expect(gone).toEqual({ to: 3 });
  });

  it('moves a field holding undefined only as far as deleting it', () => {
    const body: Json = { from: undefined };
    move('from', 'to')(body);
    expect(Object.keys(body)).toEqual([]);
  });

  it('moves within each element an array step reaches, keeping the path inside it', () => {
    const body: Json = { rows: [{ a: 1 }, { b: 5 }, { a: 3, keep: true }] };
    move('rows.*.a', 'rows.*.data.a')(body);
    expect(body).toEqual({ rows: [{ data: { a: 1 } }, { b: 5 }, { keep: true, data: { a: 3 } }] });
  });
});

describe('drop', () => {
  it('deletes the field and the containers it leaves empty, in each reached element', () => {
    const body: Json = { rows: [{ data: { x: 1 } }, { data: { x: 2, y: 3 } }, { other: 1 }] };
    drop('rows.*.data.x')(body);
    expect(body).toEqual({ rows: [{}, { data: { y: 3 } }, { other: 1 }] });
  });
});

describe('toArray and fromArray', () => {
  it('toArray wraps a present value that is not an array', () => {
    const a: Json = { v: 1 };
    toArray('v')(a);
    expect(a).toEqual({ v: [1] });
    const b: Json = { v: [1] };
    toArray('v')(b);
    expect(b).toEqual({ v: [1] });
    const c: Json = {};
    toArray('v')(c);
    expect(c).toStrictEqual({});
    const d: Json = { v: undefined };
    toArray('v')(d);
    expect(d.v).toBe(undefined);
    const e: Json = { v: null };
    toArray('v')(e);
    expect(e).toEqual({ v: [null] });
  });

  it('fromArray takes an array value\'s first element and leaves anything else', () => {
    const a: Json = { v: [1, 2] };
    fromArray('v')(a);
    expect(a).toEqual({ v: 1 });
    const b: Json = { v: 5 };
    fromArray('v')(b);
    expect(b).toStrictEqual({ v: 5 });
    const c: Json = {};
    fromArray('v')(c);
    expect(c).toStrictEqual({});
    const d: Json = { v: [] };
    fromArray('v')(d);
    expect(Object.hasOwn(d, 'v')).toBe(true);
    expect(d.v).toBe(undefined);
  });

  it('work in each element an array step reaches', () => {
    const body: Json = { rows: [{ v: 1 }, { v: [2] }] };
    toArray('rows.*.v')(body);
    expect(body).toEqual({ rows: [{ v: [1] }, { v: [2] }] });
    fromArray('rows.*.v')(body);
    expect(body).toEqual({ rows: [{ v: 1 }, { v: 2 }] });
  });
});
