import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED } from '../../src/reference-backend/index.js';
import { rpc, start, type Started } from './helpers.js';
import { HEAD } from '../helpers/calendar.js';

let s: Started;
beforeAll(async () => {
  s = await start({ seed: DEMO_SEED });
});
afterAll(() => s.backend.close());

const ids = (rows: { entryId: string }[]) => rows.map((r) => r.entryId);

describe('getEntriesRelations', () => {
  it('walks the demo chain: dashboard → chart → dataset → connection', async () => {
    for (const [from, to] of [
      ['ent_demo_01', 'ent_demo_02'],
      ['ent_demo_02', 'ent_demo_03'],
      ['ent_demo_03', 'ent_demo_04'],
    ]) {
      const r = await rpc(s.url, 'getEntriesRelations', { entryIds: [from], linkDirection: 'from' });
      expect(ids(r.body.relations), from).toEqual([to]);
    }
  });

  it('answers the entries that link to an entry, with the real row shape', async () => {
    const r = await rpc(s.url, 'getEntriesRelations', { entryIds: ['ent_demo_03'], linkDirection: 'to', includePermissionsInfo: true });
    expect(r.body.relations).toEqual([
      expect.objectContaining({ entryId: 'ent_demo_02', scope: 'widget', public: false, isLocked: false, version: HEAD, permissions: expect.objectContaining({ read: true }) }),
    ]);
  });

  it('filters by scope and answers 404 for an unknown entry', async () => {
    expect((await rpc(s.url, 'getEntriesRelations', { entryIds: ['ent_demo_01'], scope: 'dataset' })).body.relations).toEqual([]);
    expect((await rpc(s.url, 'getEntriesRelations', { entryIds: ['ent_nope'] })).status).toBe(404);
  });

  it('links a newly created chart to the dataset its data names', async () => {
    // The backend speaks the head's Wizard document (WizardV1ConfigSchema): the dataset is named in sources.datasetsIds.
    const data = { sources: { datasetsIds: ['ent_demo_03'] }, visualization: { type: 'line' } };
    const chart = await rpc(s.url, 'createWizardChart', { key: 'charts/new', data });
    const r = await rpc(s.url, 'getEntriesRelations', { entryIds: [chart.body.entry.entryId] });
    expect(ids(r.body.relations)).toEqual(['ent_demo_03']);
  });
});

describe('getEntries with the real arguments', () => {
  it('filters by name, orders by name and adds content, links and permissions only when asked', async () => {
    const r = await rpc(s.url, 'getEntries', { scope: 'dash', filters: { name: 'dash-0' }, orderBy: { field: 'name', direction: 'desc' } });
    expect(ids(r.body.entries)).toEqual(['ent_demo_06', 'ent_demo_01']);
    expect(r.body.entries[0]).toMatchObject({ name: 'dash-06', links: null, isFavorite: false, workbookTitle: 'Sales' });
    expect('data' in r.body.entries[0]).toBe(false);
    const full = await rpc(s.url, 'getEntries', { ids: ['ent_demo_01'], includeData: true, includeLinks: true, includePermissionsInfo: true });
    expect(full.body.entries[0]).toMatchObject({ data: { tabs: expect.any(Array) }, links: { ent_demo_02: 'ent_demo_02' }, permissions: { read: true } });
  });

  it('leaves out workbook entries on request, and refuses a field it does not know (an untranslated v1 one)', async () => {
    const outside = (await rpc(s.url, 'getEntries', { ignoreWorkbookEntries: true, pageSize: 1000 })).body.entries;
    expect(outside.every((e: { workbookId: string | null }) => e.workbookId === null)).toBe(true);
    expect(outside.some((e: { entryId: string }) => e.entryId.startsWith('ent_demo_'))).toBe(false);
    const r = await rpc(s.url, 'getEntries', { page: 1 });
    expect(r.status).toBe(400);
    expect(r.body.details.issues).toEqual([expect.objectContaining({ path: 'page' })]);
  });

  it('refuses a page token issued for other filters (an ordering counts)', async () => {
    const first = await rpc(s.url, 'getEntries', { pageSize: 2 });
    const other = await rpc(s.url, 'getEntries', { pageSize: 2, pageToken: first.body.nextPageToken, orderBy: { field: 'name', direction: 'asc' } });
    expect(other.status).toBe(400);
  });
});
