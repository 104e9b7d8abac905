// Reading and deleting along plain paths at their edges: the body itself (""), forbidden keys, bodies that are not
// objects (a backend may answer an array), keys reached only through a prototype, and a union filter's test on values
// that are not objects or lack the tag.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../src/core/contract-model/types.js';
import { collect, deleteAt, deletePrunedAt, getAt, matches, objectsAt, setAt, type Segment } from '../../src/core/translate/paths.js';

describe('matches', () => {
  const tagged: Segment = { each: true, tag: 'type', values: ['a', 'b'] };

  it('selects any value without a filter, and with one only objects whose own tag is among the values', () => {
    expect(matches({ each: true }, 5)).toBe(true);
    expect(matches({ key: 'k' }, null)).toBe(true);
    expect(matches(tagged, { type: 'a' })).toBe(true);
    expect(matches(tagged, { type: 'b' })).toBe(true);
    expect(matches(tagged, { type: 'c' })).toBe(false);
    expect(matches(tagged, Object.create({ type: 'a' }))).toBe(false);
  });

  it('never selects an object without the tag, an array or a scalar, whatever the values say', () => {
    expect(matches({ each: true, tag: 'type', values: ['undefined'] }, {})).toBe(false);
    expect(matches({ each: true, tag: '0', values: ['x'] }, ['x'])).toBe(false);
    expect(matches({ each: true, tag: 'length', values: ['2'] }, 'ab')).toBe(false);
    expect(matches(tagged, null)).toBe(false);
    expect(matches(tagged, 'a')).toBe(false);
  });

  it('compares the tag as text, and selects nothing when a filter lists no values', () => {
    expect(matches({ each: true, tag: 'n', values: ['1'] }, { n: 1 })).toBe(true);
    expect(matches({ each: true, tag: 'n', values: ['true'] }, { n: true })).toBe(true);
    expect(matches({ key: 'k', tag: 't' }, { t: 'Stryker was here' })).toBe(false);
    expect(matches({ key: 'k', tag: 't' }, { t: '' })).toBe(false);
  });
});

describe('collect and objectsAt', () => {
  it('reach the body itself for ""', () => {
    const body = { a: 1 };
    expect(collect(body, '')).toEqual([body]);
    expect(collect(body, '')[0]).toBe(body);
    expect(objectsAt(body, '')).toEqual([body]);
    expect(objectsAt(body, '')[0]).toBe(body);
  });

  it('keep only the objects a path reaches', () => {
    const body = { items: [{ type: 'a' }, 3, null, [1], { type: 'b' }] };
    expect(objectsAt(body, 'items.*')).toEqual([{ type: 'a' }, { type: 'b' }]);
    expect(objectsAt(body, 'items.*[type=b]')).toEqual([{ type: 'b' }]);
    expect(objectsAt({ data: 5 }, 'data[t=x]')).toEqual([]);
    expect(objectsAt({ data: { t: 'x' } }, 'data[t=x]')).toEqual([{ t: 'x' }]);
  });
});

describe('getAt', () => {
  it('finds the body itself at ""', () => {
    const body = { a: 1 };
    const got = getAt(body, '');
    expect(got.found).toBe(true);
    expect(got.value).toBe(body);
  });

  it('finds own values, undefined included, and nothing past a scalar or through a prototype', () => {
    expect(getAt({ a: { b: undefined } }, 'a.b')).toEqual({ found: true, value: undefined });
    expect(getAt({ a: { b: 0 } }, 'a.b')).toEqual({ found: true, value: 0 });
    expect(getAt({ a: 5 }, 'a.b')).toEqual({ found: false });
    expect(getAt({ a: [{ b: 1 }] }, 'a.b')).toEqual({ found: false });
    expect(getAt(Object.create({ a: { b: 1 } }), 'a.b')).toEqual({ found: false });
    expect(getAt({ a: Object.create({ b: 1 }) }, 'a.b')).toEqual({ found: false });
  });

  it('finds nothing in a body that is not an object', () => {
    expect(getAt(['x'] as unknown as Json, '0')).toEqual({ found: false });
    expect(getAt(['x'] as unknown as Json, 'length')).toEqual({ found: false });
  });

  it('refuses a forbidden key, naming it and the path', () => {
    expect(() => getAt({}, 'a.__proto__')).toThrow('forbidden path segment "__proto__" in "a.__proto__"');
    expect(() => getAt({}, 'constructor')).toThrow('forbidden path segment "constructor" in "constructor"');
    expect(() => setAt({}, 'prototype.x', 1)).toThrow('forbidden path segment "prototype" in "prototype.x"');
  });
});

