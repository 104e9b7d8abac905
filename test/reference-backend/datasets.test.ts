import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED } from '../../src/reference-backend/index.js';
import { rpc, start, type Started } from './helpers.js';
import { HEAD } from '../helpers/calendar.js';

let s: Started;
beforeAll(async () => {
  s = await start({ seed: DEMO_SEED });
});
afterAll(() => s.backend.close());

describe('datasets', () => {
  it('serves the demo dataset in the BI shape, linked to its connection', async () => {
    const r = await rpc(s.url, 'getDataset', { datasetId: 'ent_demo_03' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 'ent_demo_03', realName: 'dataset-03', is_favorite: false, workbook_id: 'wb_demo_shared', options: {}, version: HEAD });
    expect(r.body.dataset.sources).toEqual([expect.objectContaining({ connection_id: 'ent_demo_04' })]);
  });

  it('gives a dataset saved before `description` existed the default ""', async () => {
    const r = await rpc(s.url, 'getDataset', { datasetId: 'ent_demo_03' });
    expect(r.body.dataset.description).toBe('');
  });

  it('creates a dataset in a workbook, updates its draft and validates changes without saving them', async () => {
    const created = await rpc(s.url, 'createDataset', { name: 'Orders', workbook_id: 'wb_demo_sandbox', dataset: { description: 'all orders', sources: [] } }, { clientVersion: 1 });
    expect(created.body).toMatchObject({ realName: 'Orders', workbook_id: 'wb_demo_sandbox', version: 1, dataset: { description: 'all orders' } });
    const id = created.body.id;
    const updated = await rpc(s.url, 'updateDataset', { datasetId: id, data: { dataset: { description: 'paid orders' } } }, { clientVersion: 1 });
    expect(updated.body).toMatchObject({ id, version: 1, dataset: { description: 'paid orders', sources: [] } });
    const validated = await rpc(s.url, 'validateDataset', { datasetId: id, data: { dataset: { description: 'preview' }, updates: [] } });
    expect(validated.body).toMatchObject({ dataset_errors: [], dataset: { description: 'preview' } });
    expect((await rpc(s.url, 'getDataset', { datasetId: id })).body.dataset.description).toBe('paid orders');
    expect((await rpc(s.url, 'deleteDataset', { datasetId: id }, { clientVersion: 1 })).body).toEqual({});
    expect((await rpc(s.url, 'getDataset', { datasetId: id })).status).toBe(404);
  });

  it('refuses a version-1 update or delete of a dataset saved under the head version, leaving it as it was', async () => {
    const before = (await rpc(s.url, 'getDataset', { datasetId: 'ent_demo_03' })).body;
    const r = await rpc(s.url, 'updateDataset', { datasetId: 'ent_demo_03', data: { dataset: { sources: [] } } }, { clientVersion: 1 });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('UNSUPPORTED_OBJECT_VERSION');
    expect((await rpc(s.url, 'deleteDataset', { datasetId: 'ent_demo_03' }, { clientVersion: 1 })).status).toBe(409);
    expect((await rpc(s.url, 'getDataset', { datasetId: 'ent_demo_03' })).body).toEqual(before);
  });
});
