// Tests for the contract-check schema diff: each difference between two versions and its compatibility.
import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import { diffSchemas, jsonSchemaOf, type Direction, type JsonSchema } from '../../src/core/schema/diff.js';

const diff = (before: z.ZodType, after: z.ZodType, direction: Direction) =>
  diffSchemas(jsonSchemaOf(before, direction), jsonSchemaOf(after, direction), direction);

const both: Direction[] = ['request', 'response'];

describe('diffSchemas', () => {
  it.each(both)('identical schemas yield no differences in a %s', (direction) => {
    const s = z.object({ key: z.string(), tags: z.array(z.enum(['a', 'b'])).optional(), n: z.number().default(1) });
    expect(diff(s, s, direction)).toEqual([]);
  });

  it.each(both)('a looseObject compared with a strict object yields no differences in a %s', (direction) => {
    const fields = { key: z.string(), inner: z.object({ x: z.number() }) };
    expect(diff(z.object(fields), z.looseObject(fields), direction)).toEqual([]);
    expect(diff(z.looseObject(fields), z.object(fields), direction)).toEqual([]);
  });

  it.each([
    { direction: 'request', compatible: true },
    { direction: 'response', compatible: true },
  ] as const)('an added optional field is reported as fieldAdded, compatible in a $direction', ({ direction, compatible }) => {
    const v1 = z.object({ key: z.string() });
    const v2 = z.object({ key: z.string(), note: z.string().optional() });
    expect(diff(v1, v2, direction)).toEqual([
      { path: 'note', kind: 'fieldAdded', compatible, detail: 'optional field `note` added' },
    ]);
  });

  it.each([
    { direction: 'request', compatible: false },
    { direction: 'response', compatible: true },
  ] as const)('an added required field is reported as fieldAdded, compatible=$compatible in a $direction', ({ direction, compatible }) => {
    const v1 = z.object({ key: z.string() });
    const v2 = z.object({ key: z.string(), note: z.string() });
    expect(diff(v1, v2, direction)).toEqual([
      { path: 'note', kind: 'fieldAdded', compatible, detail: 'required field `note` added' },
    ]);
  });

  it('an added request field with a default counts as optional and is compatible', () => {
    const v1 = z.object({ key: z.string() });
    const v2 = z.object({ key: z.string(), limit: z.number().default(10) });
    expect(diff(v1, v2, 'request')).toEqual([
      { path: 'limit', kind: 'fieldAdded', compatible: true, detail: 'optional field `limit` added' },
    ]);
  });

  it.each(both)('a removed field is reported as fieldRemoved and incompatible in a %s', (direction) => {
    const v1 = z.object({ key: z.string(), old: z.number().optional() });
    const v2 = z.object({ key: z.string() });
    expect(diff(v1, v2, direction)).toEqual([
      { path: 'old', kind: 'fieldRemoved', compatible: false, detail: 'field `old` removed' },
    ]);
  });

  it('a renamed field shows as fieldRemoved plus fieldAdded, sorted by path', () => {
    const v1 = z.object({ key: z.string() });
    const v2 = z.object({ id: z.string() });
    expect(diff(v1, v2, 'request')).toEqual([
      { path: 'id', kind: 'fieldAdded', compatible: false, detail: 'required field `id` added' },
      { path: 'key', kind: 'fieldRemoved', compatible: false, detail: 'field `key` removed' },
    ]);
  });

  it('a field renamed inside array items of a nested object is reported at its dotted path', () => {
    const v1 = z.object({ config: z.object({ items: z.array(z.object({ name: z.string() })) }) });
    const v2 = z.object({ config: z.object({ items: z.array(z.object({ title: z.string() })) }) });
    expect(diff(v1, v2, 'response')).toEqual([
      { path: 'config.items.*.name', kind: 'fieldRemoved', compatible: false, detail: 'field `config.items.*.name` removed' },
      { path: 'config.items.*.title', kind: 'fieldAdded', compatible: true, detail: 'required field `config.items.*.title` added' },
    ]);
  });

  it.each(both)('a scalar that became an array is an incompatible typeChanged in a %s', (direction) => {
    const v1 = z.object({ key: z.string() });
    const v2 = z.object({ key: z.array(z.string()) });
    expect(diff(v1, v2, direction)).toEqual([
      { path: 'key', kind: 'typeChanged', compatible: false, detail: 'type of `key` changed from string to array' },
    ]);
  });

  it.each([
    { direction: 'request', compatible: true },
    { direction: 'response', compatible: false },
  ] as const)('widening string to string|string[] is a typeChanged with compatible=$compatible in a $direction', ({ direction, compatible }) => {
    const v1 = z.object({ key: z.string() });
    const v2 = z.object({ key: z.union([z.string(), z.array(z.string())]) });
    expect(diff(v1, v2, direction)).toEqual([
      { path: 'key', kind: 'typeChanged', compatible, detail: 'type of `key` changed from string to array | string' },
    ]);
  });

  it('narrowing string|null to string is compatible in a response and incompatible in a request', () => {
    const v1 = z.object({ key: z.string().nullable() });
    const v2 = z.object({ key: z.string() });
    expect(diff(v1, v2, 'response').map((d) => [d.kind, d.compatible])).toEqual([['typeChanged', true]]);
    expect(diff(v1, v2, 'request').map((d) => [d.kind, d.compatible])).toEqual([['typeChanged', false]]);
  });

  it('changing string to number is incompatible in both directions', () => {
    const v1 = z.object({ n: z.string() });
    const v2 = z.object({ n: z.number() });
    for (const direction of both) expect(diff(v1, v2, direction).map((d) => d.compatible)).toEqual([false]);
  });

  it.each([
    { direction: 'request', compatible: true },
    { direction: 'response', compatible: false },
  ] as const)('an added enum value is enumValueAdded with compatible=$compatible in a $direction', ({ direction, compatible }) => {
    const v1 = z.object({ status: z.enum(['on', 'off']) });
    const v2 = z.object({ status: z.enum(['on', 'off', 'auto']) });
    expect(diff(v1, v2, direction)).toEqual([
      { path: 'status', kind: 'enumValueAdded', compatible, detail: 'enum value "auto" added to `status`' },
    ]);
  });

  it.each([
    { direction: 'request', compatible: false },
    { direction: 'response', compatible: true },
  ] as const)('a removed enum value is enumValueRemoved with compatible=$compatible in a $direction', ({ direction, compatible }) => {
    const v1 = z.object({ status: z.enum(['on', 'off', 'auto']) });
    const v2 = z.object({ status: z.enum(['on', 'off']) });
    expect(diff(v1, v2, direction)).toEqual([
      { path: 'status', kind: 'enumValueRemoved', compatible, detail: 'enum value "auto" removed from `status`' },
    ]);
  });

  it('an enum relaxed to any string is a typeChanged compatible only in a request', () => {
    const v1 = z.object({ status: z.enum(['on', 'off']) });
    const v2 = z.object({ status: z.string() });
    expect(diff(v1, v2, 'request')).toEqual([
      { path: 'status', kind: 'typeChanged', compatible: true, detail: '`status` is no longer restricted to a fixed set of values' },
    ]);
    expect(diff(v1, v2, 'response').map((d) => d.compatible)).toEqual([false]);
  });

  it.each([
    { direction: 'request', compatible: true },
    { direction: 'response', compatible: false },
  ] as const)('a required field that became optional is becameOptional with compatible=$compatible in a $direction', ({ direction, compatible }) => {
    const v1 = z.object({ key: z.string() });
    const v2 = z.object({ key: z.string().optional() });
    expect(diff(v1, v2, direction)).toEqual([
      { path: 'key', kind: 'becameOptional', compatible, detail: 'field `key` became optional' },
    ]);
  });

  it.each([
    { direction: 'request', compatible: false },
    { direction: 'response', compatible: true },
  ] as const)('an optional field that became required is becameRequired with compatible=$compatible in a $direction', ({ direction, compatible }) => {
    const v1 = z.object({ key: z.string().optional() });
    const v2 = z.object({ key: z.string() });
    expect(diff(v1, v2, direction)).toEqual([
      { path: 'key', kind: 'becameRequired', compatible, detail: 'field `key` became required' },
    ]);
  });

  it('a recursive schema through $ref terminates and reports a change inside the definition once', () => {
    const Node1: z.ZodType = z.object({ name: z.string(), get children() { return z.array(Node1).optional(); } });
    const Node2: z.ZodType = z.object({
      name: z.string(),
      size: z.number(),
      get children() { return z.array(Node2).optional(); },
    });
    const v1 = z.object({ root: Node1, spare: Node1.optional() });
    const v2 = z.object({ root: Node2, spare: Node2.optional() });
    expect(JSON.stringify(jsonSchemaOf(v1, 'response'))).toContain('$ref');
    expect(diff(v1, v2, 'response')).toEqual([
      { path: 'root.size', kind: 'fieldAdded', compatible: true, detail: 'required field `root.size` added' },
      { path: 'spare.size', kind: 'fieldAdded', compatible: true, detail: 'required field `spare.size` added' },
    ]);
    expect(diff(Node1, Node1, 'request')).toEqual([]);
  });

  it('a $ref into #/definitions and a self-referencing definition are resolved without looping', () => {
    const schema = (leaf: JsonSchema): JsonSchema => ({
      $ref: '#/definitions/T',
      definitions: {
        T: { type: 'object', properties: { leaf, next: { $ref: '#/definitions/T' }, loop: { $ref: '#/definitions/L' } } },
        L: { anyOf: [{ $ref: '#/definitions/L' }, { type: 'string' }] },
      },
    });
    expect(diffSchemas(schema({ type: 'string' }), schema({ type: 'integer' }), 'request')).toEqual([
      { path: 'leaf', kind: 'typeChanged', compatible: false, detail: 'type of `leaf` changed from string to integer' },
    ]);
  });

  it('union branches of objects are merged: a field is present if in any branch and required only if in all', () => {
    const v1 = z.discriminatedUnion('t', [
      z.object({ t: z.literal('a'), x: z.string() }),
      z.object({ t: z.literal('b'), x: z.string(), y: z.number() }),
    ]);
    const v2 = z.discriminatedUnion('t', [
      z.object({ t: z.literal('a'), x: z.string(), y: z.number() }),
      z.object({ t: z.literal('b'), x: z.string(), y: z.number() }),
      z.object({ t: z.literal('c'), x: z.string(), y: z.number() }),
    ]);
    expect(diff(v1, v2, 'response')).toEqual([
      { path: 't', kind: 'enumValueAdded', compatible: false, detail: 'enum value "c" added to `t`' },
      { path: 'y', kind: 'becameRequired', compatible: true, detail: 'field `y` became required' },
    ]);
  });

  it('annotations such as description, title and default values are ignored', () => {
    const v1 = z.object({ n: z.number().default(1).describe('old') });
    const v2 = z.object({ n: z.number().default(5).meta({ title: 'N', description: 'new' }) });
    for (const direction of both) expect(diff(v1, v2, direction)).toEqual([]);
  });

  it('output is sorted by path then kind and is the same on repeated calls', () => {
    const v1 = z.object({ b: z.enum(['x', 'y']), a: z.string(), c: z.string().optional() });
    const v2 = z.object({ c: z.number(), b: z.enum(['x', 'z']), d: z.string().optional() });
    const first = diff(v1, v2, 'request');
    expect(first.map((d) => `${d.path}:${d.kind}`)).toEqual([
      'a:fieldRemoved',
      'b:enumValueAdded',
      'b:enumValueRemoved',
      'c:becameRequired',
      'c:typeChanged',
      'd:fieldAdded',
    ]);
    expect(diff(v1, v2, 'request')).toEqual(first);
  });
});
