// onLocated: a migration applied to every object of a kind where the contract locates it (the body itself, a key, each
// element of an array, the members a union filter selects), synchronous while the migration answers at once, then
// asynchronous and in order from its first promise on, over several locations.
import { describe, expect, it } from 'vitest';
import type { BodyMigration, Json, MigrationContext } from '../../src/core/contract-model/types.js';
import { fill, move, onLocated, type Located } from '../../src/core/translate/field-ops.js';
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

/** A migration that records the ids it sees and answers a new object marked `seen`; asynchronously for `later` ids. */
const marking = (seen: unknown[], later: (id: unknown) => boolean = () => false): BodyMigration => (o) => {
  seen.push(o.id);
  const out = { ...o, seen: true };
  return later(o.id) ? Promise.resolve(out) : out;
};

const isPromise = (v: unknown): boolean => typeof (v as { then?: unknown } | null)?.then === 'function';

describe('onLocated, synchronous migrations', () => {
  it('answers at once (no promise), replacing each element of an array location in order', () => {
    const seen: unknown[] = [];
    const body: Json = { rows: [{ id: 1 }, 'text', null, [1], { id: 2 }] };
    const out = onLocated([{ type: 'o', path: 'rows.*' }], 'o', marking(seen))(body, ctx());
    expect(isPromise(out)).toBe(false);
    expect(out).toBe(body);
    expect(out).toEqual({ rows: [{ id: 1, seen: true }, 'text', null, [1], { id: 2, seen: true }] });
    expect(seen).toEqual([1, 2]);
  });

  it('uses only the locations of its kind', () => {
    const seen: unknown[] = [];
    const body: Json = { a: { id: 'a' }, b: { id: 'b' } };
    const out = onLocated(
      [
        { type: 'other', path: 'a' },
        { type: 'o', path: 'b' },
      ],
      'o',
      marking(seen),
    )(body, ctx());
    expect(out).toEqual({ a: { id: 'a' }, b: { id: 'b', seen: true } });
    expect(seen).toEqual(['b']);
  });

  it('selects the members a union filter names, and only objects', () => {
    const seen: unknown[] = [];
    const body: Json = {
      items: [
        { id: 1, type: 'x' },
        { id: 2, type: 'y' },
        { id: 3, type: 'x' },
        { id: 4, type: 'z' },
      ],
    };
    onLocated([{ type: 'o', path: 'items.*[type=x|z]' }], 'o', marking(seen))(body, ctx());
    expect(seen).toEqual([1, 3, 4]);
    expect((body.items as Json[]).map((i) => i.seen === true)).toEqual([true, false, true, true]);
  });

  it('replaces the body itself at path "", and leaves a body that is not an object alone', () => {
    const seen: unknown[] = [];
    const body: Json = { id: 'root' };
    const out = onLocated([{ type: 'o', path: '' }], 'o', marking(seen))(body, ctx());
    expect(out).toEqual({ id: 'root', seen: true });
    expect(out).not.toBe(body);
    expect(body).toEqual({ id: 'root' });
    const list = [{ id: 1 }];
    expect(onLocated([{ type: 'o', path: '' }], 'o', marking(seen))(list as unknown as Json, ctx())).toBe(list);
    expect(seen).toEqual(['root']);
  });

  it('replaces a key holding an object, and skips keys that hold no object or holders that are not what the step needs', () => {
    const seen: unknown[] = [];
    const body: Json = {
      one: { data: { id: 'd' } },
      scalar: { data: 5 },
      list: { data: [{ id: 'in-array' }] },
      notObj: 'x',
      arr: [{ data: { id: 'a0' } }],
    };
    const fn = marking(seen);
    onLocated(
      [
        { type: 'o', path: 'one.data' },
        { type: 'o', path: 'scalar.data' },
        { type: 'o', path: 'list.data' },
        { type: 'o', path: 'notObj.data' },
        { type: 'o', path: 'missing.data' },
        { type: 'o', path: 'arr.data' },
      ],
      'o',
      fn,
    )(body, ctx());
    expect(seen).toEqual(['d']);
    expect(body.one).toEqual({ data: { id: 'd', seen: true } });
    expect(body.scalar).toEqual({ data: 5 });
    expect(body.list).toEqual({ data: [{ id: 'in-array' }] });
  });

  it('skips an array step whose holder is not an array', () => {
    const seen: unknown[] = [];
    // an object that looks like an array (index keys and a length) is not one
    const body: Json = { rows: { 0: { id: 'obj-key' }, length: 1 }, rows2: 'abc' };
    const out = onLocated(
      [
        { type: 'o', path: 'rows.*' },
        { type: 'o', path: 'rows2.*' },
      ],
      'o',
      marking(seen),
    )(body, ctx());
    expect(seen).toEqual([]);
    expect(out).toEqual({ rows: { 0: { id: 'obj-key' }, length: 1 }, rows2: 'abc' });
  });

  it('reaches holders through array steps, and a keyed filter on the way selects its member', () => {
    const seen: unknown[] = [];
    const body: Json = {
      tabs: [{ items: [{ id: 't0i0' }] }, { items: 'none' }, { items: [{ id: 't2i0' }, { id: 't2i1' }] }],
      data: { sourceType: 'manual', id: 'manual' },
      wrapA: { kind: 'a', obj: { id: 'wa' } },
      wrapB: { kind: 'b', obj: { id: 'wb' } },
    };
    onLocated(
      [
        { type: 'o', path: 'tabs.*.items.*' },
        { type: 'o', path: 'data[sourceType=manual]' },
        { type: 'o', path: 'wrapA[kind=a].obj' },
        { type: 'o', path: 'wrapB[kind=a].obj' },
      ],
      'o',
      marking(seen),
    )(body, ctx());
    expect(seen).toEqual(['t0i0', 't2i0', 't2i1', 'manual', 'wa']);
    expect(body.wrapB).toEqual({ kind: 'b', obj: { id: 'wb' } });
  });

  it('takes a keyed filter on the last step into account: only the member it names is replaced', () => {
    const seen: unknown[] = [];
    const run = onLocated([{ type: 'source', path: 'other[sourceType=manual]' }], 'source', marking(seen));
    expect(run({ other: { id: 'm', sourceType: 'manual' } }, ctx())).toEqual({ other: { id: 'm', sourceType: 'manual', seen: true } });
    expect(run({ other: { id: 'a', sourceType: 'auto' } }, ctx())).toEqual({ other: { id: 'a', sourceType: 'auto' } });
    expect(seen).toEqual(['m']);
  });

  it('reads later locations in the body an earlier one replaced', () => {
    const seen: unknown[] = [];
    const fn: BodyMigration = (o) => {
      seen.push(o.id);
      return o.id === 'root' ? { id: 'root2', child: { id: 'new-child' } } : { ...o, seen: true };
    };
    const out = onLocated(
      [
        { type: 'o', path: '' },
        { type: 'o', path: 'child' },
      ],
      'o',
      fn,
    )({ id: 'root', child: { id: 'old-child' } }, ctx());
    expect(seen).toEqual(['root', 'new-child']);
    expect(out).toEqual({ id: 'root2', child: { id: 'new-child', seen: true } });
  });

  it('passes the context to each call', () => {
    const c = ctx();
    const got: unknown[] = [];
    onLocated([{ type: 'o', path: 'rows.*' }], 'o', (o, x) => {
      got.push(x);
      return o;
    })({ rows: [{}, {}] }, c);
    expect(got).toEqual([c, c]);
    expect(got[0]).toBe(c);
  });

  it('answers the body unchanged when no location is of its kind', () => {
    const body: Json = { a: { id: 1 } };
    const out = onLocated([{ type: 'x', path: 'a' }], 'o', () => ({ replaced: true }))(body, ctx());
    expect(out).toBe(body);
    expect(out).toEqual({ a: { id: 1 } });
  });
});

