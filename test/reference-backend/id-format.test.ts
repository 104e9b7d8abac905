// Ids this backend does not hold are checked as real DataLens's storage (US) checks ids: a string of 13 characters
// that decodes, else 400 VALIDATION_ERROR in US's shape (recorded v1 answers, ../shared/reference/
// datalens-oss-v1-recordings.json calls 60 and 76). An id not written in US's alphabet (this backend's own `wb_…`) is
// this backend's form: when absent, 404.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED } from '../../src/reference-backend/index.js';
import { rpc, start, type Started } from './helpers.js';

let s: Started;
beforeAll(async () => {
  s = await start({ seed: DEMO_SEED });
});
afterAll(() => s.backend.close());

describe('an id the backend does not hold', () => {
  it('too short: 400 too_small, exact length 13, as real US answers getWorkbook {workbookId: "short"}', async () => {
    const r = await rpc(s.url, 'getWorkbook', { workbookId: 'short' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: {
        title: 'too_small',
        description: 'Validation error',
        details: [{ origin: 'string', code: 'too_small', minimum: 13, inclusive: true, exact: true, path: ['workbookId'], message: 'Too small: expected string to have >=13 characters' }],
      },
    });
  });

  it('too long: 400 too_big, naming the argument', async () => {
    const r = await rpc(s.url, 'getCollection', { collectionId: 'a'.repeat(14) });
    expect(r.status).toBe(400);
    expect(r.body.details).toMatchObject({ title: 'too_big', details: [{ code: 'too_big', maximum: 13, exact: true, path: ['collectionId'] }] });
  });

  it('13 characters that do not decode: 400 custom "has incorrect format", as real US answers "zzzzzzzzzzzzz"', async () => {
    const r = await rpc(s.url, 'getWorkbook', { workbookId: 'zzzzzzzzzzzzz' });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual({
      title: 'custom',
      description: 'Validation error',
      details: [{ code: 'custom', message: "id 'zzzzzzzzzzzzz' has incorrect format", path: ['workbookId'] }],
      issues: [{ path: 'workbookId', message: "id 'zzzzzzzzzzzzz' has incorrect format" }],
    });
    const entry = await rpc(s.url, 'getDashboard', { dashboardId: 'abcdefghijklm' });
    expect(entry.status).toBe(400);
    expect(entry.body.details).toMatchObject({ title: 'custom', details: [{ path: ['entryId'] }] });
  });

  it('an id that decodes but names nothing is 404, like one of this backend\'s own form', async () => {
    // US's own tests use 'fvsb9zbfkqos2' as a well-formed id of no entry (datalens-tech/datalens-us 91ff69b,
    // src/tests/int/env/opensource/suites/entries/delete-entry.test.ts, notExistingEntryId).
    const decodes = await rpc(s.url, 'getWorkbook', { workbookId: 'fvsb9zbfkqos2' });
    expect(decodes.status).toBe(404);
    expect(decodes.body).toMatchObject({ code: 'NOT_FOUND', details: { title: 'WORKBOOK_NOT_EXISTS' } });
    const ours = await rpc(s.url, 'getWorkbook', { workbookId: 'wb_x' });
    expect(ours.status).toBe(404);
    // Not written in US's alphabet (0-9, a-z), so never a US id: this backend's form, not checked.
    expect((await rpc(s.url, 'getCollection', { collectionId: 'no-such-collection' })).status).toBe(404);
    expect((await rpc(s.url, 'getDashboard', { dashboardId: 'ABCDEFGHIJKLM' })).status).toBe(404);
    expect((await rpc(s.url, 'getWorkbook', { workbookId: 'wb_demo_sales' })).status).toBe(200);
  });
});
