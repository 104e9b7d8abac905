// The schema diff on raw JSON Schema: $ref resolution, tuples (prefixItems), records (additionalProperties),
// request defaults, and the edge cases of types and value sets.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { diffSchemas, jsonSchemaOf, type Direction, type JsonSchema } from '../../src/core/schema/diff.js';

const obj = (properties: Record<string, unknown>, extra: JsonSchema = {}): JsonSchema => ({ type: 'object', properties, ...extra });
const d = (before: JsonSchema, after: JsonSchema, direction: Direction) => diffSchemas(before, after, direction);
const brief = (before: JsonSchema, after: JsonSchema, direction: Direction) =>
  d(before, after, direction).map((x) => `${x.path}:${x.kind}:${x.compatible}`);

describe('$ref', () => {
  const withDef = (leaf: JsonSchema, ref = '#/$defs/Leaf', defs: Record<string, unknown> = { Leaf: leaf }): JsonSchema =>
    obj({ a: { $ref: ref } }, { $defs: defs });

  it('compares what a local ref points to, at the referring field’s path', () => {
    expect(d(withDef({ type: 'string' }), withDef({ type: 'number' }), 'response')).toEqual([
      { path: 'a', kind: 'typeChanged', compatible: false, detail: 'type of `a` changed from string to number' },
    ]);
    expect(d(withDef({ type: 'string' }), withDef({ type: 'string' }), 'response')).toEqual([]);
  });

  it('finds nothing between a field written inline and the same field behind a ref', () => {
    expect(d(obj({ a: { type: 'string' } }), withDef({ type: 'string' }), 'request')).toEqual([]);
  });

  it('decodes ~1, ~0 and percent escapes in a ref', () => {
    const defs = { 'a/b': { type: 'number' }, 'c~d': { type: 'boolean' }, 'e f': { type: 'null' } };
    const before = obj({ x: { type: 'number' }, y: { type: 'boolean' }, z: { type: 'null' } });
    const after = obj(
      { x: { $ref: '#/$defs/a~1b' }, y: { $ref: '#/$defs/c~0d' }, z: { $ref: '#/$defs/e%20f' } },
      { $defs: defs },
    );
    expect(d(before, after, 'response')).toEqual([]);
  });

  it('follows a ref through an array index', () => {
    const after = obj({ a: { $ref: '#/$defs/list/1' } }, { $defs: { list: [{ type: 'string' }, { type: 'number' }] } });
    expect(brief(obj({ a: { type: 'number' } }), after, 'response')).toEqual([]);
    expect(brief(obj({ a: { type: 'string' } }), after, 'response')).toEqual(['a:typeChanged:false']);
  });

  it('reads a ref to `#` as the whole document', () => {
    const list = (leaf: string): JsonSchema => obj({ leaf: { type: leaf }, next: { $ref: '#' } });
    expect(d(list('string'), list('string'), 'request')).toEqual([]);
    expect(brief(list('string'), list('number'), 'request')).toEqual(['leaf:typeChanged:false']);
  });

  it('reads an unresolvable or external ref as any value', () => {
    const before = obj({ a: { type: 'string' }, b: { type: 'string' } });
    const after = obj({ a: { $ref: '#/$defs/missing' }, b: { $ref: 'https://example.test/other.json' } });
    expect(d(before, after, 'request')).toEqual([
      { path: 'a', kind: 'typeChanged', compatible: true, detail: 'type of `a` changed from string to any' },
      { path: 'b', kind: 'typeChanged', compatible: true, detail: 'type of `b` changed from string to any' },
    ]);
    expect(brief(before, after, 'response')).toEqual(['a:typeChanged:false', 'b:typeChanged:false']);
    expect(brief(after, before, 'response')).toEqual(['a:typeChanged:true', 'b:typeChanged:true']);
  });

  it('reads a ref into a missing place below a scalar as any value', () => {
    const after = obj({ a: { $ref: '#/$defs/s/deeper' } }, { $defs: { s: 'text' } });
    expect(brief(obj({ a: {} }), after, 'response')).toEqual([]);
  });
});

