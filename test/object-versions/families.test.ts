// The DataLens families end to end through a real gateway in front of the reference backend, at the latest version
// and at version 1: collections with breadcrumbs, content and moves; entry relations; export and import as
// operations that complete.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../helpers/calendar.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

describe.each(['1', 'latest'])('at version %s', (version) => {
  it('collections: create a nested pair, read breadcrumbs and content, move one to the root', async () => {
    const top = await rpc(stack.url, 'createCollection', { title: `Top ${version}`, parentId: null }, version);
    expect(top.status).toBe(200);
    const child = await rpc(stack.url, 'createCollection', { title: 'Child', parentId: top.body.collectionId }, version);
    const crumbs = await rpc(stack.url, 'getCollectionBreadcrumbs', { collectionId: child.body.collectionId }, version);
    expect(crumbs.body.map((c: { title: string }) => c.title)).toEqual([`Top ${version}`, 'Child']);
    const content = await rpc(stack.url, 'getCollectionContent', { collectionId: top.body.collectionId }, version);
    expect(content.body.items).toEqual([expect.objectContaining({ entity: 'collection', collectionId: child.body.collectionId })]);
    const moved = await rpc(stack.url, 'moveCollection', { collectionId: child.body.collectionId, parentId: null }, version);
    expect(moved.body).toMatchObject({ parentId: null, version: version === '1' ? 1 : HEAD });
  });

  it('relations: the demo dashboard links to its chart (a listing: served at every version)', async () => {
    const r = await rpc(stack.url, 'getEntriesRelations', { entryIds: ['ent_demo_01'], linkDirection: 'from' }, version);
    expect(r.status).toBe(200);
    expect(r.body.relations).toEqual([expect.objectContaining({ entryId: 'ent_demo_02', version: HEAD })]);
  });

  it('export and import: accepted, pending, then finished; the import creates the workbook and its entries', async () => {
    const started = await rpc(stack.url, 'startWorkbookExport', { workbookId: 'wb_demo_sales' }, version);
    const exportId = started.body.exportId;
    expect((await rpc(stack.url, 'getWorkbookExportStatus', { exportId }, version)).body.status).toBe('pending');
    expect((await rpc(stack.url, 'getWorkbookExportStatus', { exportId }, version)).body.status).toBe('success');
    const result = await rpc(stack.url, 'getWorkbookExportResult', { exportId }, version);
    expect(result.body).toMatchObject({ exportId, status: 'success', data: { hash: expect.any(String) } });
    const imported = await rpc(stack.url, 'startWorkbookImport', { data: result.body.data, title: `Imported ${version}`, collectionId: null }, version);
    const { importId, workbookId } = imported.body;
    expect((await rpc(stack.url, 'getWorkbookImportStatus', { importId }, version)).body.status).toBe('pending');
    expect((await rpc(stack.url, 'getWorkbookImportStatus', { importId }, version)).body).toMatchObject({ importId, workbookId, status: 'success' });
    const entries = await rpc(stack.url, 'getWorkbookEntries', { workbookId }, version);
    expect(entries.body.entries).toHaveLength(result.body.data.export.entries.length);
  });

  it('workbooks: listed by collection with the real fields', async () => {
    const r = await rpc(stack.url, 'getWorkbooksList', { collectionId: 'col_demo_analytics' }, version);
    expect(r.body.workbooks).toEqual([expect.objectContaining({ workbookId: 'wb_demo_sales', collectionId: 'col_demo_analytics', status: 'active', tenantId: expect.any(String) })]);
  });
});
