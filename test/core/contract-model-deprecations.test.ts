// The load-time checks of a contract's deprecations (deprecationProblems): an unknown method, a malformed date or
// path, an empty description or replacement; each problem names its version, method and field.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deprecationProblems } from '../../src/core/contract-model/deprecation-check.js';
import { ContractError, loadContract } from '../../src/core/contract-model/load.js';
import type { Contract, Deprecation, MethodSpec } from '../../src/core/contract-model/types.js';

const method = (): MethodSpec => ({ request: z.looseObject({ id: z.string() }), response: z.object({ ok: z.boolean() }) });
const good = (over: Partial<Deprecation> = {}): Deprecation => ({
  method: 'getThing',
  since: '2026-12-01',
  replacement: 'getOther',
  description: 'getThing is deprecated',
  ...over,
});
/** Two versions, the second holding `deprecations`; the first holds `first` when given. */
const contractWith = (deprecations: Deprecation[], first?: Deprecation[]): Contract => ({
  versions: [
    { version: 1, methods: { getThing: method() }, changes: [], ...(first && { deprecations: first }) },
    { version: 2, methods: { getThing: method(), getOther: method() }, changes: [], deprecations },
  ],
});

describe('deprecationProblems', () => {
  it('accepts a method or field deprecated from an ISO date or instant, in any version', () => {
    const ok = [
      good(),
      good({ path: 'id' }),
      good({ path: 'items.*[type=chart].color' }),
      good({ since: '2026-12-01T10:00:00Z' }),
      good({ since: '2026-12-01T10:00:00.123Z' }),
      good({ since: '2026-12-01T10:00:00+03:00' }),
      good({ since: '2026-12-01T10:00:00-05:30' }),
    ];
    expect(deprecationProblems(contractWith(ok, [good()]))).toEqual([]);
    expect(deprecationProblems({ versions: [{ version: 1, methods: {}, changes: [] }] })).toEqual([]);
  });

  it('names a method the version does not have (nor inherits from Object)', () => {
    expect(deprecationProblems(contractWith([good({ method: 'getGone' })]))).toEqual([
      'version 2: deprecation of getGone: no method getGone in this version',
    ]);
    expect(deprecationProblems(contractWith([good({ method: 'toString', path: 'id' })]))).toEqual([
      'version 2: deprecation of toString id: no method toString in this version',
    ]);
    // Checked in every version, the first included.
    expect(deprecationProblems(contractWith([], [good({ method: 'getOther' })]))).toEqual([
      'version 1: deprecation of getOther: no method getOther in this version',
    ]);
  });

  it('refuses a since that is no ISO date or instant, even one Date.parse reads', () => {
    const bad = ['2026/12/01', 'December 1, 2026', 'foo 2026-12-01', '12026-12-01', '2026-12-01junk', '2026-12-011', '2026-12-01T10:00:00+0300', '2026-13-45', ''];
    for (const since of bad) {
      expect(deprecationProblems(contractWith([good({ since })]))).toEqual([
        `version 2: deprecation of getThing: since must be an ISO date or instant (got ${JSON.stringify(since)})`,
      ]);
    }
  });

  it('needs a description and a replacement that are not blank', () => {
    expect(deprecationProblems(contractWith([good({ description: '  ', replacement: '\t' })]))).toEqual([
      'version 2: deprecation of getThing: needs a description (the changelog line)',
      'version 2: deprecation of getThing: needs a replacement',
    ]);
    expect(deprecationProblems(contractWith([good({ description: '' })]))).toEqual([
      'version 2: deprecation of getThing: needs a description (the changelog line)',
    ]);
    expect(deprecationProblems(contractWith([good({ replacement: '' })]))).toEqual([
      'version 2: deprecation of getThing: needs a replacement',
    ]);
  });

  it('reports a malformed or forbidden path with the path syntax message', () => {
    expect(deprecationProblems(contractWith([good({ path: 'a..b' })]))).toEqual([
      'version 2: deprecation of getThing a..b: malformed path segment "" in "a..b"',
    ]);
    expect(deprecationProblems(contractWith([good({ path: 'a.__proto__' })]))).toEqual([
      'version 2: deprecation of getThing a.__proto__: forbidden path segment "__proto__" in "a.__proto__"',
    ]);
  });

  it('lists every problem of every deprecation, in order', () => {
    const problems = deprecationProblems(
      contractWith([good({ method: 'nope', since: 'soon', description: ' ', replacement: ' ', path: 'x]' }), good({ since: 'later' })]),
    );
    expect(problems).toEqual([
      'version 2: deprecation of nope x]: no method nope in this version',
      'version 2: deprecation of nope x]: since must be an ISO date or instant (got "soon")',
      'version 2: deprecation of nope x]: needs a description (the changelog line)',
      'version 2: deprecation of nope x]: needs a replacement',
      'version 2: deprecation of nope x]: malformed path segment "x]" in "x]"',
      'version 2: deprecation of getThing: since must be an ISO date or instant (got "later")',
    ]);
  });

  it('makes loading the contract fail with those problems', () => {
    expect(() => loadContract(contractWith([good()]))).not.toThrow();
    expect(() => loadContract(contractWith([good({ method: 'getGone' })]))).toThrow(ContractError);
    try {
      loadContract(contractWith([good({ method: 'getGone' })]));
    } catch (e) {
      expect((e as ContractError).problems).toEqual(['version 2: deprecation of getGone: no method getGone in this version']);
    }
  });
});
