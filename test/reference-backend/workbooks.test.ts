import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, start, type Started } from './helpers.js';

let s: Started;
beforeAll(async () => {
  s = await start({
    seed: {
      workbooks: [
        { workbookId: 'wb_reports', title: 'All reports', legacyFolderKey: 'reports/' },
        { workbookId: 'wb_marketing', title: 'Marketing', legacyFolderKey: 'reports/marketing/' },
        { workbookId: 'wb_plain', title: 'No legacy folder' },
      ],
    },
  });
});
afterAll(() => s.backend.close());

describe('workbooks', () => {
  it('creates a workbook stamped with the client version and reads it back', async () => {
    const created = await rpc(s.url, 'createWorkbook', { title: 'Finance', legacyFolderKey: 'finance/' }, { clientVersion: 1 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ title: 'Finance', legacyFolderKey: 'finance/', version: 1 });
    expect(created.body.workbookId).toMatch(/^wb_[0-9a-f]{16}$/);
    const read = await rpc(s.url, 'getWorkbook', { workbookId: created.body.workbookId });
    expect(read.body).toEqual(created.body);
  });

  it('serves seeded workbooks at the head version', async () => {
    const r = await rpc(s.url, 'getWorkbook', { workbookId: 'wb_plain' });
    expect(r.body).toMatchObject({ workbookId: 'wb_plain', title: 'No legacy folder', version: 2 });
    expect('legacyFolderKey' in r.body).toBe(false);
  });

  it('answers 404 NOT_FOUND for an unknown workbook', async () => {
    const r = await rpc(s.url, 'getWorkbook', { workbookId: 'wb_nope' });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'NOT_FOUND', details: { workbookId: 'wb_nope' } });
  });
});

describe('resolveLegacyKey', () => {
  it('picks the workbook whose legacy folder key is the longest prefix of the key', async () => {
    const r = await rpc(s.url, 'resolveLegacyKey', { key: 'reports/marketing/q1-funnel' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ workbookId: 'wb_marketing', legacyFolderKey: 'reports/marketing/' });
  });

  it('falls back to a shorter prefix when no longer one matches', async () => {
    const r = await rpc(s.url, 'resolveLegacyKey', { key: 'reports/sales/q1' });
    expect(r.body).toEqual({ workbookId: 'wb_reports', legacyFolderKey: 'reports/' });
  });

  it('answers 404 NOT_FOUND with the key when no workbook matches', async () => {
    const r = await rpc(s.url, 'resolveLegacyKey', { key: 'dashboards/q1' });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'NOT_FOUND', details: { key: 'dashboards/q1' } });
  });

  it('refuses an empty key as a validation error', async () => {
    const r = await rpc(s.url, 'resolveLegacyKey', { key: '' });
    expect(r.status).toBe(400);
    expect(r.body.details.issues).toEqual([expect.objectContaining({ path: 'key' })]);
  });
});