describe('deleteAt', () => {
  it('finds the body itself at "" and deletes nothing', () => {
    const body = { a: 1 };
    const got = deleteAt(body, '');
    expect(got.found).toBe(true);
    expect(got.value).toBe(body);
    expect(body).toEqual({ a: 1 });
  });

  it('deletes an own key and answers its value; nothing in a body that is not an object', () => {
    const body: Json = { a: { b: 2, c: 3 } };
    expect(deleteAt(body, 'a.b')).toEqual({ found: true, value: 2 });
    expect(body).toEqual({ a: { c: 3 } });
    expect(deleteAt(body, 'a.b')).toEqual({ found: false });
    const list = ['x'];
    expect(deleteAt(list as unknown as Json, '0')).toEqual({ found: false });
    expect(list).toEqual(['x']);
  });
});

describe('deletePrunedAt', () => {
  it('finds the body itself at "" and deletes nothing', () => {
    const body = { a: 1 };
    const got = deletePrunedAt(body, '');
    expect(got.found).toBe(true);
    expect(got.value).toBe(body);
    expect(body).toEqual({ a: 1 });
  });

  it('removes the containers it leaves empty, and only those', () => {
    const body: Json = { a: { b: { c: 1 } }, keep: { x: { y: 1, z: 2 } } };
    expect(deletePrunedAt(body, 'a.b.c')).toEqual({ found: true, value: 1 });
    expect(body).toEqual({ keep: { x: { y: 1, z: 2 } } });
    expect(deletePrunedAt(body, 'keep.x.y')).toEqual({ found: true, value: 1 });
    expect(body).toEqual({ keep: { x: { z: 2 } } });
  });

  it('keeps the other members in their order, an own "__proto__" member among them, as JSON.parse made them', () => {
    const body = JSON.parse('{"a":{"__proto__":{"x":1},"b":1,"c":2},"d":{"e":{"f":1},"g":2},"h":3}') as Json;
    expect(deletePrunedAt(body, 'a.b')).toEqual({ found: true, value: 1 });
    expect(deletePrunedAt(body, 'd.e.f')).toEqual({ found: true, value: 1 });
    expect(JSON.stringify(body)).toBe('{"a":{"__proto__":{"x":1},"c":2},"d":{"g":2},"h":3}');
    expect(Object.getPrototypeOf(body.a)).toBe(Object.prototype);
  });

  it('prunes a container whose only keys are inherited', () => {
    const inner = Object.create({ inherited: 1 }) as Json;
    inner.b = 2;
    const body: Json = { a: inner, other: 1 };
    expect(deletePrunedAt(body, 'a.b')).toEqual({ found: true, value: 2 });
    expect(body).toEqual({ other: 1 });
    expect(Object.hasOwn(body, 'a')).toBe(false);
  });

  it('finds nothing past a scalar, through a prototype, or in a body that is not an object', () => {
    const scalar: Json = { a: 5 };
    expect(deletePrunedAt(scalar, 'a.b')).toEqual({ found: false });
    expect(scalar).toEqual({ a: 5 });
    const proto = { a: { b: 1 } };
    const viaProto = Object.create(proto) as Json;
    expect(deletePrunedAt(viaProto, 'a.b')).toEqual({ found: false });
    expect(proto).toEqual({ a: { b: 1 } });
    const list = ['x'];
    expect(deletePrunedAt(list as unknown as Json, '0')).toEqual({ found: false });
    expect(list).toEqual(['x']);
    const empty: Json = { a: {} };
    expect(deletePrunedAt(empty, 'a.b')).toEqual({ found: false });
    expect(empty).toEqual({ a: {} });
  });
});
