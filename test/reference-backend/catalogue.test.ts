import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD_METHODS } from '../../src/reference-backend/contract-schemas.js';
import { METHODS } from '../../src/reference-backend/methods/index.js';
import { rpc, start, type Started } from './helpers.js';

let s: Started;
beforeAll(async () => {
  s = await start();
});
afterAll(() => s.backend.close());

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

describe('argument validation', () => {
  it('uses the contract’s head-version request schema: the same schema object, and its refusals', async () => {
    for (const method of ['getDashboard', 'createCollection', 'getWorkbook']) {
      expect(METHODS.get(method)!.schema, method).toBe(HEAD_METHODS[method]!.request);
    }
    const r = await rpc(s.url, 'getDashboard', { includePermissions: true });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [expect.objectContaining({ path: 'dashboardId' })] } });
  });
});
