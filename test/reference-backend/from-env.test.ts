import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceBackendFromEnv, type RunningReferenceBackend } from '../../src/reference-backend/index.js';
import { rpc } from './helpers.js';
import { HEAD } from '../helpers/calendar.js';

let running: RunningReferenceBackend;
beforeAll(async () => {
  running = await startReferenceBackendFromEnv({ BACKEND_PORT: '0', BACKEND_HOST: '127.0.0.1' });
});
afterAll(() => running.close());

describe('startReferenceBackendFromEnv', () => {
  it('listens on the configured host and speaks the head version', async () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${running.url}/ping`)).json()).toEqual({ status: 'ok', apiVersion: HEAD });
  });

  it('seeds a marketing workbook that legacy report keys resolve to', async () => {
    const r = await rpc(running.url, 'resolveLegacyKey', { key: 'reports/marketing/q1' });
    expect(r.body).toEqual({ workbookId: 'wb_demo_marketing', legacyFolderKey: 'reports/marketing/' });
  });

  it('seeds thirty demo entries, some last saved under version 1', async () => {
    const r = await rpc(running.url, 'getEntries', {});
    expect(r.body.entries).toHaveLength(30);
    expect(r.body.entries.some((e: { version: number }) => e.version === 1)).toBe(true);
  });

  it('seeds one object of each kind, each readable with its method', async () => {
    for (const [method, body] of [
      ['getCollection', { collectionId: 'col_demo_analytics' }],
      ['getWorkbook', { workbookId: 'wb_demo_marketing' }],
      ['getDashboard', { dashboardId: 'ent_demo_01' }],
      ['getWizardChart', { chartId: 'ent_demo_02' }],
      ['getQLChart', { chartId: 'ent_demo_07' }],
      ['getEditorChart', { chartId: 'ent_demo_12' }],
      ['getDataset', { datasetId: 'ent_demo_03' }],
      ['getConnection', { connectionId: 'ent_demo_04' }],
      ['getReport', { reportId: 'rep_demo_q1' }],
    ] as const) {
      expect((await rpc(running.url, method, body)).status, method).toBe(200);
    }
    expect((await rpc(running.url, 'getWorkbook', { workbookId: 'wb_demo_marketing' })).body.collectionId).toBe('col_demo_campaigns');
  });

  it('rejects a BACKEND_PORT that is not a port number', async () => {
    await expect(startReferenceBackendFromEnv({ BACKEND_PORT: 'eighty' })).rejects.toThrow(/BACKEND_PORT/);
    await expect(startReferenceBackendFromEnv({ BACKEND_PORT: '70000' })).rejects.toThrow(/BACKEND_PORT/);
  });
});
