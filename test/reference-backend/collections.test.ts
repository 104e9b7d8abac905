import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, start, type Started } from './helpers.js';
import { HEAD } from '../helpers/calendar.js';

let s: Started;
beforeAll(async () => {
  s = await start({
    seed: {
      collections: [
        { collectionId: 'col_top', title: 'Top', workbookIds: ['wb_in_top'] },
        { collectionId: 'col_mid', title: 'Mid', parentId: 'col_top' },
        { collectionId: 'col_old', title: 'Old', version: 1 },
      ],
      workbooks: [{ workbookId: 'wb_in_top', title: 'Inside top' }],
    },
  });
});
afterAll(() => s.backend.close());

const create = async (body: Record<string, unknown>, clientVersion?: number) => {
  const r = await rpc(s.url, 'createCollection', body, { clientVersion });
  expect(r.status).toBe(200);
  return r.body;
};

describe('collections', () => {
  it('creates a collection with the real answer shape and an operation, and reads it back', async () => {
    const created = await create({ title: 'Finance', description: 'Money', parentId: null }, 1);
    expect(created).toMatchObject({ title: 'Finance', description: 'Money', parentId: null, createdBy: 'api', version: 1, meta: {}, operation: { done: true } });
    expect(created.collectionId).toMatch(/^col_[0-9a-f]{16}$/);
    const { operation: _operation, ...collection } = created;
    const read = await rpc(s.url, 'getCollection', { collectionId: created.collectionId });
    expect(read.body).toEqual(collection);
    const withPermissions = await rpc(s.url, 'getCollection', { collectionId: created.collectionId, includePermissionsInfo: true });
    expect(withPermissions.body.permissions).toMatchObject({ view: true, update: true, createWorkbook: true });
  });

  it('answers breadcrumbs from the root down to the collection itself', async () => {
    const leaf = await create({ title: 'Leaf', parentId: 'col_mid' });
    const r = await rpc(s.url, 'getCollectionBreadcrumbs', { collectionId: leaf.collectionId });
    expect(r.body.map((c: { collectionId: string }) => c.collectionId)).toEqual(['col_top', 'col_mid', leaf.collectionId]);
  });

  it('lists a collection’s content: child collections and workbooks, tagged by entity, filtered by mode', async () => {
    const all = await rpc(s.url, 'getCollectionContent', { collectionId: 'col_top' });
    expect(all.body.items.map((i: { entity: string; title: string }) => [i.entity, i.title])).toEqual([
      ['collection', 'Mid'],
      ['workbook', 'Inside top'],
    ]);
    expect(all.body.nextPageToken).toBeNull();
    const onlyWorkbooks = await rpc(s.url, 'getCollectionContent', { collectionId: 'col_top', mode: 'onlyWorkbooks' });
    expect(onlyWorkbooks.body.items.map((i: { entity: string }) => i.entity)).toEqual(['workbook']);
  });

  it('pages the content with a page token and sorts by title', async () => {
    const parent = await create({ title: 'Pager', parentId: null });
    for (const title of ['c', 'a', 'b']) await create({ title, parentId: parent.collectionId });
    const query = { collectionId: parent.collectionId, pageSize: 2, orderField: 'title', orderDirection: 'desc' };
    const first = await rpc(s.url, 'getCollectionContent', query);
    expect(first.body.items.map((i: { title: string }) => i.title)).toEqual(['c', 'b']);
    const second = await rpc(s.url, 'getCollectionContent', { ...query, page: first.body.nextPageToken });
    expect(second.body).toMatchObject({ items: [expect.objectContaining({ title: 'a' })], nextPageToken: null });
    const bad = await rpc(s.url, 'getCollectionContent', { collectionId: parent.collectionId, page: 'not-a-token' });
    expect(bad.status).toBe(400);
  });

  it('moves a collection (renaming it) and refuses a move into its own subtree', async () => {
    const moving = await create({ title: 'Moving', parentId: null });
    const moved = await rpc(s.url, 'moveCollection', { collectionId: moving.collectionId, parentId: 'col_top', title: 'Moved' });
    expect(moved.body).toMatchObject({ parentId: 'col_top', title: 'Moved' });
    const cycle = await rpc(s.url, 'moveCollection', { collectionId: 'col_top', parentId: 'col_mid' });
    expect(cycle.status).toBe(400);
    expect((await rpc(s.url, 'getCollection', { collectionId: 'col_top' })).body.parentId).toBeNull();
  });

  it('updates a title and description and stamps the writer’s version', async () => {
    const c = await create({ title: 'Before', parentId: null }, 1);
    const updated = await rpc(s.url, 'updateCollection', { collectionId: c.collectionId, title: 'After', description: 'd' });
    expect(updated.body).toMatchObject({ title: 'After', description: 'd', version: HEAD, updatedBy: 'web-ui' });
  });

  it('deletes a collection with everything below it', async () => {
    const top = await create({ title: 'Doomed', parentId: null });
    const child = await create({ title: 'Doomed child', parentId: top.collectionId });
    const wb = await rpc(s.url, 'createWorkbook', { title: 'Doomed workbook', collectionId: child.collectionId });
    const r = await rpc(s.url, 'deleteCollection', { collectionId: top.collectionId });
    expect(r.body.collections.map((c: { collectionId: string }) => c.collectionId)).toEqual([top.collectionId, child.collectionId]);
    expect((await rpc(s.url, 'getCollection', { collectionId: child.collectionId })).status).toBe(404);
    expect((await rpc(s.url, 'getWorkbook', { workbookId: wb.body.workbookId })).status).toBe(404);
  });

  it('refuses a version-1 write or delete of a collection saved under the head version, changing nothing', async () => {
    const before = (await rpc(s.url, 'getCollection', { collectionId: 'col_mid' })).body;
    for (const [method, body] of [
      ['updateCollection', { collectionId: 'col_mid', title: 'v1 was here' }],
      ['moveCollections', { collectionIds: ['col_old', 'col_mid'], parentId: null }],
      ['deleteCollection', { collectionId: 'col_mid' }],
    ] as const) {
      const r = await rpc(s.url, method, body, { clientVersion: 1 });
      expect(r.status, method).toBe(409);
      expect(r.body).toMatchObject({ code: 'UNSUPPORTED_OBJECT_VERSION', details: { objectId: 'col_mid', objectVersion: HEAD, requestedVersion: 1 } });
    }
    expect((await rpc(s.url, 'getCollection', { collectionId: 'col_mid' })).body).toEqual(before);
    // The batch move was refused as a whole: the version-1 collection did not move either.
    expect((await rpc(s.url, 'getCollection', { collectionId: 'col_old' })).body).toMatchObject({ parentId: null, version: 1 });
  });

  it('answers root permissions without a body', async () => {
    const res = await fetch(`${s.url}/rpc/getRootCollectionPermissions`, { method: 'POST', headers: { 'x-dl-api-version': String(HEAD) } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ createCollectionInRoot: true, createWorkbookInRoot: true });
  });

  it('answers the collections with the given ids, skipping unknown ones', async () => {
    const r = await rpc(s.url, 'getCollectionsByIds', { collectionIds: ['col_top', 'col_nope'] });
    expect(r.body.map((c: { collectionId: string }) => c.collectionId)).toEqual(['col_top']);
  });
});
