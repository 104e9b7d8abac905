// The contract's load-time structure checks, its indexes, and the change builders.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  custom,
  fieldAdded,
  fieldMoved,
  fieldRemoved,
  fieldRenamed,
  fieldToArray,
  methodAdded,
  methodRemoved,
  object,
  request,
} from '../../src/core/contract-model/builders.js';
import {
  ContractError,
  describeTarget,
  loadContract,
  methodAt,
  structuralProblems,
} from '../../src/core/contract-model/load.js';
import type { Change, Contract, FieldAdded, MethodSpec, VersionSpec } from '../../src/core/contract-model/types.js';

const spec = (): MethodSpec => ({ request: z.object({}), response: z.object({}) });
const version = (n: number, methods: string[], changes: Change[] = [], additions?: FieldAdded[]): VersionSpec => ({
  version: n,
  methods: Object.fromEntries(methods.map((m) => [m, spec()])),
  changes,
  ...(additions && { additions }),
});
// Built inside each test: code run while tests are collected would make every mutant in it a static one.
const rename = () => fieldRenamed(request('a'), 'x', 'y', 'a: x is y');

describe('the change builders', () => {
  it('build targets', () => {
    expect(request('m')).toEqual({ request: 'm' });
    expect(object('t')).toEqual({ object: 't' });
  });

  it('build each kind of change with its description', () => {
    expect(fieldAdded(request('m'), 'a.b', 3, 'd')).toEqual({ kind: 'fieldAdded', target: { request: 'm' }, path: 'a.b', default: 3, description: 'd' });
    expect(fieldRemoved(object('t'), 'p', 'd')).toEqual({ kind: 'fieldRemoved', target: { object: 't' }, path: 'p', description: 'd' });
    expect(fieldRemoved(object('t'), 'p', 'd', { downDefault: null })).toEqual({
      kind: 'fieldRemoved',
      target: { object: 't' },
      path: 'p',
      description: 'd',
      downDefault: null,
    });
    expect(fieldRenamed({ response: 'm' }, 'a', 'b', 'd')).toEqual({ kind: 'fieldRenamed', target: { response: 'm' }, from: 'a', to: 'b', description: 'd' });
    expect(fieldMoved).toBe(fieldRenamed);
    expect(fieldToArray(request('m'), 'p', 'd')).toEqual({ kind: 'fieldToArray', target: { request: 'm' }, path: 'p', description: 'd' });
    expect(methodAdded('m', 'd')).toEqual({ kind: 'methodAdded', method: 'm', description: 'd' });
    expect(methodRemoved('m', 'd')).toEqual({ kind: 'methodRemoved', method: 'm', description: 'd' });
    expect('replacedBy' in methodRemoved('m', 'd')).toBe(false);
    expect(methodRemoved('m', 'd', { method: 'n' })).toEqual({ kind: 'methodRemoved', method: 'm', description: 'd', replacedBy: { method: 'n' } });
    expect(methodRemoved('m', 'd', 'kept-by-backend')).toEqual({ kind: 'methodRemoved', method: 'm', description: 'd', keptByBackend: true });
    expect(custom({ description: 'd', compatible: true, covers: [] })).toEqual({ kind: 'custom', description: 'd', compatible: true, covers: [] });
  });
});

describe('targets', () => {
  it('names a target', () => {
    expect(describeTarget(request('m'))).toBe('m request');
    expect(describeTarget({ response: 'n' })).toBe('n response');
    expect(describeTarget(object('t'))).toBe('t objects');
  });
});