describe('prefixItems (tuples)', () => {
  const tuple = (items: unknown[], rest?: unknown): JsonSchema =>
    obj({ t: { type: 'array', prefixItems: items, ...(rest !== undefined && { items: rest }) } });

  it('compares the tuple’s elements as the array’s items', () => {
    expect(d(tuple([{ type: 'string' }, { type: 'number' }], false), tuple([{ type: 'string' }, { type: 'number' }], false), 'request')).toEqual([]);
    expect(d(tuple([{ type: 'string' }, { type: 'number' }], false), tuple([{ type: 'string' }, { type: 'string' }], false), 'response')).toEqual([
      { path: 't.*', kind: 'typeChanged', compatible: true, detail: 'type of `t.*` changed from number | string to string' },
    ]);
    expect(brief(tuple([{ type: 'string' }, { type: 'number' }], false), tuple([{ type: 'string' }, { type: 'string' }], false), 'request')).toEqual([
      't.*:typeChanged:false',
    ]);
  });

  it('adds the rest items to the tuple’s elements', () => {
    expect(brief(tuple([{ type: 'string' }], { type: 'number' }), tuple([{ type: 'string' }], { type: 'boolean' }), 'response')).toEqual([
      't.*:typeChanged:false',
    ]);
  });

  it('counts a closed tuple without items as holding only its elements, and an open array as holding anything', () => {
    expect(brief(tuple([{ type: 'string' }]), tuple([{ type: 'string' }], false), 'response')).toEqual([]);
    expect(brief(obj({ t: { type: 'array' } }), tuple([{ type: 'string' }]), 'response')).toEqual(['t.*:typeChanged:true']);
    expect(brief(obj({ t: { type: 'array', items: false } }), obj({ t: { type: 'array', items: { type: 'string' } } }), 'response')).toEqual([
      't.*:typeChanged:false',
    ]);
  });

  it('counts items: true as items of any kind', () => {
    expect(d(obj({ t: { type: 'array', items: true } }), obj({ t: { type: 'array' } }), 'response')).toEqual([]);
  });

  it('takes a schema with prefixItems or items and no type for an array', () => {
    expect(d(obj({ t: { prefixItems: [{ type: 'string' }] } }), obj({ t: { type: 'array', prefixItems: [{ type: 'string' }] } }), 'request')).toEqual([]);
    expect(d(obj({ t: { items: { type: 'string' } } }), obj({ t: { type: 'array', items: { type: 'string' } } }), 'request')).toEqual([]);
  });

  it('matches zod tuples', () => {
    const before = z.object({ t: z.tuple([z.string(), z.number()]) });
    const after = z.object({ t: z.tuple([z.string(), z.boolean()]) });
    expect(diffSchemas(jsonSchemaOf(before, 'request'), jsonSchemaOf(after, 'request'), 'request').map((x) => x.path)).toEqual(['t.*']);
  });
});

describe('additionalProperties (records)', () => {
  const record = (values: unknown): JsonSchema => obj({ m: { type: 'object', additionalProperties: values } });

  it('compares the values of a record at `*`', () => {
    expect(d(record({ type: 'string' }), record({ type: 'number' }), 'response')).toEqual([
      { path: 'm.*', kind: 'typeChanged', compatible: false, detail: 'type of `m.*` changed from string to number' },
    ]);
    expect(d(record({ type: 'string' }), record({ type: 'string' }), 'response')).toEqual([]);
  });

  it('compares fields inside record values', () => {
    expect(brief(record(obj({ a: { type: 'string' } })), record(obj({ b: { type: 'string' } })), 'request')).toEqual([
      'm.*.a:fieldRemoved:false',
      'm.*.b:fieldAdded:true',
    ]);
  });

  it('ignores a closed or an empty additionalProperties', () => {
    expect(d(record(false), record({ type: 'string' }), 'response')).toEqual([]);
    expect(d(record({}), record({ type: 'string' }), 'response')).toEqual([]);
    expect(d(record(true), record({ type: 'string' }), 'response')).toEqual([]);
  });

  it('matches zod records at the root', () => {
    const before = jsonSchemaOf(z.record(z.string(), z.string()), 'response');
    const after = jsonSchemaOf(z.record(z.string(), z.number()), 'response');
    expect(d(before, after, 'response').map((x) => [x.path, x.kind])).toEqual([['*', 'typeChanged']]);
  });
});

