import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED } from '../../src/reference-backend/index.js';
import { rpc, start, type Started } from './helpers.js';

let s: Started;
beforeAll(async () => {
  s = await start({
    seed: { ...DEMO_SEED, entries: [...DEMO_SEED.entries!, { entryId: 'ent_f1', key: 'reports/old/sales', scope: 'dash' }, { entryId: 'ent_f2', key: 'reports/old/costs', scope: 'widget', type: 'graph_node' }] },
  });
});
afterAll(() => s.backend.close());

describe('HTML pages', () => {
  it('are created, read, updated (as the writer’s version) and deleted', async () => {
    const created = await rpc(s.url, 'createHtmlPage', { entry: { workbookId: 'wb_demo_sandbox', name: 'About', data: { html: '<p>1</p>' } } }, { clientVersion: 2 });
    expect(created.body).toMatchObject({ type: 'html_page', key: 'wb_demo_sandbox/About', data: { html: '<p>1</p>' }, version: 2 });
    const id = created.body.entryId;
    const updated = await rpc(s.url, 'updateHtmlPage', { mode: 'publish', entry: { entryId: id, data: { html: '<p>2</p>' } } });
    expect(updated.body.data).toEqual({ html: '<p>2</p>' });
    expect((await rpc(s.url, 'getHtmlPage', { htmlPageId: id })).body.data).toEqual({ html: '<p>2</p>' });
    expect((await rpc(s.url, 'getEditorChart', { chartId: id })).status).toBe(404);
    expect((await rpc(s.url, 'deleteHtmlPage', { htmlPageId: id })).body).toEqual({});
    expect((await rpc(s.url, 'getHtmlPage', { htmlPageId: id })).status).toBe(404);
  });
});

describe('entry locks', () => {
  it('block writes without the token, show on reads and listings, and are released by their holder', async () => {
    const lock = await rpc(s.url, 'createEntryLock', { entryId: 'ent_demo_01' });
    expect(lock.body.lockToken).toEqual(expect.any(String));
    expect((await rpc(s.url, 'createEntryLock', { entryId: 'ent_demo_01' })).status).toBe(423);
    const refused = await rpc(s.url, 'deleteDashboard', { dashboardId: 'ent_demo_01' });
    expect(refused.status).toBe(423);
    expect(refused.body.code).toBe('ENTRY_LOCKED');
    expect((await rpc(s.url, 'getEntries', { ids: ['ent_demo_01'] })).body.entries[0].isLocked).toBe(true);
    expect((await rpc(s.url, 'getEntries', { ids: ['ent_demo_01'], excludeLocked: true })).body.entries).toEqual([]);
    const extended = await rpc(s.url, 'extendEntryLock', { entryId: 'ent_demo_01', lockToken: lock.body.lockToken, duration: 60_000 });
    expect(extended.status).toBe(200);
    expect((await rpc(s.url, 'deleteEntryLock', { entryId: 'ent_demo_01', lockToken: 'not-it' })).status).toBe(404);
    expect((await rpc(s.url, 'deleteEntryLock', { entryId: 'ent_demo_01', lockToken: lock.body.lockToken })).body).toEqual({});
    expect((await rpc(s.url, 'getEntries', { ids: ['ent_demo_01'] })).body.entries[0].isLocked).toBe(false);
  });

  it('let the holder write with its token', async () => {
    const lock = await rpc(s.url, 'createEntryLock', { entryId: 'ent_demo_02' });
    const update = { chartId: 'ent_demo_02', mode: 'publish', data: { sources: { datasetsIds: [] }, visualization: { type: 'line', chartSettings: { title: 'locked write' } } } };
    expect((await rpc(s.url, 'updateWizardChart', update)).status).toBe(423);
    expect((await rpc(s.url, 'updateWizardChart', { ...update, lockToken: lock.body.lockToken })).status).toBe(200);
  });
});

describe('folders and permissions', () => {
  it('move an entry to another folder (a guarded write) and delete a folder with what it holds', async () => {
    const moved = await rpc(s.url, 'moveFolderEntry', { entryId: 'ent_f2', destination: 'reports/new/' });
    expect(moved.body).toEqual([{ entryId: 'ent_f2', key: 'reports/new/costs', scope: 'widget', type: 'graph_node' }]);
    const renamed = await rpc(s.url, 'moveFolderEntry', { entryId: 'ent_f2', destination: 'reports/new/', name: 'costs-2026' });
    expect(renamed.body).toEqual([expect.objectContaining({ key: 'reports/new/costs-2026' })]);
    const deleted = await rpc(s.url, 'deleteFolder', { key: 'reports/old/' });
    expect(deleted.body.deletedEntryIds).toEqual(['ent_f1']);
    expect((await rpc(s.url, 'getEntries', { ids: ['ent_f1', 'ent_f2'] })).body.entries.map((e: { entryId: string }) => e.entryId)).toEqual(['ent_f2']);
  });

  it('refuse a version-1 delete of a folder holding a newer entry, deleting nothing', async () => {
    const r = await rpc(s.url, 'deleteFolder', { key: 'reports/new/' }, { clientVersion: 1 });
    expect(r.status).toBe(409);
    expect((await rpc(s.url, 'getEntries', { ids: ['ent_f2'] })).body.entries).toHaveLength(1);
  });

  it('record grants as a diff and answer them by ACL level, suggest subjects and list members', async () => {
    const diff = { added: { acl_view: [{ subject: 'user:bob@example.com', comment: 'reads it' }], acl_edit: [{ subject: 'user:carol@example.com' }] } };
    expect((await rpc(s.url, 'modifyPermissions', { entryId: 'ent_demo_01', body: { diff } })).body).toEqual({ result: 'ok' });
    const changed = { modified: { acl_view: [{ subject: 'user:bob@example.com', new: { grantType: 'acl_adm', subject: 'user:bob@example.com' } }] }, removed: { acl_edit: [{ subject: 'user:carol@example.com' }] } };
    expect((await rpc(s.url, 'modifyPermissions', { entryId: 'ent_demo_01', body: { diff: changed } })).body).toEqual({ result: 'ok' });
    const read = (await rpc(s.url, 'getPermissions', { entryId: 'ent_demo_01' })).body;
    expect(read).toMatchObject({ editable: true, pendingPermissions: { acl_view: [] } });
    expect(read.permissions.acl_adm).toEqual([expect.objectContaining({ name: 'user:bob@example.com', kind: 'user', subject: expect.objectContaining({ title: 'bob@example.com' }) })]);
    expect([read.permissions.acl_view, read.permissions.acl_edit]).toEqual([[], []]);
    expect((await rpc(s.url, 'dlsSuggest', { searchText: 'ALICE' })).body).toEqual([expect.objectContaining({ name: 'alice@example.com', type: 'user' })]);
    const members = (await rpc(s.url, 'batchListMembers', { search: 'alice', tabId: 'USER_ACCOUNT' })).body;
    expect(members).toEqual({ members: [expect.objectContaining({ sub: 'alice@example.com', email: 'alice@example.com', subType: 'USER_ACCOUNT' })], nextPageToken: '' });
  });
});
