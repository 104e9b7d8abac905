// The rewriter against the buffered field operations, as properties: over generated documents (keys with escapes and
// unicode, numbers past 2^53 and past the double range, -0, arrays, nesting) and generated operations on paths that
// exist or not, the rewritten bytes parse to what JSON.parse, the field operations and JSON.stringify give, or the
// rewriter falls back; numbers it does not touch keep their text.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json, MigrationContext } from '../../../src/core/contract-model/types.js';
import { MAX_DEPTH, type ByteOp, type Step, programOf, rewrite } from '../../../src/core/translate/bytes/index.js';
import { drop, fill, fromArray, move, onLocated, restore, toArray, type Located } from '../../../src/core/translate/field-ops.js';

/** A document as written: members and strings may be written with \u escapes, numbers as any valid text. */
type Doc =
  | { t: 'obj'; members: [key: string, value: Doc][]; ws: boolean; esc: boolean[] }
  | { t: 'arr'; items: Doc[]; ws: boolean }
  | { t: 'str'; v: string; esc: boolean }
  | { t: 'num'; text: string }
  | { t: 'lit'; text: 'true' | 'false' | 'null' };

const KEYS = ['a', 'b', 'c', 'type', 'data', 'é', '日本', 'a"b', 'a\\b', 'x\u2028y', '😀'];
const BIG = ['12345678901234567890', '1e400', '-1e400', '9007199254740993', '123456789012345678901234567890.5e-3'];
const NUMBERS = [...BIG, '0', '-0', '1', '-1.5', '1E-7', '0.1', '42'];
const TAGS = ['x', 'y', 'z'];
/** Keys mostly from those the paths name, so that operations find what they look for. */
const keyArb = fc.oneof({ weight: 3, arbitrary: fc.constantFrom('a', 'b', 'data', 'type') }, { weight: 1, arbitrary: fc.constantFrom(...KEYS) });

const docArb: fc.Arbitrary<Doc> = fc.letrec<{ doc: Doc }>((tie) => ({
  doc: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ t: fc.constant('str' as const), v: fc.oneof(fc.constantFrom(...TAGS), fc.string({ maxLength: 6, unit: 'grapheme' })), esc: fc.boolean() }),
    fc.record({ t: fc.constant('num' as const), text: fc.constantFrom(...NUMBERS) }),
    fc.record({ t: fc.constant('lit' as const), text: fc.constantFrom('true' as const, 'false' as const, 'null' as const) }),
    fc.record({ t: fc.constant('arr' as const), items: fc.array(tie('doc'), { maxLength: 4 }), ws: fc.boolean() }),
    fc.record({
      t: fc.constant('obj' as const),
      members: fc.uniqueArray(fc.tuple(keyArb, tie('doc')), { maxLength: 5, selector: (m) => m[0] }),
      ws: fc.boolean(),
      esc: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
    }),
  ),
})).doc;