describe('request fields with defaults', () => {
  it('a required request field that gains a default became optional, compatible', () => {
    const before = obj({ n: { type: 'number' } }, { required: ['n'] });
    const after = obj({ n: { type: 'number', default: 1 } }, { required: ['n'] });
    expect(d(before, after, 'request')).toEqual([
      { path: 'n', kind: 'becameOptional', compatible: true, detail: 'field `n` became optional' },
    ]);
    expect(d(before, after, 'response')).toEqual([]);
  });

  it('a request field that loses its default became required, incompatible', () => {
    const before = obj({ n: { type: 'number', default: 1 } }, { required: ['n'] });
    const after = obj({ n: { type: 'number' } }, { required: ['n'] });
    expect(brief(before, after, 'request')).toEqual(['n:becameRequired:false']);
  });

  it('a new required response field is compatible, a new required request field is not unless it has a default', () => {
    const before = obj({});
    expect(d(before, obj({ n: { type: 'number', default: 1 } }, { required: ['n'] }), 'request')).toEqual([
      { path: 'n', kind: 'fieldAdded', compatible: true, detail: 'optional field `n` added' },
    ]);
    expect(d(before, obj({ n: { type: 'number' } }, { required: ['n'] }), 'request')).toEqual([
      { path: 'n', kind: 'fieldAdded', compatible: false, detail: 'required field `n` added' },
    ]);
    expect(d(before, obj({ n: { type: 'number', default: 1 } }, { required: ['n'] }), 'response')).toEqual([
      { path: 'n', kind: 'fieldAdded', compatible: true, detail: 'required field `n` added' },
    ]);
  });

  it('a removed field is incompatible in both directions, optional or not', () => {
    for (const direction of ['request', 'response'] as const) {
      expect(brief(obj({ n: { type: 'number' } }), obj({}), direction)).toEqual(['n:fieldRemoved:false']);
    }
  });
});

