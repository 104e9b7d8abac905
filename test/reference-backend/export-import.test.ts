import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED } from '../../src/reference-backend/index.js';
import { rpc, start, type Started } from './helpers.js';
import { HEAD } from '../helpers/calendar.js';

let s: Started;
beforeAll(async () => {
  s = await start({ seed: DEMO_SEED });
});
afterAll(() => s.backend.close());

async function finishedExport(workbookId: string): Promise<{ exportId: string; data: Record<string, any> }> {
  const { exportId } = (await rpc(s.url, 'startWorkbookExport', { workbookId })).body;
  expect((await rpc(s.url, 'getWorkbookExportStatus', { exportId })).body).toMatchObject({ status: 'pending' });
  expect((await rpc(s.url, 'getWorkbookExportStatus', { exportId })).body).toMatchObject({ status: 'success', progress: 100 });
  const result = await rpc(s.url, 'getWorkbookExportResult', { exportId });
  expect(result.body).toMatchObject({ exportId, status: 'success' });
  return { exportId, data: result.body.data };
}

describe('workbook export', () => {
  it('is accepted, pending, then finished with the workbook’s entries and a hash', async () => {
    const { data } = await finishedExport('wb_demo_marketing');
    expect(data.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(data.export.workbook).toEqual({ title: 'Marketing', description: null });
    expect(data.export.entries.length).toBeGreaterThan(0);
    expect(data.export.entries[0]).toMatchObject({ scope: 'dash', name: 'dash-01', version: HEAD });
  });

  it('has no result before it finishes, and a cancelled export ends in error', async () => {
    const { exportId } = (await rpc(s.url, 'startWorkbookExport', { workbookId: 'wb_demo_sales' })).body;
    const early = await rpc(s.url, 'getWorkbookExportResult', { exportId });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('OPERATION_NOT_FINISHED');
    expect((await rpc(s.url, 'cancelWorkbookExport', { exportId })).body).toEqual({ exportId });
    expect((await rpc(s.url, 'getWorkbookExportStatus', { exportId })).body).toMatchObject({ status: 'error', notifications: [expect.objectContaining({ code: 'EXPORT_CANCELLED' })] });
  });

  it('answers 404 for an unknown export', async () => {
    expect((await rpc(s.url, 'getWorkbookExportStatus', { exportId: 'exp_nope' })).status).toBe(404);
  });
});

describe('workbook import', () => {
  it('creates the workbook at once and its entries when it completes, keeping their saved versions', async () => {
    const { data } = await finishedExport('wb_demo_marketing');
    const started = await rpc(s.url, 'startWorkbookImport', { data, title: 'Copy', collectionId: null }, { clientVersion: 1 });
    expect(started.status).toBe(200);
    const { importId, workbookId } = started.body;
    expect((await rpc(s.url, 'getWorkbook', { workbookId })).body).toMatchObject({ title: 'Copy', version: 1, meta: { importId } });
    expect((await rpc(s.url, 'getWorkbookEntries', { workbookId })).body.entries).toEqual([]);
    expect((await rpc(s.url, 'getWorkbookImportStatus', { importId })).body).toMatchObject({ importId, workbookId, status: 'pending' });
    expect((await rpc(s.url, 'getWorkbookImportStatus', { importId })).body).toMatchObject({ status: 'success' });
    const entries = (await rpc(s.url, 'getWorkbookEntries', { workbookId })).body.entries;
    expect(entries).toHaveLength(data.export.entries.length);
    expect(entries.map((e: { version: number }) => e.version)).toEqual(data.export.entries.map((e: { version: number }) => e.version));
  });

  it('refuses data that is not an export', async () => {
    const r = await rpc(s.url, 'startWorkbookImport', { data: { nothing: true }, title: 'Bad', collectionId: null });
    expect(r.status).toBe(400);
  });
});
