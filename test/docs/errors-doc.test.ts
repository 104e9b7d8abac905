import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/core/errors.js';

// The catalogue in code and the table in docs/reference/errors.md must agree both ways.
const doc = readFileSync(new URL('../../docs/reference/errors.md', import.meta.url), 'utf8');
const rows = [...doc.matchAll(/^\| (\d{3}) \| ([A-Z_]+) \|/gm)].map((m) => ({ status: Number(m[1]), code: m[2] as string }));

describe('the error reference', () => {
  it('lists every code of the catalogue with its status', () => {
    for (const [code, { status }] of Object.entries(ERROR_CATALOGUE)) {
      expect(rows, `${code} missing from docs/reference/errors.md`).toContainEqual({ status, code });
    }
  });

  it('lists no code that the catalogue does not have', () => {
    for (const row of rows) expect(Object.keys(ERROR_CATALOGUE)).toContain(row.code);
    expect(rows).toHaveLength(Object.keys(ERROR_CATALOGUE).length);
  });
});