describe('onLocated, from the first promise on', () => {
  it('answers a promise and replaces the later elements in order', async () => {
    const seen: unknown[] = [];
    const body: Json = { rows: [{ id: 1 }, { id: 2 }, { id: 3 }, 'skip', { id: 4 }] };
    const out = onLocated([{ type: 'o', path: 'rows.*' }], 'o', marking(seen, (id) => id === 2))(body, ctx());
    expect(isPromise(out)).toBe(true);
    // the objects before the promise are replaced at once, the rest only once it settles
    expect(seen).toEqual([1, 2]);
    const done = await out;
    expect(done).toBe(body);
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(done).toEqual({ rows: [1, 2, 3].map((id) => ({ id, seen: true })).concat(['skip' as never, { id: 4, seen: true }]) });
  });

  it('awaits each later result before the next call, whether sync or not', async () => {
    const events: string[] = [];
    const fn: BodyMigration = async (o) => {
      events.push(`start ${String(o.id)}`);
      await new Promise((r) => setTimeout(r, 1));
      events.push(`end ${String(o.id)}`);
      return { ...o, n: events.length };
    };
    const body: Json = { a: [{ id: 1 }, { id: 2 }], b: { id: 3 } };
    const out = await onLocated(
      [
        { type: 'o', path: 'a.*' },
        { type: 'o', path: 'b' },
      ],
      'o',
      fn,
    )(body, ctx());
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(out).toEqual({ a: [{ id: 1, n: 2 }, { id: 2, n: 4 }], b: { id: 3, n: 6 } });
  });

  it('goes on with the later locations, in the body as it is then, after a promise in the last slot of one', async () => {
    const seen: unknown[] = [];
    const body: Json = { first: [{ id: 'f0' }, { id: 'f1' }], second: [{ id: 's0' }, { id: 's1' }], third: { id: 't' }, skip: { id: 'x' } };
    const out = onLocated(
      [
        { type: 'o', path: 'first.*' },
        { type: 'o', path: 'skip' },
        { type: 'other', path: 'skip' },
        { type: 'o', path: 'second.*' },
        { type: 'o', path: 'third' },
      ],
      'o',
      marking(seen, (id) => id === 'f1'),
    )(body, ctx());
    expect(isPromise(out)).toBe(true);
    expect(seen).toEqual(['f0', 'f1']);
    const done = (await out) as Json;
    expect(seen).toEqual(['f0', 'f1', 'x', 's0', 's1', 't']);
    expect(done).toEqual({
      first: [{ id: 'f0', seen: true }, { id: 'f1', seen: true }],
      second: [{ id: 's0', seen: true }, { id: 's1', seen: true }],
      third: { id: 't', seen: true },
      skip: { id: 'x', seen: true },
    });
  });

  it('replaces the body itself with the settled result, and reads later locations in it', async () => {
    const seen: unknown[] = [];
    const fn: BodyMigration = (o) => {
      seen.push(o.id);
      if (o.id === 'root') return Promise.resolve({ id: 'root2', child: { id: 'new-child' }, list: [{ id: 'l0' }] });
      return { ...o, seen: true };
    };
    const body: Json = { id: 'root', child: { id: 'old-child' } };
    const out = onLocated(
      [
        { type: 'o', path: '' },
        { type: 'o', path: 'child' },
        { type: 'o', path: 'list.*' },
      ],
      'o',
      fn,
    )(body, ctx());
    expect(isPromise(out)).toBe(true);
    const done = await out;
    expect(seen).toEqual(['root', 'new-child', 'l0']);
    expect(done).toEqual({ id: 'root2', child: { id: 'new-child', seen: true }, list: [{ id: 'l0', seen: true }] });
    expect(body).toEqual({ id: 'root', child: { id: 'old-child' } });
  });

  it('replaces the body itself when a later location is the whole body, after a promise', async () => {
    const seen: unknown[] = [];
    const fn: BodyMigration = (o) => {
      seen.push(o.id ?? 'body');
      return o.id === 'c' ? Promise.resolve({ id: 'c', seen: true }) : { ...o, wrapped: true };
    };
    const out = await onLocated(
      [
        { type: 'o', path: 'c' },
        { type: 'o', path: '' },
      ],
      'o',
      fn,
    )({ c: { id: 'c' } }, ctx());
    expect(seen).toEqual(['c', 'body']);
    expect(out).toEqual({ c: { id: 'c', seen: true }, wrapped: true });
  });

  it('takes a thenable that is not a Promise as a promise', async () => {
    // a custom migration may answer any thenable at run time (the type says Promise)
    const thenable = (value: Json): Promise<Json> =>
      ({ then: (ok?: (v: Json) => unknown) => Promise.resolve(ok ? ok(value) : value) }) as unknown as Promise<Json>;
    const body: Json = { rows: [{ id: 1 }, { id: 2 }] };
    const out = onLocated([{ type: 'o', path: 'rows.*' }], 'o', (o) => (o.id === 1 ? thenable({ id: 'one' }) : { id: 'two' }))(body, ctx());
    expect(isPromise(out)).toBe(true);
    expect(await out).toEqual({ rows: [{ id: 'one' }, { id: 'two' }] });
  });

  it('rejects with the migration\'s error and stops there', async () => {
    const seen: unknown[] = [];
    const fn: BodyMigration = (o) => {
      seen.push(o.id);
      if (o.id === 2) return Promise.reject(new Error('failed on 2'));
      return o;
    };
    await expect(onLocated([{ type: 'o', path: 'rows.*' }], 'o', fn)({ rows: [{ id: 1 }, { id: 2 }, { id: 3 }] }, ctx())).rejects.toThrow('failed on 2');
    expect(seen).toEqual([1, 2]);
  });
});