describe('types and values', () => {
  it('counts an integer as a number', () => {
    const int = obj({ n: { type: 'integer' } });
    const num = obj({ n: { type: 'number' } });
    expect(d(int, num, 'request')).toEqual([
      { path: 'n', kind: 'typeChanged', compatible: true, detail: 'type of `n` changed from integer to number' },
    ]);
    expect(brief(num, int, 'request')).toEqual(['n:typeChanged:false']);
    expect(brief(int, num, 'response')).toEqual(['n:typeChanged:false']);
    expect(brief(num, int, 'response')).toEqual(['n:typeChanged:true']);
  });

  it('reads a list of types, ignoring entries that are not names', () => {
    expect(d(obj({ n: { type: ['string', 'null'] } }), obj({ n: { anyOf: [{ type: 'null' }, { type: 'string' }] } }), 'request')).toEqual([]);
    expect(d(obj({ n: { type: ['string', 7] } }), obj({ n: { type: 'string' } }), 'request')).toEqual([]);
  });

  it('reads a type from const and enum values, and from properties', () => {
    expect(d(obj({ n: { const: 'a' } }), obj({ n: { type: 'string', enum: ['a'] } }), 'request')).toEqual([]);
    expect(d(obj({ n: { enum: [1, null] } }), obj({ n: { type: ['number', 'null'], enum: [null, 1] } }), 'request')).toEqual([]);
    expect(d(obj({ n: { enum: [[1], true] } }), obj({ n: { type: ['array', 'boolean'], enum: [[1], true] } }), 'request')).toEqual([]);
    expect(d(obj({ n: { properties: {} } }), obj({ n: { type: 'object', properties: {} } }), 'request')).toEqual([]);
  });

  it('reports a value set that appears, as narrowing', () => {
    const open = obj({ s: { type: 'string' } });
    const closed = obj({ s: { type: 'string', enum: ['a', 'b'] } });
    expect(d(open, closed, 'response')).toEqual([
      { path: 's', kind: 'typeChanged', compatible: true, detail: '`s` is now restricted to a fixed set of values' },
    ]);
    expect(brief(open, closed, 'request')).toEqual(['s:typeChanged:false']);
  });

  it('reports a changed const as one value removed and one added', () => {
    expect(d(obj({ k: { const: 'a' } }), obj({ k: { const: 'b' } }), 'response')).toEqual([
      { path: 'k', kind: 'enumValueAdded', compatible: false, detail: 'enum value "b" added to `k`' },
      { path: 'k', kind: 'enumValueRemoved', compatible: true, detail: 'enum value "a" removed from `k`' },
    ]);
  });

  it('compares values by their JSON, objects and null included', () => {
    expect(d(obj({ k: { enum: [{ a: 1 }, null] } }), obj({ k: { enum: [null, { a: 1 }] } }), 'response')).toEqual([]);
  });

  it('reports a changed root type as `(root)`', () => {
    expect(d({ type: 'string' }, { type: 'number' }, 'request')).toEqual([
      { path: '', kind: 'typeChanged', compatible: false, detail: 'type of `(root)` changed from string to number' },
    ]);
    expect(d({ enum: ['a'] }, { type: 'string' }, 'request')[0]?.detail).toBe('`(root)` is no longer restricted to a fixed set of values');
  });

  it('names a schema that accepts nothing `never`, and anything `any`', () => {
    expect(d(obj({ n: false }), obj({ n: { type: 'string' } }), 'request')).toEqual([
      { path: 'n', kind: 'typeChanged', compatible: true, detail: 'type of `n` changed from never to string' },
    ]);
    expect(brief(obj({ n: false }), obj({ n: { type: 'string' } }), 'response')).toEqual(['n:typeChanged:false']);
    expect(d(obj({ n: true }), obj({ n: {} }), 'request')).toEqual([]);
    expect(d(obj({ n: {} }), obj({ n: { description: 'anything' } }), 'request')).toEqual([]);
  });

  it('does not compare the fields of a side that is no longer an object', () => {
    expect(brief(obj({ o: obj({ a: { type: 'string' } }) }), obj({ o: { type: 'string' } }), 'response')).toEqual(['o:typeChanged:false']);
    expect(brief(obj({ o: { type: 'array', items: { type: 'string' } } }), obj({ o: { type: 'string' } }), 'response')).toEqual([
      'o:typeChanged:false',
    ]);
  });

  it('takes `required` as names only, from objects only', () => {
    const before = obj({ a: { type: 'string' } }, { required: ['a', 3, null] });
    const after = obj({ a: { type: 'string' } }, { required: ['a'] });
    expect(d(before, after, 'request')).toEqual([]);
    expect(d(obj({ a: { type: 'string' } }, { required: 'a' }), obj({ a: { type: 'string' } }), 'request')).toEqual([]);
  });

  it('requires a field of a union only if every object branch requires it', () => {
    const union = (reqB: string[]): JsonSchema => ({
      anyOf: [obj({ a: { type: 'string' } }, { required: ['a'] }), obj({ a: { type: 'string' } }, { required: reqB })],
    });
    expect(brief(union([]), union(['a']), 'request')).toEqual(['a:becameRequired:false']);
    expect(brief(union(['a']), union([]), 'request')).toEqual(['a:becameOptional:true']);
  });

  it('ignores branches that are not objects when merging required fields', () => {
    const before: JsonSchema = { anyOf: [obj({ a: { type: 'string' } }, { required: ['a'] }), { type: 'null' }] };
    const after: JsonSchema = { oneOf: [obj({ a: { type: 'string' } }, { required: ['a'] }), { type: 'null' }] };
    expect(d(before, after, 'request')).toEqual([]);
  });

  it('sorts differences of one path and kind by their detail', () => {
    const before = obj({ k: { enum: ['a', 'b'] } });
    const after = obj({ k: { enum: ['a', 'd', 'c'] } });
    expect(d(before, after, 'request').map((x) => x.detail)).toEqual([
      'enum value "c" added to `k`',
      'enum value "d" added to `k`',
      'enum value "b" removed from `k`',
    ]);
  });
});