/** A string literal with every UTF-16 unit written as a \u escape. */
const escapeAll = (s: string) => `"${Array.from({ length: s.length }, (_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;

function write(d: Doc): string {
  switch (d.t) {
    case 'str':
      return d.esc ? escapeAll(d.v) : JSON.stringify(d.v);
    case 'num':
    case 'lit':
      return d.text;
    case 'arr':
      return d.ws ? `[ ${d.items.map(write).join(' ,\n ')} ]` : `[${d.items.map(write).join(',')}]`;
    case 'obj': {
      const sep = d.ws ? ' : ' : ':';
      const parts = d.members.map(([k, v], i) => `${d.esc[i] ? escapeAll(k) : JSON.stringify(k)}${sep}${write(v)}`);
      return d.ws ? `{\t${parts.join(' , ')}\r\n}` : `{${parts.join(',')}}`;
    }
  }
}

/** Paths over the same keys: plain, with array steps, with union filters on elements and on keys. */
const segArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'c', 'data', 'é', 'a"b') },
  { weight: 2, arbitrary: fc.constant('*') },
  { weight: 1, arbitrary: fc.constantFrom('*[type=x]', '*[type=x|y]', 'a[type=y]', 'data[type=x]') },
);
const pathArb = fc.array(segArb, { minLength: 1, maxLength: 4 }).map((s) => s.join('.'));
/** A plain tail (no array steps): move's two paths share their array steps and differ after them. */
const tailArb = fc.array(fc.constantFrom('a', 'b', 'c', 'data', 'é'), { minLength: 1, maxLength: 3 }).map((s) => s.join('.'));
const valueArb = fc.oneof(fc.constantFrom(0, 'v', true, null), fc.constant({ k: [1, 'two'] }), fc.constant([]), fc.constant({}));

const opArb: fc.Arbitrary<ByteOp> = fc.oneof(
  fc.record({ kind: fc.constant('fill' as const), path: pathArb, value: valueArb }),
  fc.record({ kind: fc.constant('restore' as const), path: pathArb, value: valueArb }),
  fc.record({ kind: fc.constant('drop' as const), path: pathArb }),
  fc.tuple(fc.option(fc.constantFrom('a.*', '*', 'data.*[type=x]', 'b'), { nil: undefined }), tailArb, tailArb).map(([base, from, to]) => ({
    kind: 'move' as const,
    from: base ? `${base}.${from}` : from,
    to: base ? `${base}.${to}` : to,
  })),
  fc.record({ kind: fc.constant('toArray' as const), path: pathArb }),
  fc.record({ kind: fc.constant('fromArray' as const), path: pathArb }),
);
const stepArb: fc.Arbitrary<Step> = fc.record({
  at: fc.oneof(
    fc.constant('body' as const),
    fc.constantFrom<readonly Located[]>(
      [{ type: 'k', path: '' }],
      [{ type: 'k', path: 'a' }],
      [{ type: 'k', path: 'a.*' }, { type: 'k', path: 'data' }],
      [{ type: 'k', path: 'b.*[type=x]' }],
      // A listing's rows, whose content (`data`) an operation on it needs.
      [{ type: 'k', path: 'b.*', listing: { content: 'data' } }],
    ),
  ),
  op: opArb,
});

/** The buffered path's closure for one operation (../field-ops.ts). */
function closure(op: ByteOp): (o: Json) => Json {
  switch (op.kind) {
    case 'fill':
      return fill(op.path, op.value);
    case 'restore':
      return restore(op.path, op.value);
    case 'drop':
      return drop(op.path);
    case 'move':
      return move(op.from, op.to, op.convert);
    case 'toArray':
      return toArray(op.path);
    case 'fromArray':
      return fromArray(op.path);
    default:
      throw new Error('not a field operation');
  }
}

const ctx = {} as MigrationContext;
/** JSON.parse, the steps as the plan runs them, JSON.stringify: what the gateway answers today. */
function buffered(text: string, steps: readonly Step[]): string {
  let body = JSON.parse(text) as Json;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return JSON.stringify(body);
  for (const s of steps) {
    const fn = closure(s.op);
    // The operation itself, as plans pass it: onLocated reads its paths for a listing's content rule.
    body = s.at === 'body' ? fn(body) : (onLocated(s.at, 'k', fn)(body, ctx) as Json);
  }
  return JSON.stringify(body);
}

/** What a parse of the output gives, with the numbers the rewriter keeps as written read as JSON.stringify would write them. */
const normalised = (text: string) => JSON.parse(JSON.stringify(JSON.parse(text))) as unknown;

const rootArb = fc.record({ t: fc.constant('obj' as const), members: fc.uniqueArray(fc.tuple(keyArb, docArb), { maxLength: 6, selector: (m) => m[0] }), ws: fc.boolean(), esc: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }) });

describe('the rewriter against the buffered field operations', () => {
  it('gives what the buffered path gives, or falls back', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 9, arbitrary: rootArb }, { weight: 1, arbitrary: docArb }), fc.array(stepArb, { minLength: 1, maxLength: 5 }), (doc, steps) => {
        const text = write(doc);
        const r = rewrite(Buffer.from(text), programOf(steps));
        if (r.kind === 'fallback') return;
        expect(normalised(Buffer.concat(r.chunks).toString('utf8'))).toEqual(JSON.parse(buffered(text, steps)));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps every number as written (past 2^53, past the double range, -0): each marked, the same as the buffered path', () => {
    // Each such number written as a marker string: the field operations treat strings and numbers alike, so the
    // buffered path on the marked input shows where each number must be, and the rewriter's output must hold its text there.
    const big = new RegExp(`(?<=[:\\[,\\s])(${[...BIG, '-0'].map((b) => b.replace(/[.+]/g, '\\$&')).join('|')})(?=[,\\]}\\s])`, 'g');
    const mark = (text: string) => text.replace(big, (m) => JSON.stringify(`#${m}`));
    fc.assert(
      fc.property(rootArb, fc.array(stepArb, { minLength: 1, maxLength: 5 }), (doc, steps) => {
        const text = write(doc);
        const r = rewrite(Buffer.from(text), programOf(steps));
        if (r.kind === 'fallback') return;
        expect(JSON.parse(mark(Buffer.concat(r.chunks).toString('utf8')))).toEqual(JSON.parse(buffered(mark(text), steps)));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves a listing row without its content alone for an operation on the content, as the buffered path does', () => {
    const rows: readonly Located[] = [{ type: 'k', path: 'b.*', listing: { content: 'data' } }];
    const text = '{"b":[{"a":"About"},{"a":"Here","data":{"c":1}},{"data":null}]}';
    const ops: ByteOp[] = [
      { kind: 'move', from: 'a', to: 'data.d' },
      { kind: 'fill', path: 'data.e', value: 0 },
      { kind: 'move', from: 'a', to: 'c' },
    ];
    for (const op of ops) {
      const steps: Step[] = [{ at: rows, op }];
      const r = rewrite(Buffer.from(text), programOf(steps));
      expect(r.kind === 'rewritten' && JSON.parse(Buffer.concat(r.chunks).toString('utf8'))).toEqual(JSON.parse(buffered(text, steps)));
    }
    // The first row keeps its `a` and gets no `data`; the second, which has its content, is migrated.
    expect(JSON.parse(buffered(text, [{ at: rows, op: ops[0] as ByteOp }]))).toEqual({ b: [{ a: 'About' }, { data: { c: 1, d: 'Here' } }, { data: null }] });
  });

  it('gives back the very bytes when no operation changes anything', () => {
    fc.assert(
      fc.property(fc.oneof(rootArb, docArb), (doc) => {
        const text = write(doc);
        const r = rewrite(Buffer.from(text), programOf([{ at: 'body', op: { kind: 'drop', path: 'nowhere' } }]));
        expect(r.kind === 'rewritten' && Buffer.concat(r.chunks).toString('utf8')).toBe(text.trim());
      }),
    );
  });
});

