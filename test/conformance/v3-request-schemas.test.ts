// The gateway's version-3 request schemas (its /3/json/, derived in-process) against the real ones
// (v3-request-schemas.json, extracted from the real spec): every difference is listed with its reason, or the test fails.
// Version 2 the same, for the methods whose real v2 request names the same component (facts.ts, sameAtVersion2).

import { describe, expect, it } from 'vitest';
import { compare } from './v3-request-schemas/compare.js';
import { KNOWN_DIFFERENCES } from './v3-request-schemas/differences.js';
import { REAL, gatewayDocument, gatewayRequest, realRequest, sameAtVersion2 } from './v3-request-schemas/facts.js';
import { normalise } from './v3-request-schemas/normalise.js';

const SPEC_VERSION = 3;
const methods = Object.keys(REAL.methods).sort();
const atVersion2 = sameAtVersion2();

/** Every difference line, `<method> <path>: <what>`, of `names` in the gateway's document of `version`. */
function differences(version: number, names: readonly string[]): string[] {
  const doc = gatewayDocument(version);
  return names.flatMap((m) => {
    const gateway = gatewayRequest(doc, m);
    return gateway === undefined ? [`${m} (method): not in the gateway`] : compare(realRequest(m), gateway, '').map((d) => `${m} ${d}`);
  });
}

const reasonOf = (line: string) => KNOWN_DIFFERENCES.find((k) => line.startsWith(k.prefix));

describe('the real version-3 request schemas (v3-request-schemas.json)', () => {
  it('cite their source and cover the 88 paths of the real spec', () => {
    expect(REAL.source).toMatchObject({ repository: 'datalens-tech/datalens-sdk', path: 'spec/yacloud.json', commit: '021501bb6ccd3165eaa128155d91f67e01525fe9' });
    expect(methods).toHaveLength(88);
    expect(REAL.coverage.methods).toBe(methods.length);
  });

  it('name every definition they refer to', () => {
    const refs = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) (k === '$ref' && typeof x === 'string' ? refs.add(x) : walk(x));
      }
    };
    walk(REAL.methods);
    walk(REAL.definitions);
    expect([...refs].filter((r) => !(r in REAL.definitions))).toEqual([]);
  });
});

describe('the gateway\'s version-3 request schemas against the real ones', () => {
  const lines = differences(SPEC_VERSION, methods);

  it(`differ only where a listed reason says why (${methods.length} methods)`, () => {
    expect(lines.filter((line) => reasonOf(line) === undefined)).toEqual([]);
  });

  it('have no listed difference that no longer occurs', () => {
    expect(KNOWN_DIFFERENCES.filter((k) => !lines.some((line) => line.startsWith(k.prefix))).map((k) => k.prefix)).toEqual([]);
  });

  const v2 = atVersion2 === undefined ? it.skip : it;
  v2(`at version 2, where the real v2 index names the same request component (${atVersion2?.length ?? 'index absent'}), differ only where a listed reason says why`, () => {
    expect(differences(2, atVersion2 ?? []).filter((line) => reasonOf(line) === undefined)).toEqual([]);
  });

  it('would report a real change: a required key the gateway lacks, a type, a value list, a strict object', () => {
    const real = normalise(
      { type: 'object', additionalProperties: false, properties: { a: { type: 'string' }, b: { type: 'string', enum: ['x', 'y'] } }, required: ['a'] },
      () => undefined,
    );
    const gateway = normalise({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'string', enum: ['x'] }, c: { type: 'boolean' } } }, () => undefined);
    expect(compare(real, gateway, '')).toEqual([
      'a: type string in the real schema, number in the gateway',
      'a: required in the real schema, optional in the gateway',
      'b: values ["x","y"] in the real schema, ["x"] in the gateway',
      'c: only in the gateway',
      '(body): unknown fields refused by the real schema, passed by the gateway',
    ]);
  });
});
