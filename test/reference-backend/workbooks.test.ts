import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, start, type Started } from './helpers.js';
import { HEAD } from '../helpers/calendar.js';
import { object, request } from '../../src/core/contract-model/builders.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import { shippedContract } from '../../src/contract/index.js';
import { headPath } from '../../src/reference-backend/head-bridge.js';

// The head's names for a workbook's description, sent and answered (a newer head may rename it).
const loaded = loadContract(shippedContract);
const SENT_DESCRIPTION = headPath(loaded, request('createWorkbook'), 'description');
const READ_DESCRIPTION = headPath(loaded, object('workbook'), 'description');

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
    // Creating answers the workbook and the (finished) operation that created it, as US does.
    const { operation, ...workbook } = created.body;
    expect(operation).toMatchObject({ done: true });
    const read = await rpc(s.url, 'getWorkbook', { workbookId: created.body.workbookId });
    expect(read.body).toEqual(workbook);
  });

  it('serves seeded workbooks at the head version', async () => {
    const r = await rpc(s.url, 'getWorkbook', { workbookId: 'wb_plain' });
    expect(r.body).toMatchObject({ workbookId: 'wb_plain', title: 'No legacy folder', version: HEAD });
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

describe('workbook methods', () => {
  let t: Started;
  beforeAll(async () => {
    t = await start({
      seed: {
        collections: [{ collectionId: 'col_a', title: 'A' }],
        workbooks: [
          { workbookId: 'wb_new', title: 'Saved by the web UI' },
          { workbookId: 'wb_old', title: 'Saved by a v1 client', version: 1 },
        ],
        entries: [
          { entryId: 'ent_w1', key: 'wb_old/Revenue', scope: 'dash', workbookId: 'wb_old', version: 1 },
          { entryId: 'ent_w2', key: 'wb_old/Costs', scope: 'widget', type: 'graph_wizard_node', workbookId: 'wb_old', version: 1 },
          { entryId: 'ent_w3', key: 'wb_new/Any', scope: 'dataset', workbookId: 'wb_new' },
        ],
      },
    });
  });
  afterAll(() => t.backend.close());

  it('creates a workbook in a collection with the real answer shape', async () => {
    const r = await rpc(t.url, 'createWorkbook', { title: 'In A', [SENT_DESCRIPTION]: 'd', collectionId: 'col_a' });
    expect(r.body).toMatchObject({ title: 'In A', [READ_DESCRIPTION]: 'd', collectionId: 'col_a', status: 'active', meta: {}, createdBy: 'web-ui', version: HEAD });
    expect(Object.keys(r.body)).toEqual(expect.arrayContaining(['tenantId', 'createdAt', 'updatedBy', 'updatedAt', 'operation']));
    expect((await rpc(t.url, 'createWorkbook', { title: 'x', collectionId: 'col_missing' })).status).toBe(404);
  });

  it('lists the workbooks of a collection and pages them', async () => {
    for (const title of ['p1', 'p2', 'p3']) await rpc(t.url, 'createWorkbook', { title, collectionId: 'col_a' });
    const first = await rpc(t.url, 'getWorkbooksList', { collectionId: 'col_a', filterString: 'p', pageSize: 2 });
    expect(first.body.workbooks.map((w: { title: string }) => w.title)).toEqual(['p1', 'p2']);
    expect(first.body.nextPageToken).toBe('1');
    const second = await rpc(t.url, 'getWorkbooksList', { collectionId: 'col_a', filterString: 'p', pageSize: 2, page: 1 });
    expect(second.body).toEqual({ workbooks: [expect.objectContaining({ title: 'p3' })] });
  });

  it('updates and moves a workbook, and answers workbooks by id', async () => {
    const wb = (await rpc(t.url, 'createWorkbook', { title: 'Movable' })).body;
    expect((await rpc(t.url, 'updateWorkbook', { workbookId: wb.workbookId, title: 'Renamed' })).body.title).toBe('Renamed');
    const moved = await rpc(t.url, 'moveWorkbooks', { workbookIds: [wb.workbookId], collectionId: 'col_a' });
    expect(moved.body.workbooks[0]).toMatchObject({ workbookId: wb.workbookId, collectionId: 'col_a' });
    const byIds = await rpc(t.url, 'getWorkbooksByIds', { workbookIds: [wb.workbookId, 'wb_missing'] });
    expect(byIds.body).toEqual([expect.objectContaining({ workbookId: wb.workbookId, title: 'Renamed' })]);
  });

  it('lists a workbook’s entries with the real row shape, filtered by name and ordered', async () => {
    const r = await rpc(t.url, 'getWorkbookEntries', { workbookId: 'wb_old', orderBy: { field: 'name', direction: 'asc' } });
    expect(r.body.entries.map((e: { entryId: string }) => e.entryId)).toEqual(['ent_w2', 'ent_w1']);
    expect(r.body.entries[0]).toMatchObject({ displayKey: 'wb_old/Costs', isFavorite: false, isLocked: false, mirrored: false, version: 1 });
    const filtered = await rpc(t.url, 'getWorkbookEntries', { workbookId: 'wb_old', filters: { name: 'rev' }, scope: ['dash'] });
    expect(filtered.body.entries.map((e: { entryId: string }) => e.entryId)).toEqual(['ent_w1']);
  });

  it('refuses a version-1 delete of a workbook holding an object saved under the head version, deleting nothing', async () => {
    const wb = (await rpc(t.url, 'createWorkbook', { title: 'Mixed' }, { clientVersion: 1 })).body;
    const entry = (await rpc(t.url, 'createEntry', { key: 'k/newer', scope: 'dash', workbookId: wb.workbookId })).body;
    const r = await rpc(t.url, 'deleteWorkbook', { workbookId: wb.workbookId }, { clientVersion: 1 });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'UNSUPPORTED_OBJECT_VERSION', details: { objectId: entry.entryId, objectVersion: HEAD } });
    expect((await rpc(t.url, 'getWorkbook', { workbookId: wb.workbookId })).status).toBe(200);
    expect((await rpc(t.url, 'getEntries', { ids: [entry.entryId] })).body.entries).toHaveLength(1);
  });

  it('refuses version-1 writes of a workbook saved under the head version, a batch as a whole', async () => {
    const before = (await rpc(t.url, 'getWorkbook', { workbookId: 'wb_new' })).body;
    for (const [method, body] of [
      ['updateWorkbook', { workbookId: 'wb_new', title: 'v1' }],
      ['moveWorkbook', { workbookId: 'wb_new', collectionId: 'col_a' }],
      ['moveWorkbooks', { workbookIds: ['wb_old', 'wb_new'], collectionId: 'col_a' }],
      ['deleteWorkbooks', { workbookIds: ['wb_old', 'wb_new'] }],
    ] as const) {
      const r = await rpc(t.url, method, body, { clientVersion: 1 });
      expect(r.status, method).toBe(409);
    }
    expect((await rpc(t.url, 'getWorkbook', { workbookId: 'wb_new' })).body).toEqual(before);
    expect((await rpc(t.url, 'getWorkbook', { workbookId: 'wb_old' })).body).toMatchObject({ collectionId: null, version: 1 });
  });

  it('lets a version-1 client delete a version-1 workbook with its entries', async () => {
    const r = await rpc(t.url, 'deleteWorkbook', { workbookId: 'wb_old' }, { clientVersion: 1 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ workbookId: 'wb_old' });
    expect((await rpc(t.url, 'getEntries', { ids: ['ent_w1', 'ent_w2'] })).body.entries).toEqual([]);
  });
});
