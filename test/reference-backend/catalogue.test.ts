import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD_METHODS } from '../../src/reference-backend/methods/contract-schemas.js';
import { METHODS, methodsFor } from '../../src/reference-backend/methods/index.js';
import { z } from 'zod';
import { rpc, start, type Started } from './helpers.js';

let s: Started;
beforeAll(async () => {
  s = await start();
});
afterAll(() => s.backend.close());

// The backend's own helpers, not DataLens methods: the gateway's legacy-key fallback and the tests' entry maker.
const BACKEND_ONLY = ['resolveLegacyKey', 'createEntry'];
// The version-2 additions of the API changelog (Editor charts, folders and permissions, HTML pages, entry locks),
// served ahead of the contract that lists them (the real v2 catalogue).
const AHEAD_OF_CONTRACT = [
  ...['create', 'get', 'update', 'delete'].flatMap((verb) => [`${verb}EditorChart`, `${verb}HtmlPage`]),
  ...['deleteFolder', 'moveFolderEntry', 'dlsSuggest', 'getPermissions', 'modifyPermissions', 'batchListMembers'],
  ...['createEntryLock', 'extendEntryLock', 'deleteEntryLock'],
];

describe('the reference backend’s catalogue', () => {
  it('serves every method of the contract’s head version', () => {
    const missing = Object.keys(HEAD_METHODS).filter((m) => !METHODS.has(m));
    expect(missing).toEqual([]);
  });

  it('serves nothing else but its own helpers and the version-2 additions', () => {
    const extra = [...METHODS.keys()].filter((m) => !Object.hasOwn(HEAD_METHODS, m) && !BACKEND_ONLY.includes(m) && !AHEAD_OF_CONTRACT.includes(m));
    expect(extra).toEqual([]);
  });

  it('serves every version-2 addition', () => {
    expect(AHEAD_OF_CONTRACT.filter((m) => !METHODS.has(m))).toEqual([]);
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

describe('methodsFor', () => {
  it('validates with the request schemas of the head version it is given, and keeps the backend’s own elsewhere', () => {
    const request = z.strictObject({ collectionId: z.string() });
    const { getDashboard: _dropped, ...kept } = HEAD_METHODS;
    const methods = methodsFor({ version: 7, methods: { ...kept, getCollection: { request, response: z.unknown() } }, changes: [] });
    expect(methods.get('getCollection')!.schema).toBe(request);
    // Not in that head: the handler's fallback; not contract-backed (getEntries): the backend's own strict schema.
    expect(methods.get('getDashboard')!.schema).not.toBe(METHODS.get('getDashboard')!.schema);
    expect(methods.get('getEntries')!.schema).toBe(METHODS.get('getEntries')!.schema);
  });
});