describe('edge cases of the merge', () => {
  it('reads a ref to another document as any value, even when its fragment exists here', () => {
    const defs = { $defs: { Leaf: { type: 'string' } } };
    expect(d(obj({ a: { type: 'number' } }, defs), obj({ a: { $ref: 'other.json#/$defs/Leaf' } }, defs), 'request')).toEqual([
      { path: 'a', kind: 'typeChanged', compatible: true, detail: 'type of `a` changed from number to any' },
    ]);
  });

  it('compares record values only when both sides have them', () => {
    const record = (values: unknown): JsonSchema => obj({ m: { type: 'object', additionalProperties: values } });
    expect(d(record({ type: 'string' }), record(false), 'response')).toEqual([]);
    expect(d(record({ type: 'string' }), obj({ m: { type: 'object' } }), 'response')).toEqual([]);
  });

  it('does not let a non-object branch make a field optional', () => {
    const before: JsonSchema = { anyOf: [obj({ a: { type: 'string' } }, { required: ['a'] }), { type: 'null' }] };
    const after = obj({ a: { type: 'string' } }, { required: ['a'] });
    expect(d(before, after, 'request')).toEqual([
      { path: '', kind: 'typeChanged', compatible: false, detail: 'type of `(root)` changed from null | object to object' },
    ]);
  });

  it('does not give a non-array branch items', () => {
    const before: JsonSchema = { anyOf: [{ type: 'array', items: { type: 'string' } }, obj({})] };
    const after: JsonSchema = { type: 'array', items: { type: 'string' } };
    expect(d(before, after, 'response')).toEqual([
      { path: '', kind: 'typeChanged', compatible: true, detail: 'type of `(root)` changed from array | object to array' },
    ]);
  });

  it('widens a request only when every old value is still accepted', () => {
    const before = obj({ k: { enum: ['a', 'b'] } });
    const after = obj({ k: { type: ['string', 'number'], enum: ['a', 1] } });
    expect(d(before, after, 'request')).toEqual([
      { path: 'k', kind: 'enumValueAdded', compatible: true, detail: 'enum value 1 added to `k`' },
      { path: 'k', kind: 'enumValueRemoved', compatible: false, detail: 'enum value "b" removed from `k`' },
      { path: 'k', kind: 'typeChanged', compatible: false, detail: 'type of `k` changed from string to number | string' },
    ]);
  });

  it('narrows a response only when every new value was already possible', () => {
    const before = obj({ k: { type: ['string', 'number'], enum: ['a', 1] } });
    const after = obj({ k: { enum: ['a', 'c'] } });
    expect(brief(before, after, 'response')).toEqual(['k:enumValueAdded:false', 'k:enumValueRemoved:true', 'k:typeChanged:false']);
  });

  it('names a value that JSON cannot write', () => {
    expect(d(obj({ k: { const: undefined } }), obj({ k: { const: 'a' } }), 'response').map((x) => x.detail)).toContain(
      'enum value undefined removed from `k`',
    );
  });

  it('stops at a pair of recursive unions met again in another order', () => {
    const schema = (x: string): JsonSchema => {
      const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
      const node = (first: string, second: string) => obj({ x: { type: x }, next: { anyOf: [ref(first), ref(second)] } });
      return { anyOf: [ref('A'), ref('B')], $defs: { A: node('B', 'A'), B: node('A', 'B') } };
    };
    expect(d(schema('string'), schema('number'), 'response')).toEqual([
      { path: 'x', kind: 'typeChanged', compatible: false, detail: 'type of `x` changed from string to number' },
    ]);
  });
});