describe('a listing row without its content', () => {
  // getEntries' dashboard rows (contract/datalens/objects.ts): content `data`, present only with includeData.
  const rows: readonly Located[] = [{ type: 'dash', path: 'entries.*[scope=dash]', listing: { content: 'data' } }];
  const run = (op: (o: Json) => Json, body: Json, at: readonly Located[] = rows) => onLocated(at, 'dash', op)(structuredClone(body), ctx());
  const reference = { scope: 'dash', entryId: 'e1', annotation: { description: 'About' } };

  it('is left alone by an operation on the content: no content is made up for a reference', () => {
    const body = { entries: [reference] };
    expect(run(move('annotation.description', 'data.description'), body)).toEqual(body);
    expect(run(fill('data.showInTOC', false), body)).toEqual(body);
  });

  it('is migrated by an operation on the row’s own fields, and a row with its content by every operation', () => {
    expect(run(move('annotation.description', 'note'), { entries: [reference] })).toEqual({ entries: [{ scope: 'dash', entryId: 'e1', note: 'About' }] });
    const full = { entries: [{ ...reference, data: { tabs: [] } }] };
    expect(run(move('annotation.description', 'data.description'), full)).toEqual({ entries: [{ scope: 'dash', entryId: 'e1', data: { tabs: [], description: 'About' } }] });
  });

  it('is a rule of listings only: an object located elsewhere gets what the operation makes', () => {
    const entry: readonly Located[] = [{ type: 'dash', path: 'entry' }];
    expect(onLocated(entry, 'dash', move('annotation.description', 'data.description'))({ entry: { ...reference } }, ctx())).toEqual({
      entry: { scope: 'dash', entryId: 'e1', data: { description: 'About' } },
    });
  });
});
