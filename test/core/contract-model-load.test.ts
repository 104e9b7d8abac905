// Load-time structure checks not reached elsewhere: malformed paths in changes and object locations, moves that
// leave their array steps, and methods removed with answers holding versioned objects.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldAdded, fieldRemoved, fieldRenamed, fieldToArray, methodRemoved, request } from '../../src/core/contract-model/builders.js';
import { ContractError, loadContract, structuralProblems } from '../../src/core/contract-model/load.js';
import type { Change, Contract, FieldAdded, MethodSpec } from '../../src/core/contract-model/types.js';

const plain = (): MethodSpec => ({ request: z.looseObject({ a: z.string() }), response: z.object({ ok: z.boolean() }) });
const two = (changes: Change[], extra: { v1?: Record<string, MethodSpec>; v2?: Record<string, MethodSpec>; additions?: FieldAdded[] } = {}): Contract => ({
  versions: [
    { version: 1, methods: { save: plain(), ...extra.v1 }, changes: [] },
    { version: 2, methods: { save: plain(), ...extra.v2 }, changes, ...(extra.additions && { additions: extra.additions }) },
  ],
});

describe('structuralProblems: paths', () => {
  it('reports a malformed path in each kind of field change, naming the version and the change', () => {
    const changes = [
      fieldRemoved(request('save'), 'a..b', 'removed'),
      fieldToArray(request('save'), 'x[y]', 'to array'),
      fieldRenamed(request('save'), 'a', 'b.', 'renamed to'),
      fieldRenamed(request('save'), 'a]', 'b', 'renamed from'),
    ];
    expect(structuralProblems(two(changes))).toEqual([
      'version 2: "removed": malformed path segment "" in "a..b"',
      'version 2: "to array": malformed path segment "x[y]" in "x[y]"',
      'version 2: "renamed to": malformed path segment "" in "b."',
      'version 2: "renamed from": malformed path segment "a]" in "a]"',
    ]);
  });

  it('reports a malformed path in an addition too, and loading throws a ContractError with the problems', () => {
    const contract = two([fieldRemoved(request('save'), 'a', 'a goes')], { additions: [fieldAdded(request('save'), 'x.__proto__', 1, 'x grows')] });
    expect(structuralProblems(contract)).toEqual(['version 2: "x grows": forbidden path segment "__proto__" in "x.__proto__"']);
    expect(() => loadContract(contract)).toThrow(ContractError);
    expect(() => loadContract(contract)).toThrow(/forbidden path segment "__proto__" in "x.__proto__"/);
  });

  it('refuses a move that adds array steps or union filters after the shared part, and accepts a plain move', () => {
    const move = (from: string, to: string) => structuralProblems(two([fieldRenamed(request('save'), from, to, 'move')]));
    expect(move('a', 'b.*.c')).toEqual(['version 2: "move": "a" → "b.*.c": a move keeps its array steps (both paths share them, the rest has none)']);
    expect(move('a', 'b[type=x].c')).toEqual([
      'version 2: "move": "a" → "b[type=x].c": a move keeps its array steps (both paths share them, the rest has none)',
    ]);
    expect(move('list.*.a', 'list.*.b.*')).toHaveLength(1);
    expect(move('a', 'b.c')).toEqual([]);
    // A key that merely ends with a star is a key, not an array step.
    expect(move('a', 'b.x*')).toEqual([]);
    expect(move('list.*.a', 'list.*.b.c')).toEqual([]);
  });

  it('reports object locations at a malformed path, in answers and in requests', () => {
    const located: MethodSpec = {
      ...plain(),
      objects: [{ type: 'widget', path: 'entries.*[x]' }],
      requestObjects: [{ type: 'gadget', path: 'entry..' }],
    };
    expect(structuralProblems({ versions: [{ version: 1, methods: { get: located }, changes: [] }] })).toEqual([
      'version 1: get locates widget objects at a malformed path: malformed path segment "*[x]" in "entries.*[x]"',
      'version 1: get locates gadget objects at a malformed path: malformed path segment "" in "entry.."',
    ]);
  });
});

describe('structuralProblems: removed methods answering versioned objects', () => {
  const answersObjects = (): MethodSpec => ({ ...plain(), objects: [{ type: 'widget', path: '' }] });

  it('refuses only a method kept by the backend, not one replaced, when the old method answers versioned objects', () => {
    const replaced = two([methodRemoved('get', 'get is gone', { method: 'save' })], { v1: { get: answersObjects() } });
    expect(structuralProblems(replaced)).toEqual([]);
    const kept = two([methodRemoved('get', 'get is gone', 'kept-by-backend')], { v1: { get: answersObjects() } });
    expect(structuralProblems(kept)).toEqual([
      'version 2: get answers versioned objects, which a method kept by the backend would pass unguarded',
    ]);
    const keptPlain = two([methodRemoved('get', 'get is gone', 'kept-by-backend')], { v1: { get: plain() } });
    expect(structuralProblems(keptPlain)).toEqual([]);
  });
});
