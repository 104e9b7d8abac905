import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedEntry } from '../../src/reference-backend/index.js';
import { rpc, start, type Started } from './helpers.js';
import { HEAD } from '../helpers/calendar.js';

const SCOPES = ['dash', 'widget', 'dataset', 'connection', 'report'] as const;
const AUTHORS = ['alice', 'bob', 'carol'] as const;
const SEEDED: SeedEntry[] = Array.from({ length: 25 }, (_, i) => ({
  entryId: `ent_${String(i).padStart(2, '0')}`,
  key: `folder/e${i}`,
  scope: SCOPES[i % SCOPES.length]!,
  createdBy: AUTHORS[i % AUTHORS.length]!,
  workbookId: 'wb_a',
}));

let s: Started;
beforeAll(async () => {
  s = await start({ seed: { workbooks: [{ workbookId: 'wb_a', title: 'A' }], entries: SEEDED } });
});
afterAll(() => s.backend.close());

async function pageThrough(filters: Record<string, unknown>, pageSize: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let pages = 0;
  let pageToken: string | undefined;
  do {
    const r = await rpc(s.url, 'getEntries', { ...filters, pageSize, ...(pageToken ? { pageToken } : {}) });
    expect(r.status).toBe(200);
    expect(r.body.entries.length).toBeLessThanOrEqual(pageSize);
    ids.push(...r.body.entries.map((e: { entryId: string }) => e.entryId));
    pageToken = r.body.nextPageToken;
    pages += 1;
  } while (pageToken !== undefined);
  return { ids, pages };
}

describe('getEntries', () => {
  it('returns the seeded entries in creation order with their full shape', async () => {
    const r = await rpc(s.url, 'getEntries', { ids: ['ent_03', 'ent_01'] });
    expect(r.status).toBe(200);
    expect(r.body.entries.map((e: { entryId: string }) => e.entryId)).toEqual(['ent_01', 'ent_03']);
    expect(r.body.entries[0]).toMatchObject({ key: 'folder/e1', scope: 'widget', type: '', workbookId: 'wb_a', createdBy: 'bob', version: HEAD });
    expect('nextPageToken' in r.body).toBe(false);
  });

  it('filters by createdBy and by scope together', async () => {
    const r = await rpc(s.url, 'getEntries', { createdBy: ['alice', 'carol'], scope: 'dash' });
    const expected = SEEDED.filter((e) => e.scope === 'dash' && e.createdBy !== 'bob').map((e) => e.entryId);
    expect(r.body.entries.map((e: { entryId: string }) => e.entryId)).toEqual(expected);
  });

  it('pages through every entry with tokens, seeing each exactly once', async () => {
    const { ids, pages } = await pageThrough({}, 7);
    expect(pages).toBe(4);
    expect(ids).toEqual(SEEDED.map((e) => e.entryId));
  });

  it('pages through a filtered list and omits nextPageToken on the last page', async () => {
    const expected = SEEDED.filter((e) => e.createdBy === 'alice').map((e) => e.entryId); // 9 entries
    const { ids, pages } = await pageThrough({ createdBy: ['alice'] }, 3);
    expect(ids).toEqual(expected);
    expect(pages).toBe(3);
  });

  it('defaults pageSize to 100', async () => {
    const r = await rpc(s.url, 'getEntries', {});
    expect(r.body.entries.length).toBe(SEEDED.length);
  });

  it('refuses a page token that does not decode', async () => {
    const r = await rpc(s.url, 'getEntries', { pageToken: 'not-a-token' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [expect.objectContaining({ path: 'pageToken' })] } });
  });

  it('refuses a page token issued for other filters', async () => {
    const first = await rpc(s.url, 'getEntries', { scope: 'dash', pageSize: 1 });
    expect(first.body.nextPageToken).toEqual(expect.any(String));
    const r = await rpc(s.url, 'getEntries', { scope: 'widget', pageToken: first.body.nextPageToken });
    expect(r.status).toBe(400);
    expect(r.body.details.issues[0].message).toMatch(/different filters/);
  });

  it('refuses the v1 page field', async () => {
    const r = await rpc(s.url, 'getEntries', { page: 2 });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'page', message: expect.any(String) }] } });
  });

  it('refuses v1 scalar ids and createdBy', async () => {
    const r = await rpc(s.url, 'getEntries', { ids: 'ent_01', createdBy: 'alice' });
    expect(r.status).toBe(400);
    expect(r.body.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['createdBy', 'ids']);
  });

  it('refuses a pageSize outside 1..1000', async () => {
    expect((await rpc(s.url, 'getEntries', { pageSize: 0 })).status).toBe(400);
    expect((await rpc(s.url, 'getEntries', { pageSize: 1001 })).status).toBe(400);
  });
});

describe('createEntry', () => {
  it('records the web UI as the author when no client version is sent', async () => {
    const r = await rpc(s.url, 'createEntry', { key: 'new/one', scope: 'dash' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ key: 'new/one', scope: 'dash', createdBy: 'web-ui', workbookId: null, version: HEAD });
    expect(r.body.entryId).toMatch(/^ent_[0-9a-f]{16}$/);
  });

  it('records an API client as the author and stamps its version', async () => {
    const r = await rpc(s.url, 'createEntry', { key: 'new/two', scope: 'widget', type: 'graph_wizard_node', workbookId: 'wb_a' }, { clientVersion: 1 });
    expect(r.body).toMatchObject({ createdBy: 'api', type: 'graph_wizard_node', workbookId: 'wb_a', version: 1 });
    const listed = await rpc(s.url, 'getEntries', { ids: [r.body.entryId] });
    // The listing row carries the entry's navigation fields (not its content: no includeData).
    const { entryId, key, scope, type, workbookId, createdBy, createdAt, updatedAt, version, savedId, publishedId } = r.body;
    expect(listed.body.entries).toEqual([
      expect.objectContaining({ entryId, key, name: 'two', scope, type, workbookId, createdBy, createdAt, updatedAt, version, savedId, publishedId, isFavorite: false }),
    ]);
    expect('data' in listed.body.entries[0]).toBe(false);
  });

  it('keeps an explicit createdBy and refuses an unknown scope', async () => {
    expect((await rpc(s.url, 'createEntry', { key: 'k', scope: 'report', createdBy: 'dave' })).body.createdBy).toBe('dave');
    const bad = await rpc(s.url, 'createEntry', { key: 'k', scope: 'folder' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues).toEqual([expect.objectContaining({ path: 'scope' })]);
  });
});
