// docs/reference/catalogue.md stays true: it names every method of every shipped version, and the strict list it
// gives is the contract's.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shippedContract } from '../../src/contract/index.js';

const doc = readFileSync(new URL('../../docs/reference/catalogue.md', import.meta.url), 'utf8');
const contract = shippedContract;

describe('docs/reference/catalogue.md', () => {
  it('names every method of every version, and the method counts', () => {
    for (const version of contract.versions) {
      for (const method of Object.keys(version.methods)) expect(doc, method).toMatch(new RegExp(`\\b${method}\\b`));
      expect(doc).toContain(`${Object.keys(version.methods).length} methods`);
    }
  });

  it('lists as strict exactly the methods whose request refuses unknown fields', () => {
    const section = doc.slice(doc.indexOf('Strict (as'), doc.indexOf('Each OpenAPI document'));
    const listed = [...section.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]).filter((m) => m !== 'entry').sort();
    const head = contract.versions[contract.versions.length - 1]!;
    const strict = Object.entries(head.methods)
      .filter(([, spec]) => spec.request.safeParse({ __surely_unknown__: 1 }).error?.issues.some((i) => i.code === 'unrecognized_keys'))
      .map(([name]) => name)
      .sort();
    expect(listed).toEqual(strict);
  });
});
