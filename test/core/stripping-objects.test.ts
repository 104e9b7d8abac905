// Where a request schema would drop fields a client sent: every zod object that strips unknown keys, by path.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strippingObjects } from '../../src/core/contract-model/stripping-objects.js';

describe('strippingObjects', () => {
  it('finds none in loose and strict objects, and in values that are not objects', () => {
    expect(strippingObjects(z.looseObject({ a: z.strictObject({ b: z.string() }) }))).toEqual([]);
    expect(strippingObjects(z.string())).toEqual([]);
    expect(strippingObjects(z.array(z.number()))).toEqual([]);
  });

  it('names the body itself as the empty path, and each nested place by its dotted path', () => {
    expect(strippingObjects(z.object({}))).toEqual(['']);
    expect(strippingObjects(z.looseObject({ a: z.looseObject({ b: z.object({}) }) }))).toEqual(['a.b']);
  });

  it('walks through wrappers, arrays, records, tuples, unions, intersections, pipes and catch-alls', () => {
    const inner = () => z.object({ x: z.string() });
    const schema = z.looseObject({
      opt: inner().optional().nullable().default({ x: '' }).readonly(),
      list: z.array(inner()),
      map: z.record(z.string(), inner()),
      pair: z.tuple([z.string(), inner()], inner()),
      either: z.union([z.string(), inner()]),
      both: z.intersection(z.looseObject({}), inner()),
      piped: inner().pipe(z.looseObject({ x: z.string() })),
      caught: inner().catch({ x: '' }),
    }).catchall(inner());
    expect(strippingObjects(schema).sort()).toEqual(
      ['opt', 'list.*', 'map.*', 'pair.1', 'pair.*', 'either', 'both', 'piped', 'caught', '*'].sort(),
    );
  });

  it('expands a recursive schema once, and lists a place once however often it is reached', () => {
    type Tree = { readonly kids?: readonly Tree[] };
    const tree: z.ZodType<Tree> = z.lazy(() => z.object({ kids: z.array(tree).optional() }));
    expect(strippingObjects(tree)).toEqual(['']);
    const shared = z.object({});
    expect(strippingObjects(z.union([shared, shared]))).toEqual(['']);
  });
});