describe('what the rewriter refuses', () => {
  const program = programOf([{ at: 'body', op: { kind: 'fill', path: 'a.b', value: 1 } }]);
  const nest = (depth: number) => `{"a":${'['.repeat(depth - 2)}{}${']'.repeat(depth - 2)}}`;

  it(`reads nesting up to ${MAX_DEPTH} and falls back past it`, () => {
    expect(rewrite(Buffer.from(nest(MAX_DEPTH)), program).kind).toBe('rewritten');
    expect(rewrite(Buffer.from(nest(MAX_DEPTH + 1)), program)).toMatchObject({ kind: 'fallback', reason: 'too-deep' });
  });

  it('falls back on invalid JSON as JSON.parse refuses it', () => {
    fc.assert(
      fc.property(rootArb, fc.nat(), fc.constantFrom('', ',', '}', '"', '\u0001', '\\x', 'tru', '01', '-', '1.', '1e'), (doc, at, junk) => {
        const text = write(doc);
        const cut = text.slice(0, at % (text.length + 1)) + junk + text.slice(at % (text.length + 1));
        let valid = true;
        try {
          JSON.parse(cut);
        } catch {
          valid = false;
        }
        const r = rewrite(Buffer.from(cut), program);
        if (!valid) expect(r).toMatchObject({ kind: 'fallback', reason: 'invalid-json' });
        else expect(r.kind).not.toBe('fallback');
      }),
      { numRuns: 2000 },
    );
  });

  it('falls back on a duplicate key on a declared path, and copies one elsewhere', () => {
    expect(rewrite(Buffer.from('{"a":{"b":2},"a":{}}'), program)).toMatchObject({ kind: 'fallback', reason: 'duplicate-key' });
    const r = rewrite(Buffer.from('{"z":1,"z":2,"a":{}}'), program);
    expect(r.kind === 'rewritten' && JSON.parse(Buffer.concat(r.chunks).toString())).toEqual({ z: 2, a: { b: 1 } });
  });

  it('matches a key written with escapes by its decoded text', () => {
    const r = rewrite(Buffer.from('{"\\u0061":{"\\u0062":5}}'), program);
    expect(r.kind === 'rewritten' && JSON.parse(Buffer.concat(r.chunks).toString())).toEqual({ a: { b: 5 } });
  });
});
