// The impact core's reading of the contract, as plain functions: which later incompatible changes a call meets (per
// method, request field and answer), the deprecations inside a version and which a body uses, the paths worth
// watching, and the memo that keeps each per loaded contract.
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/core/contract-model/load.js';
import { impactsAfter } from '../../src/core/impact/changes.js';
import { deprecationsFor, deprecationsUsed } from '../../src/core/impact/deprecations.js';
import { perCall } from '../../src/core/impact/per-call.js';
import { watchedPaths } from '../../src/core/impact/report.js';
import { impactContract } from './impact-fixture.js';

const NAME = { kind: 'fieldRenamed', description: 'a widget name is its title' } as const;
const SIZE = { kind: 'custom', description: 'widgets have a size' } as const;

describe('impactsAfter', () => {
  it('a request field change, an object kind in the request (each place it is located) and in the answer, oldest version first', () => {
    const loaded = impactContract();
    expect(impactsAfter(loaded, 1, 'save')).toStrictEqual([
      { version: 2, method: 'save', kind: 'fieldRemoved', description: 'save drops note', scope: 'request', path: 'note' },
      { version: 2, method: 'save', ...NAME, scope: 'request', path: 'w.name' },
      { version: 2, method: 'save', ...NAME, scope: 'request', path: 'extra.*.name' },
      { version: 2, method: 'save', ...NAME, scope: 'response' },
      { version: 3, method: 'save', ...SIZE, scope: 'request', path: 'w.size' },
      { version: 3, method: 'save', ...SIZE, scope: 'request', path: 'extra.*.size' },
      { version: 3, method: 'save', ...SIZE, scope: 'response' },
      { version: 3, method: 'save', kind: 'fieldToArray', description: 'save takes tags', scope: 'request', path: 'tag' },
    ]);
  });

  it('only the changes after the version: none after the newest', () => {
    const loaded = impactContract();
    expect(impactsAfter(loaded, 2, 'save').map((i) => [i.version, i.scope, i.path])).toEqual([
      [3, 'request', 'w.size'],
      [3, 'request', 'extra.*.size'],
      [3, 'response', undefined],
      [3, 'request', 'tag'],
    ]);
    for (const m of ['save', 'read', 'list', 'put', 'tags', 'ping', 'other', 'fresh']) expect(impactsAfter(loaded, 3, m)).toEqual([]);
  });

  it('an answer change: a response target, a custom change covering two paths of one answer (once), an object kind located in the answer', () => {
    const loaded = impactContract();
    expect(impactsAfter(loaded, 1, 'read')).toStrictEqual([
      { version: 2, method: 'read', ...NAME, scope: 'response' },
      { version: 3, method: 'read', kind: 'custom', description: 'read answers a pair', scope: 'response' },
      { version: 3, method: 'read', ...SIZE, scope: 'response' },
    ]);
    expect(impactsAfter(loaded, 1, 'list')).toStrictEqual([
      { version: 2, method: 'list', ...NAME, scope: 'response' },
      { version: 3, method: 'list', kind: 'fieldToArray', description: 'list answers tags', scope: 'response' },
      { version: 3, method: 'list', ...SIZE, scope: 'response' },
    ]);
  });

  it('an object kind located at the request itself, and only the kind the change targets', () => {
    const loaded = impactContract();
    expect(impactsAfter(loaded, 1, 'put')).toStrictEqual([
      { version: 2, method: 'put', ...NAME, scope: 'request', path: 'name' },
      { version: 3, method: 'put', ...SIZE, scope: 'request', path: 'size' },
    ]);
    expect(impactsAfter(loaded, 1, 'tags')).toEqual([]);
  });

  it('a removed method meets its removal as a whole; no other method does', () => {
    const loaded = impactContract();
    expect(impactsAfter(loaded, 1, 'gone')).toStrictEqual([{ version: 2, method: 'gone', kind: 'methodRemoved', description: 'gone is gone', scope: 'method' }]);
  });

  it('a custom change that migrates a request or an answer without naming a covered path changes the whole call', () => {
    const loaded = impactContract();
    expect(impactsAfter(loaded, 1, 'ping')).toStrictEqual([{ version: 3, method: 'ping', kind: 'custom', description: 'ping is stamped', scope: 'method' }]);
    expect(impactsAfter(loaded, 1, 'other')).toStrictEqual([{ version: 3, method: 'other', kind: 'custom', description: 'other answers differently', scope: 'method' }]);
  });

  it('an object change reaches a method only from the version the method has it', () => {
    const loaded = impactContract();
    // fresh exists from version 2: version 2's rename of widgets does not reach it, version 3's size does (at `found`).
    expect(impactsAfter(loaded, 1, 'fresh')).toStrictEqual([{ version: 3, method: 'fresh', ...SIZE, scope: 'response' }]);
    expect(impactsAfter(loaded, 2, 'fresh')).toStrictEqual([{ version: 3, method: 'fresh', ...SIZE, scope: 'response' }]);
  });

  it('compatible changes (fields added, methods added, compatible custom changes, additions) meet no one', () => {
    const loaded = impactContract();
    const kinds = new Set<string>();
    for (const m of ['save', 'read', 'list', 'ping', 'other', 'gone', 'fresh']) for (const i of impactsAfter(loaded, 1, m)) kinds.add(`${i.kind}:${i.description}`);
    expect([...kinds].sort()).toEqual([
      'custom:other answers differently',
      'custom:ping is stamped',
      'custom:read answers a pair',
      'custom:widgets have a size',
      'fieldRemoved:save drops note',
      'fieldRenamed:a widget name is its title',
      'fieldToArray:list answers tags',
      'fieldToArray:save takes tags',
      'methodRemoved:gone is gone',
    ]);
  });

  it('is computed once per contract, version and method, and frozen', () => {
    const loaded = impactContract();
    const first = impactsAfter(loaded, 1, 'save');
    expect(impactsAfter(loaded, 1, 'save')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(impactsAfter(loaded, 2, 'save')).not.toEqual(first);
    // Another load of the same contract has its own entries.
    const again = impactContract();
    expect(impactsAfter(again, 1, 'save')).not.toBe(first);
    expect(impactsAfter(again, 1, 'save')).toEqual(first);
  });
});

describe('perCall', () => {
  it('computes once per contract, version and method, each key apart', () => {
    const calls: string[] = [];
    const fact = perCall((_loaded, version, method) => {
      calls.push(`${version}/${method}`);
      return `${method}@${version}`;
    });
    const a = impactContract();
    const b = loadContract(a.contract);
    expect([fact(a, 1, 'x'), fact(a, 1, 'x'), fact(a, 2, 'x'), fact(a, 1, 'y'), fact(b, 1, 'x'), fact(b, 1, 'x')]).toEqual(['x@1', 'x@1', 'x@2', 'y@1', 'x@1', 'x@1']);
    expect(calls).toEqual(['1/x', '2/x', '1/y', '1/x']);
  });

  it('keeps a falsy result (only undefined is recomputed)', () => {
    let n = 0;
    const fact = perCall(() => {
      n++;
      return 0;
    });
    const a = impactContract();
    expect(fact(a, 1, 'm')).toBe(0);
    expect(fact(a, 1, 'm')).toBe(0);
    expect(n).toBe(1);
  });
});

describe('deprecationsFor', () => {
  it('the deprecations declared at the version or before it, while the method exists', () => {
    const loaded = impactContract();
    const note = { method: 'save', path: 'note', since: '2026-01-01', replacement: 'nothing', description: 'save: note is going', declaredIn: 1, sinceMs: Date.parse('2026-01-01T00:00:00Z') };
    const extra = {
      method: 'save',
      path: 'extra.*.title',
      since: '2026-03-01',
      replacement: 'w.title',
      description: 'extra titles are going',
      declaredIn: 2,
      sinceMs: Date.parse('2026-03-01T00:00:00Z'),
    };
    expect(deprecationsFor(loaded, 1, 'save')).toStrictEqual([note]);
    expect(deprecationsFor(loaded, 2, 'save')).toStrictEqual([note, extra]);
    expect(deprecationsFor(loaded, 3, 'save')).toStrictEqual([note, extra]);
    expect(deprecationsFor(loaded, 1, 'read')).toEqual([]);
    expect(deprecationsFor(loaded, 2, 'read')).toStrictEqual([
      { method: 'read', since: '2026-06-01T12:00:00Z', replacement: 'list', description: 'read is going', declaredIn: 2, sinceMs: Date.parse('2026-06-01T12:00:00Z') },
    ]);
    expect(deprecationsFor(loaded, 1, 'gone').map((d) => d.description)).toEqual(['gone is going']);
    // gone no longer exists at version 2: its deprecation does not carry over.
    expect(deprecationsFor(loaded, 2, 'gone')).toEqual([]);
    expect(Object.isFrozen(deprecationsFor(loaded, 2, 'save'))).toBe(true);
    expect(deprecationsFor(loaded, 2, 'save')).toBe(deprecationsFor(loaded, 2, 'save'));
  });
});

describe('deprecationsUsed', () => {
  const at = (iso: string) => Date.parse(iso);

  it('none for a method without deprecations, or a body that uses none of them', () => {
    const loaded = impactContract();
    expect(deprecationsUsed(loaded, 1, 'list', { note: 'n' }, at('2027-01-01'))).toBeUndefined();
    expect(deprecationsUsed(loaded, 2, 'save', { w: { title: 't' } }, at('2027-01-01'))).toBeUndefined();
  });

  it('a field deprecation is used when the body holds the field (through arrays), from its instant on', () => {
    const loaded = impactContract();
    const used = (body: unknown, iso: string) => deprecationsUsed(loaded, 2, 'save', body, at(iso))?.map((d) => d.description);
    expect(used({ note: 'n' }, '2025-12-31T23:59:59.999Z')).toBeUndefined();
    expect(used({ note: 'n' }, '2026-01-01T00:00:00Z')).toEqual(['save: note is going']);
    expect(used({ extra: [{ title: 't' }] }, '2026-02-28T23:59:59Z')).toBeUndefined();
    expect(used({ extra: [{ title: 't' }] }, '2026-03-01')).toEqual(['extra titles are going']);
    expect(used({ extra: [{ name: 't' }] }, '2026-03-01')).toBeUndefined();
    expect(used({ note: null, extra: [{}, { title: 't' }] }, '2026-03-01')).toEqual(['save: note is going', 'extra titles are going']);
  });

  it('a method deprecation is used by every call from its instant on, whatever the body', () => {
    const loaded = impactContract();
    expect(deprecationsUsed(loaded, 2, 'read', {}, at('2026-06-01T11:59:59Z'))).toBeUndefined();
    expect(deprecationsUsed(loaded, 3, 'read', {}, at('2026-06-01T12:00:00Z'))).toMatchObject([{ method: 'read', declaredIn: 2 }]);
  });
});

describe('watchedPaths', () => {
  it('the request fields a later version changes and the deprecated ones, each once', () => {
    const loaded = impactContract();
    expect(watchedPaths(loaded, 1, 'save')).toEqual(['note', 'w.name', 'extra.*.name', 'w.size', 'extra.*.size', 'tag']);
    expect(watchedPaths(loaded, 2, 'save')).toEqual(['w.size', 'extra.*.size', 'tag', 'note', 'extra.*.title']);
    expect(watchedPaths(loaded, 3, 'save')).toEqual(['note', 'extra.*.title']);
    // Answer and whole-method changes have no path to watch.
    expect(watchedPaths(loaded, 1, 'read')).toEqual([]);
    expect(watchedPaths(loaded, 1, 'gone')).toEqual([]);
    expect(Object.isFrozen(watchedPaths(loaded, 1, 'save'))).toBe(true);
  });
});
