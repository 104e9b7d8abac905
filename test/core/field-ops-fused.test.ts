// fuseFieldSteps: consecutive field steps on one kind at the same locations run in one walk of the body, with the
// same result as running them one by one, whatever the body; locations that nest, and any other step, are left
// as they are.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BodyMigration, Json, MigrationContext } from '../../src/core/contract-model/types.js';
import { drop, fill, fromArray, fuseFieldSteps, move, onLocated, onLocatedFields, restore, toArray, type Located } from '../../src/core/translate/field-ops.js';
import { NO_SERVICES } from '../helpers/no-services.js';

const ctx: MigrationContext = {
  clientVersion: 1,
  callBackend: async () => {
    throw new Error('no backend in this test');
  },
  principal: 'p',
  state: new Map(),
  services: NO_SERVICES,
};

/** Runs steps one after the other on a copy of `body` (every step here answers at once). */
const runAll = (steps: readonly BodyMigration[], body: Json): unknown => {
  let current = structuredClone(body);
  for (const step of steps) current = step(current, ctx) as Json;
  return current;
};

// Operations on the located objects, among them ones that read and write the filter's tag `t`, and paths that step
// into arrays, so that an operation can stop (or start) a row being one the location selects.
const OPS: ReadonlyArray<(o: Json) => Json> = [
  fill('a', 1),
  fill('data.size', 'm'),
  fill('t', 'k'),
  restore('data.schemeVersion', 8),
  restore('kept', { v: [1] }),
  drop('t'),
  drop('data.c'),
  drop('x.*.y'),
  move('t', 'u'),
  move('u', 't'),
  move('data.description', 'annotation.description'),
  move('annotation.description', 'data.description', (v) => (typeof v === 'string' ? v.toUpperCase() : v)),
  move('x.*.y', 'x.*.z.w'),
  move('items.*[t=k].v', 'items.*[t=k].w.v'),
  toArray('a'),
  fromArray('a'),
  toArray('data.c'),
  fromArray('x'),
];

const leaf = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -3, max: 3 }), fc.constantFrom('k', 'j', 'text'));
/** Objects with the keys the operations read, each present or not, holding values of any kind. */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), fc.array(tie('node'), { maxLength: 3 })),
  object: fc.dictionary(fc.constantFrom('t', 'u', 'a', 'data', 'c', 'x', 'y', 'z', 'items', 'v', 'annotation', 'description', 'rows', 'one', 'size'), tie('node'), { maxKeys: 5 }),
})).node;
const row = fc.record({ t: fc.constantFrom('k', 'j'), data: value, x: value, items: value, annotation: value, a: value }, { requiredKeys: [] });
const body = fc.record({ rows: fc.array(fc.oneof(row, value), { maxLength: 4 }), one: fc.oneof(row, value), other: value }, { requiredKeys: [] }) as fc.Arbitrary<Json>;

/** Kinds located in ways that do not nest: the body's rows (all, or one member of the union), a key, both. */
const DISJOINT: ReadonlyArray<readonly Located[]> = [
  [{ type: 'o', path: 'rows.*' }],
  [{ type: 'o', path: 'rows.*[t=k]' }],
  [{ type: 'o', path: 'one' }],
  [{ type: 'o', path: '' }],
  // A listing's rows, which may leave out the content (`data`) that some operations read or write.
  [{ type: 'o', path: 'rows.*', listing: { content: 'data' } }],
  [
    { type: 'o', path: 'rows.*[t=k|j]' },
    { type: 'o', path: 'one' },
    { type: 'other', path: 'rows.*' },
  ],
];
/** Locations of one kind where one reaches inside the other's objects: not fused. */
const NESTED: ReadonlyArray<readonly Located[]> = [
  [
    { type: 'o', path: 'one' },
    { type: 'o', path: 'one.rows.*' },
  ],
  [
    { type: 'o', path: '' },
    { type: 'o', path: 'rows.*' },
  ],
  [
    { type: 'o', path: 'rows.*[t=k]' },
    { type: 'o', path: 'rows.*[t=j]' },
  ],
];

describe('fuseFieldSteps', () => {
  it('gives what the steps give one by one, on any body, for any run of field operations at disjoint locations', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DISJOINT), fc.array(fc.nat(OPS.length - 1), { minLength: 1, maxLength: 8 }), body, (locations, picks, doc) => {
        const steps = picks.map((i) => onLocatedFields(locations, 'o', OPS[i] as (o: Json) => Json));
        const fused = fuseFieldSteps(steps);
        expect(fused).toHaveLength(1);
        expect(runAll(fused, doc)).toStrictEqual(runAll(steps, doc));
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves steps at nesting locations as they are (each walks the body itself), with the same result', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NESTED), fc.array(fc.nat(OPS.length - 1), { minLength: 2, maxLength: 5 }), body, (locations, picks, doc) => {
        const steps = picks.map((i) => onLocatedFields(locations, 'o', OPS[i] as (o: Json) => Json));
        const fused = fuseFieldSteps(steps);
        expect(fused).toEqual(steps);
        expect(runAll(fused, doc)).toStrictEqual(runAll(steps, doc));
      }),
      { numRuns: 300 },
    );
  });

  it('fuses only neighbours of one kind at the same locations: another step, kind or location list ends a run', () => {
    const rows: readonly Located[] = [{ type: 'o', path: 'rows.*' }, { type: 'p', path: 'rows.*' }];
    const elsewhere: readonly Located[] = [{ type: 'o', path: 'rows.*' }];
    const custom: BodyMigration = (b) => ({ ...b, custom: true });
    const a = onLocatedFields(rows, 'o', fill('a', 1));
    const b = onLocatedFields(rows, 'o', move('a', 'b'));
    const c = onLocatedFields(rows, 'p', fill('c', 1));
    const d = onLocatedFields(rows, 'p', fill('d', 1));
    const e = onLocatedFields(elsewhere, 'o', drop('b'));
    const f = onLocated(rows, 'o', (o) => ({ ...o, custom: true }));
    const steps = [a, b, custom, c, d, e, f, a];
    const fused = fuseFieldSteps(steps);
    // a+b, custom, c+d, e, f, a
    expect(fused).toHaveLength(6);
    expect(fused[1]).toBe(custom);
    expect(fused[3]).toBe(e);
    expect(fused[4]).toBe(f);
    expect(fused[5]).toBe(a);
    const doc: Json = { rows: [{ a: 0 }, { z: 1 }, 'text'] };
    expect(runAll(fused, doc)).toStrictEqual(runAll(steps, doc));
    expect(runAll(fused, doc)).toStrictEqual({
      custom: true,
      rows: [
        // a kept 0, moved to b, b dropped (e), a filled again by the last step
        { c: 1, d: 1, custom: true, a: 1 },
        { z: 1, c: 1, d: 1, custom: true, a: 1 },
        'text',
      ],
    });
  });

  it('stops putting an object through the run once an operation makes it one the location no longer selects', () => {
    const kRows: readonly Located[] = [{ type: 'o', path: 'rows.*[t=k]' }];
    const steps = [onLocatedFields(kRows, 'o', move('t', 'u')), onLocatedFields(kRows, 'o', fill('after', true))];
    const fused = fuseFieldSteps(steps);
    expect(fused).toHaveLength(1);
    expect(runAll(fused, { rows: [{ t: 'k' }, { t: 'j' }] })).toStrictEqual({ rows: [{ u: 'k' }, { t: 'j' }] });
  });
});