describe('structuralProblems', () => {
  it('finds nothing wrong with a well-formed contract', () => {
    const contract: Contract = {
      versions: [
        version(1, ['a', 'b'], [], [fieldAdded(request('a'), 'n', 0, 'a takes n')]),
        version(2, ['a', 'c'], [rename(), methodAdded('c', 'c is new'), methodRemoved('b', 'b is gone', { method: 'c' })]),
      ],
    };
    expect(structuralProblems(contract)).toEqual([]);
  });

  it('refuses an empty contract', () => {
    expect(structuralProblems({ versions: [] })).toEqual(['the contract has no versions']);
  });

  it.each([0, -1, 1.5])('refuses version %d: versions are positive integers', (n) => {
    expect(structuralProblems({ versions: [version(n, ['a'])] })).toEqual([`version ${n}: versions are positive integers`]);
  });

  it('refuses versions that skip a number or go backwards', () => {
    expect(structuralProblems({ versions: [version(1, ['a']), version(3, ['a'], [rename()])] })).toEqual([
      'version 3 follows version 1: versions must be consecutive',
    ]);
    expect(structuralProblems({ versions: [version(2, ['a']), version(1, ['a'], [rename()])] })).toEqual([
      'version 1 follows version 2: versions must be consecutive',
    ]);
  });

  it('refuses changes on the first version', () => {
    expect(structuralProblems({ versions: [version(1, ['a'], [rename()])] })).toEqual(['version 1: the first version cannot have changes']);
  });

  it('checks method changes on the first version without a version before it', () => {
    const added = structuralProblems({ versions: [version(1, ['a'], [methodAdded('z', 'z is new')])] });
    expect(added[0]).toBe('version 1: the first version cannot have changes');
    expect(added[1]).toMatch(/^version 1: methodAdded z must exist in 1 and not in /);
    const removed = structuralProblems({ versions: [version(1, ['a'], [methodRemoved('b', 'b is gone')])] });
    expect(removed[0]).toBe('version 1: the first version cannot have changes');
    expect(removed[1]).toMatch(/^version 1: methodRemoved b must exist in /);
  });

  it('refuses a change or an addition without a description, blank included', () => {
    const blank = fieldRenamed(request('a'), 'x', 'y', ' \t');
    const noDescription = { kind: 'fieldAdded', target: request('a'), path: 'n', default: 0 } as unknown as FieldAdded;
    expect(structuralProblems({ versions: [version(1, ['a'], [], [noDescription]), version(2, ['a'], [blank])] })).toEqual([
      'version 1: a fieldAdded change has no description',
      'version 2: a fieldRenamed change has no description',
    ]);
  });

  it('refuses additions other than fieldAdded', () => {
    const notAnAddition = fieldRemoved(request('a'), 'x', 'a loses x') as unknown as FieldAdded;
    expect(structuralProblems({ versions: [version(1, ['a'], [], [notAnAddition])] })).toEqual([
      'version 1: additions may only hold fieldAdded changes',
    ]);
  });

  it('refuses a methodAdded for a method absent from the version, or present before it', () => {
    expect(structuralProblems({ versions: [version(1, ['a']), version(2, ['a'], [rename(), methodAdded('b', 'b is new')])] })).toEqual([
      'version 2: methodAdded b must exist in 2 and not in 1',
    ]);
    expect(structuralProblems({ versions: [version(1, ['a', 'b']), version(2, ['a', 'b'], [rename(), methodAdded('b', 'b is new')])] })).toEqual([
      'version 2: methodAdded b must exist in 2 and not in 1',
    ]);
  });

  it('refuses a methodRemoved for a method still present, or absent before', () => {
    expect(structuralProblems({ versions: [version(1, ['a', 'b']), version(2, ['a', 'b'], [methodRemoved('b', 'b is gone')])] })).toEqual([
      'version 2: methodRemoved b must exist in 1 and not in 2',
    ]);
    expect(structuralProblems({ versions: [version(1, ['a']), version(2, ['a'], [methodRemoved('b', 'b is gone')])] })).toEqual([
      'version 2: methodRemoved b must exist in 1 and not in 2',
    ]);
  });

  it('refuses a replacement that does not exist in the version', () => {
    expect(
      structuralProblems({ versions: [version(1, ['a', 'b']), version(2, ['a'], [methodRemoved('b', 'b is gone', { method: 'z' })])] }),
    ).toEqual(['version 2: b is replaced by z, which does not exist in 2']);
  });

  it('looks only at own methods, not at inherited names', () => {
    expect(structuralProblems({ versions: [version(1, ['a']), version(2, ['a'], [rename(), methodAdded('toString', 'x')])] })).toEqual([
      'version 2: methodAdded toString must exist in 2 and not in 1',
    ]);
    expect(
      structuralProblems({ versions: [version(1, ['a']), version(2, ['a'], [methodRemoved('toString', 'x', { method: 'a' })])] }),
    ).toEqual(['version 2: methodRemoved toString must exist in 1 and not in 2']);
  });
});

describe('loadContract', () => {
  const twoVersions = (): Contract => ({
    versions: [version(1, ['a', 'b']), version(2, ['a', 'c'], [rename(), methodAdded('c', 'c'), methodRemoved('b', 'b', { method: 'c' })])],
  });

  it('indexes versions, the head and where each method exists', () => {
    const contract = twoVersions();
    const loaded = loadContract(contract);
    expect(loaded.contract).toBe(contract);
    expect(loaded.versions).toEqual([1, 2]);
    expect(loaded.head).toBe(2);
    expect(loaded.byVersion.get(2)).toBe(contract.versions[1]);
    expect(Object.fromEntries(loaded.availableIn)).toEqual({ a: [1, 2], b: [1], c: [2] });
    expect(Object.isFrozen(loaded)).toBe(true);
  });

  it('finds a method at a version, and nothing for an absent or inherited name', () => {
    const contract = twoVersions();
    const loaded = loadContract(contract);
    expect(methodAt(loaded, 1, 'b')).toBe(contract.versions[0]?.methods.b);
    expect(methodAt(loaded, 2, 'b')).toBeUndefined();
    expect(methodAt(loaded, 3, 'a')).toBeUndefined();
    expect(methodAt(loaded, 1, 'toString')).toBeUndefined();
  });

  it('throws a ContractError listing every problem', () => {
    let error: unknown;
    try {
      loadContract({ versions: [version(1, ['a'], [rename()]), version(3, ['a'])] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ContractError);
    const e = error as ContractError;
    expect(e.name).toBe('ContractError');
    expect(e.problems).toEqual(['version 1: the first version cannot have changes', 'version 3 follows version 1: versions must be consecutive']);
    expect(e.message).toBe(
      'invalid contract:\n  - version 1: the first version cannot have changes\n  - version 3 follows version 1: versions must be consecutive',
    );
  });
});
