// schemaHas: whether a zod schema has the place a contract path names (behind check-contract's
// `change-without-effect` rule): keys, array steps, union filters, wrappers, open values, recursion.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaHas } from '../../src/core/contract-model/schema-paths.js';

describe('schemaHas: keys, arrays, records', () => {
  it('follows named keys and stops at scalars and missing keys', () => {
    const schema = z.object({ a: z.object({ b: z.string() }) });
    expect(schemaHas(schema, '')).toBe(true);
    expect(schemaHas(schema, 'a')).toBe(true);
    expect(schemaHas(schema, 'a.b')).toBe(true);
    expect(schemaHas(schema, 'a.c')).toBe(false);
    expect(schemaHas(schema, 'a.b.c')).toBe(false);
    expect(schemaHas(z.object({ a: z.number() }), 'a.length')).toBe(false);
    // An own key only: nothing inherited from Object.prototype.
    expect(schemaHas(z.object({}), 'toString')).toBe(false);
  });

  it('steps into arrays with `*` only, never into objects, scalars, sets or maps', () => {
    const schema = z.object({ list: z.array(z.object({ b: z.string() })), one: z.object({ b: z.string() }) });
    expect(schemaHas(schema, 'list.*')).toBe(true);
    expect(schemaHas(schema, 'list.*.b')).toBe(true);
    expect(schemaHas(schema, 'list.*.c')).toBe(false);
    expect(schemaHas(schema, 'one.*')).toBe(false);
    expect(schemaHas(schema, 'one.*.b')).toBe(false);
    expect(schemaHas(schema, 'list.b')).toBe(false);
    expect(schemaHas(z.object({ s: z.string() }), 's.*')).toBe(false);
    expect(schemaHas(z.object({ s: z.set(z.object({ b: z.string() })) }), 's.*.b')).toBe(false);
  });

  it('takes any key of a record to its values, but not a set or a map (no JSON keys)', () => {
    const rec = z.object({ r: z.record(z.string(), z.object({ b: z.string() })) });
    expect(schemaHas(rec, 'r.anything')).toBe(true);
    expect(schemaHas(rec, 'r.anything.b')).toBe(true);
    expect(schemaHas(rec, 'r.anything.c')).toBe(false);
    expect(schemaHas(z.object({ m: z.map(z.string(), z.object({ b: z.string() })) }), 'm.k.b')).toBe(false);
    expect(schemaHas(z.object({ s: z.set(z.object({ b: z.string() })) }), 's.k')).toBe(false);
  });

  it('finds a key in any alternative of a union, not only when every alternative has it', () => {
    const schema = z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]);
    expect(schemaHas(schema, 'a')).toBe(true);
    expect(schemaHas(schema, 'b')).toBe(true);
    expect(schemaHas(schema, 'c')).toBe(false);
  });

  it('reads anything under `unknown` and `any` as present, but no union filter there unless open tags count', () => {
    const schema = z.object({ u: z.unknown(), a: z.any() });
    expect(schemaHas(schema, 'u.x.y')).toBe(true);
    expect(schemaHas(schema, 'a.x.y')).toBe(true);
    expect(schemaHas(schema, 'a.*')).toBe(true);
    expect(schemaHas(schema, 'u.x[type=chart]')).toBe(false);
    expect(schemaHas(schema, 'a.*[type=chart]')).toBe(false);
    expect(schemaHas(schema, 'u.x[type=chart]', true)).toBe(true);
    expect(schemaHas(schema, 'a.*[type=chart].b', true)).toBe(true);
  });
});

