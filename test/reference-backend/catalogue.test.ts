import { describe, expect, it } from 'vitest';
import { HEAD_METHODS } from '../../src/reference-backend/contract-schemas.js';
import { METHODS } from '../../src/reference-backend/methods/index.js';

// The backend's own helpers, not DataLens methods: the gateway's legacy-key fallback and the tests' entry maker.
const BACKEND_ONLY = ['resolveLegacyKey', 'createEntry'];

describe('the reference backend’s catalogue', () => {
  it('serves every method of the contract’s head version', () => {
    const missing = Object.keys(HEAD_METHODS).filter((m) => !METHODS.has(m));
    expect(missing).toEqual([]);
  });

  it('serves nothing else but its own helpers (and Editor charts, while the contract does not list them yet)', () => {
    const extra = [...METHODS.keys()].filter((m) => !Object.hasOwn(HEAD_METHODS, m) && !BACKEND_ONLY.includes(m) && !/EditorChart$/.test(m));
    expect(extra).toEqual([]);
  });
});