describe('schemaHas: wrappers', () => {
  it('opens optional, nullable, default, prefault, readonly, catch and nonoptional', () => {
    const inner = () => z.object({ b: z.string() });
    const wrapped: Record<string, z.ZodType> = {
      optional: inner().optional(),
      nullable: inner().nullable(),
      default: inner().default({ b: '' }),
      prefault: inner().prefault({ b: '' }),
      readonly: inner().readonly(),
      catch: inner().catch({ b: '' }),
      nonoptional: inner().optional().nonoptional(),
    };
    for (const [name, schema] of Object.entries(wrapped)) {
      expect([name, schemaHas(z.object({ w: schema }), 'w.b')]).toEqual([name, true]);
      expect([name, schemaHas(z.object({ w: schema }), 'w.c')]).toEqual([name, false]);
    }
  });

  it('opens pipes (their input side), lazies and both sides of an intersection', () => {
    const piped = z.object({ a: z.string() }).transform((v) => ({ ...v, extra: 1 }));
    expect(schemaHas(piped, 'a')).toBe(true);
    expect(schemaHas(piped, 'extra')).toBe(false);
    expect(schemaHas(z.lazy(() => z.object({ a: z.string() })), 'a')).toBe(true);
    const both = z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() }));
    expect(schemaHas(both, 'a')).toBe(true);
    expect(schemaHas(both, 'b')).toBe(true);
    expect(schemaHas(both, 'c')).toBe(false);
  });

  it('opens 32 nested wrappers but not 33', () => {
    const nest = (n: number): z.ZodType => {
      let s: z.ZodType = z.object({ b: z.string() });
      for (let i = 0; i < n; i++) s = s.optional();
      return s;
    };
    expect(schemaHas(nest(32), 'b')).toBe(true);
    expect(schemaHas(nest(33), 'b')).toBe(false);
  });

  it('answers for schemas that refer to themselves through lazies, unions, intersections, pipes and wrappers', () => {
    const leaf = () => z.object({ a: z.string() });
    const self: z.ZodType = z.lazy(() => self);
    expect(schemaHas(self, 'a')).toBe(false);
    const viaUnion: z.ZodType = z.lazy(() => z.union([viaUnion, leaf()]));
    expect(schemaHas(viaUnion, 'a')).toBe(true);
    const viaLeft: z.ZodType = z.lazy(() => z.intersection(viaLeft, leaf()));
    expect(schemaHas(viaLeft, 'a')).toBe(true);
    const viaRight: z.ZodType = z.lazy(() => z.intersection(leaf(), viaRight));
    expect(schemaHas(viaRight, 'a')).toBe(true);
    const viaPipe: z.ZodType = z.lazy(() => viaPipe.transform((v) => v));
    expect(schemaHas(viaPipe, 'a')).toBe(false);
    const viaOptional: z.ZodType = z.lazy(() => viaOptional.optional());
    expect(schemaHas(viaOptional, 'a')).toBe(false);
  });
});

describe('schemaHas: union filters', () => {
  const chart = () => z.object({ type: z.literal('chart'), color: z.string() });
  const title = () => z.object({ type: z.literal('title'), text: z.string() });

  it('selects the array members whose tag allows the value, with one or several values', () => {
    const schema = z.object({ items: z.array(z.union([chart(), title()])) });
    expect(schemaHas(schema, 'items.*[type=chart]')).toBe(true);
    expect(schemaHas(schema, 'items.*[type=chart].color')).toBe(true);
    expect(schemaHas(schema, 'items.*[type=chart].text')).toBe(false);
    expect(schemaHas(schema, 'items.*[type=title].text')).toBe(true);
    expect(schemaHas(schema, 'items.*[type=map]')).toBe(false);
    expect(schemaHas(schema, 'items.*[type=map|title].text')).toBe(true);
    expect(schemaHas(schema, 'items.*[kind=chart]')).toBe(false);
  });

  it('selects a member by a tag allowing several values (an enum, a multi-value literal), by any one of them', () => {
    const byEnum = z.array(z.object({ type: z.enum(['chart', 'graph']), color: z.string() }));
    expect(schemaHas(byEnum, '*[type=graph].color')).toBe(true);
    expect(schemaHas(byEnum, '*[type=chart].color')).toBe(true);
    expect(schemaHas(byEnum, '*[type=title]')).toBe(false);
    const byLiteral = z.array(z.object({ type: z.literal(['chart', 'graph']), color: z.string() }));
    expect(schemaHas(byLiteral, '*[type=graph].color')).toBe(true);
    const byUnion = z.array(z.object({ type: z.union([z.literal('chart'), z.enum(['graph'])]).optional(), color: z.string() }));
    expect(schemaHas(byUnion, '*[type=graph].color')).toBe(true);
    expect(schemaHas(byUnion, '*[type=chart].color')).toBe(true);
  });

  it('does not count a member whose tag is free (a string, or a value set widened by one) or absent', () => {
    expect(schemaHas(z.array(z.object({ type: z.string(), color: z.string() })), '*[type=chart]')).toBe(false);
    const widened = z.array(z.object({ type: z.union([z.literal('chart'), z.string()]), color: z.string() }));
    expect(schemaHas(widened, '*[type=chart].color')).toBe(false);
    expect(schemaHas(z.array(z.object({ color: z.string() })), '*[type=chart]')).toBe(false);
  });

  it('follows a filtered key to the members its value tags, any of them having the rest', () => {
    const schema = z.object({ main: z.union([chart(), title(), z.object({ type: z.literal('chart'), size: z.number() })]) });
    expect(schemaHas(schema, 'main[type=chart]')).toBe(true);
    expect(schemaHas(schema, 'main[type=chart].color')).toBe(true);
    expect(schemaHas(schema, 'main[type=chart].size')).toBe(true);
    expect(schemaHas(schema, 'main[type=chart].text')).toBe(false);
    expect(schemaHas(schema, 'main[type=title|map].text')).toBe(true);
    expect(schemaHas(schema, 'main[type=map]')).toBe(false);
    expect(schemaHas(schema, 'main[type=chart].color.x')).toBe(false);
    expect(schemaHas(z.object({ main: chart() }), 'main[type=chart].color')).toBe(true);
    expect(schemaHas(z.object({ main: title() }), 'main[type=chart].text')).toBe(false);
  });

  it('meets a filter over an open value (a record, unknown) only with open tags, and still checks the rest', () => {
    const rec = z.object({ r: z.record(z.string(), z.object({ b: z.string() })) });
    expect(schemaHas(rec, 'r.k[type=x].b')).toBe(false);
    expect(schemaHas(rec, 'r.k[type=x].b', true)).toBe(true);
    expect(schemaHas(rec, 'r.k[type=x].c', true)).toBe(false);

    const atKey = z.object({ a: z.record(z.string(), z.object({ b: z.string() })) });
    expect(schemaHas(atKey, 'a[type=x].k.b')).toBe(false);
    expect(schemaHas(atKey, 'a[type=x].k.b', true)).toBe(true);
    expect(schemaHas(atKey, 'a[type=x].k.c', true)).toBe(false);
    expect(schemaHas(z.object({ a: z.unknown() }), 'a[type=x].b')).toBe(false);
    expect(schemaHas(z.object({ a: z.unknown() }), 'a[type=x].b', true)).toBe(true);

    const inArray = z.array(z.record(z.string(), z.object({ b: z.string() })));
    expect(schemaHas(inArray, '*[type=x].k.b')).toBe(false);
    expect(schemaHas(inArray, '*[type=x].k.b', true)).toBe(true);
    expect(schemaHas(inArray, '*[type=x].k.c', true)).toBe(false);
  });

  it('with open tags, counts a union as open when any member is open, and a closed member never as open', () => {
    const mixed = z.object({ a: z.union([z.record(z.string(), z.object({ b: z.string() })), title()]) });
    expect(schemaHas(mixed, 'a[type=x].b', true)).toBe(true);
    const mixedUnknown = z.array(z.union([title(), z.unknown()]));
    expect(schemaHas(mixedUnknown, '*[type=x].b', true)).toBe(true);
    // A closed object whose tag names another member: open tags do not let the filter through.
    const closed = z.object({ a: z.object({ type: z.literal('title'), b: z.string() }) });
    expect(schemaHas(closed, 'a[type=x].b', true)).toBe(false);
    const closedItems = z.array(z.object({ type: z.literal('title'), b: z.string() }));
    expect(schemaHas(closedItems, '*[type=x].b', true)).toBe(false);
  });
});
