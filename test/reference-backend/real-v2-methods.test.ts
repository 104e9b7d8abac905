// The methods that complete the real version 2 (licensing, embeds and embedding secrets, audit, access bindings,
// entries and folders), called at version 2 through a real gateway in front of the reference backend.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc as call, startStack, type Stack } from '../helpers/stack.js';
import { dashData } from '../replay/fixtures/dashboards.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const rpc = (method: string, body: unknown) => call(stack.url, method, body, '2');
const ok = async (method: string, body: unknown) => {
  const res = await rpc(method, body);
  expect(res.status, `${method}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};

describe('licensing', () => {
  it('assigns licences up to the limit, lists them by status and reports the limit with the active count', async () => {
    expect(await ok('getLicensesLimit', {})).toEqual({ current: null, next: null });
    expect(await ok('setLicenseLimit', { value: 2 })).toMatchObject({ current: { type: 'regular', value: 2, activeLicensesCount: 0 }, next: null });
    const assigned = await ok('assignLicenses', { userIds: ['ann@example.com', 'bob@example.com'] });
    expect(assigned).toHaveLength(2);
    expect(assigned[0]).toMatchObject({ userId: 'ann@example.com', licenseType: 'creator', isActive: true });
    const refused = await rpc('assignLicenses', { userIds: ['cat@example.com'] });
    expect(refused.status).toBe(400);
    expect((await ok('getLicensesLimit', undefined)).current.activeLicensesCount).toBe(2);
    const first = await ok('getLicenses', { limit: 1, sortBy: 'createdAt' });
    expect(first.licenses).toHaveLength(1);
    expect(first.licenses[0].lastLoginAt).toBeNull();
    const second = await ok('getLicenses', { limit: 1, sortBy: 'createdAt', pageToken: first.nextPageToken });
    expect(second.licenses.map((l: { userId: string }) => l.userId)).not.toEqual(first.licenses.map((l: { userId: string }) => l.userId));
    expect(second.nextPageToken).toBeUndefined();
    expect((await ok('getLicenses', { status: 'expired' })).licenses).toEqual([]);
    expect((await rpc('getLicenses', { unknown: 1 })).status).toBe(400);
  });
});

describe('embedding secrets and embeds', () => {
  it('make a secret for a workbook, embed one of its entries with it, change, list and delete them', async () => {
    const [entry] = (await ok('getEntries', { ids: ['ent_demo_01'] })).entries;
    const secret = await ok('createEmbeddingSecret', { title: 'Site', workbookId: entry.workbookId });
    expect(secret.privateKey).toContain('PRIVATE KEY');
    expect(await ok('getEmbeddingSecret', { embeddingSecretId: secret.embeddingSecretId })).toEqual({
      embeddingSecretId: secret.embeddingSecretId, title: 'Site', workbookId: entry.workbookId, createdBy: 'api', createdAt: expect.any(String),
    });
    const fields = { title: 'Board', embeddingSecretId: secret.embeddingSecretId, depsIds: [], unsignedParams: ['region'], privateParams: ['user'], publicParamsMode: false, settings: { enableExport: true } };
    const embed = await ok('createEmbed', { entryId: entry.entryId, ...fields });
    expect(embed).toMatchObject({ entryId: entry.entryId, ...fields });
    const changed = await ok('updateEmbed', { embedId: embed.embedId, ...fields, title: 'Board 2', settings: {} });
    expect(changed).toMatchObject({ embedId: embed.embedId, title: 'Board 2', settings: {} });
    expect((await ok('listEmbeds', { entryId: entry.entryId })).map((e: { title: string }) => e.title)).toEqual(['Board 2']);
    expect(await ok('listEmbeddingSecrets', { workbookId: entry.workbookId })).toHaveLength(1);
    expect(await ok('deleteEmbed', { embedId: embed.embedId })).toEqual({ embedId: embed.embedId });
    expect(await ok('listEmbeds', { entryId: entry.entryId })).toEqual([]);
    expect(await ok('deleteEmbeddingSecret', { embeddingSecretId: secret.embeddingSecretId })).toEqual({ embeddingSecretId: secret.embeddingSecretId });
    expect((await rpc('getEmbeddingSecret', { embeddingSecretId: secret.embeddingSecretId })).status).toBe(404);
  });

  it('refuse a secret of another workbook and a missing dependency', async () => {
    const [entry] = (await ok('getEntries', { ids: ['ent_demo_01'] })).entries;
    const other = entry.workbookId === 'wb_demo_sandbox' ? 'wb_demo_sales' : 'wb_demo_sandbox';
    const foreign = await ok('createEmbeddingSecret', { title: 'Other', workbookId: other });
    const fields = { title: 'x', depsIds: [], unsignedParams: [], privateParams: [], publicParamsMode: true, settings: {} };
    expect((await rpc('createEmbed', { entryId: entry.entryId, embeddingSecretId: foreign.embeddingSecretId, ...fields })).status).toBe(400);
    const own = await ok('createEmbeddingSecret', { title: 'Own', workbookId: entry.workbookId });
    expect((await rpc('createEmbed', { entryId: entry.entryId, embeddingSecretId: own.embeddingSecretId, ...fields, depsIds: ['ent_missing'] })).status).toBe(404);
  });
});

describe('audit', () => {
  it('lists changed and deleted entries since an instant, oldest first, page by page', async () => {
    const since = new Date().toISOString();
    const made = await ok('createFolder', { key: `audit-${Date.now()}/` });
    expect(made.scope).toBe('folder');
    const dash = await ok('createDashboard', { entry: { key: `${made.key}Board`, data: dashData('Board'), meta: {} } });
    const id = dash.entry.entryId;
    await ok('deleteDashboard', { dashboardId: id });
    const all = await ok('getAuditEntriesUpdates', { from: since });
    const mine = all.entries.filter((e: { entryId: string }) => e.entryId === id);
    expect(mine).toEqual([expect.objectContaining({ entryId: id, isDeleted: true, scope: 'dash', key: `${made.key}Board` })]);
    expect((await ok('getAuditEntriesUpdates', { from: since, to: since.replace(/^\d{4}/, '2000') })).entries).toEqual([]);
    const paged = await ok('getAuditEntriesUpdates', { from: '2000-01-01T00:00:00Z', limit: 5 });
    expect(paged.entries).toHaveLength(5);
    const next = await ok('getAuditEntriesUpdates', { from: '2000-01-01T00:00:00Z', limit: 5, pageToken: paged.nextPageToken });
    expect(next.entries[0].updatedAt >= paged.entries[4].updatedAt).toBe(true);
    expect((await rpc('getAuditEntriesUpdates', { from: 'yesterday' })).status).toBe(400);
  });

  it('answers a user’s permissions per entry, NOT_FOUND for unknown ones', async () => {
    expect(await ok('getAuditEntryPermissionsForUser', { userId: 'ann', entryIds: ['ent_demo_01', 'ent_nope'] })).toEqual({
      ent_demo_01: { permissions: { execute: true, read: true, edit: true, admin: true } },
      ent_nope: { error: 'NOT_FOUND' },
    });
  });
});

describe('access bindings', () => {
  const delta = (action: 'ADD' | 'REMOVE', id: string, roleId: string) => ({ action, accessBinding: { roleId, subject: { id, type: 'userAccount' } } });

  it('are changed by an operation and listed, with the ones inherited from the collections above', async () => {
    const op = await ok('updateCollectionAccessBindings', { collectionId: 'col_demo_analytics', deltas: [delta('ADD', 'ann@example.com', 'datalens.collections.viewer')] });
    expect(op).toMatchObject({ id: expect.any(String), done: true, metadata: { collectionId: 'col_demo_analytics' }, createdAt: { seconds: expect.any(String) } });
    await ok('updateWorkbookAccessBindings', {
      workbookId: 'wb_demo_marketing',
      deltas: [delta('ADD', 'bob@example.com', 'datalens.workbooks.editor'), delta('ADD', 'cat@example.com', 'datalens.workbooks.viewer'), delta('REMOVE', 'cat@example.com', 'datalens.workbooks.viewer')],
    });
    const own = await ok('listWorkbookAccessBindings', { workbookId: 'wb_demo_marketing' });
    expect(own).toEqual({
      subjectsWithBindings: [{ subjectClaims: { sub: 'bob@example.com', subType: 'USER_ACCOUNT', email: 'bob@example.com' }, accessBindings: [{ roleId: 'datalens.workbooks.editor', inheritedFrom: null }], inheritedAccessBindings: [] }],
      nextPageToken: '',
    });
    const withInherited = await ok('listWorkbookAccessBindings', { workbookId: 'wb_demo_marketing', getInheritedBindings: true });
    expect(withInherited.subjectsWithBindings).toContainEqual({
      subjectClaims: { sub: 'ann@example.com', subType: 'USER_ACCOUNT', email: 'ann@example.com' },
      accessBindings: [],
      inheritedAccessBindings: [{ roleId: 'datalens.collections.viewer', inheritedFrom: { type: 'collection', id: 'col_demo_analytics' } }],
    });
    expect((await ok('listCollectionAccessBindings', { collectionId: 'col_demo_analytics' })).subjectsWithBindings).toHaveLength(1);
    expect(await ok('listSharedEntryAccessBindings', { entryId: 'ent_demo_01' })).toEqual({ subjectsWithBindings: [], nextPageToken: '' });
    expect((await rpc('listWorkbookAccessBindings', { workbookId: 'wb_nope' })).status).toBe(404);
  });
});

describe('entries and folders', () => {
  it('create a folder, list it with breadcrumbs, rename an entry in it, and refuse a duplicate folder', async () => {
    const root = `nav-${Date.now()}`;
    const folder = await ok('createFolder', { key: `${root}/reports` });
    expect(folder).toMatchObject({ key: `${root}/reports/`, scope: 'folder', type: '', workbookId: null, version: null });
    expect((await rpc('createFolder', { key: `${root}/reports/` })).status).toBe(400);
    const dash = await ok('createDashboard', { entry: { key: `${root}/reports/Sales`, data: dashData('Board'), meta: {} } });
    const top = await ok('listDirectory', { path: root });
    expect(top.entries.map((e: { name: string; scope: string }) => [e.name, e.scope])).toEqual([['reports', 'folder']]);
    const inside = await ok('listDirectory', { path: `${root}/reports/`, includePermissionsInfo: true });
    expect(inside.breadCrumbs.map((b: { path: string }) => b.path)).toEqual([`${root}/`, `${root}/reports/`]);
    expect(inside.breadCrumbs[1].entryId).toBe(folder.entryId);
    expect(inside.entries).toEqual([expect.objectContaining({ entryId: dash.entry.entryId, name: 'Sales', permissions: expect.any(Object) })]);
    expect(inside.hasNextPage).toBe(false);
    const renamed = await ok('renameEntry', { entryId: dash.entry.entryId, name: 'Revenue' });
    expect(renamed).toEqual([expect.objectContaining({ entryId: dash.entry.entryId, key: `${root}/reports/Revenue`, scope: 'dash' })]);
    expect((await ok('listDirectory', { path: `${root}/reports/`, filters: { name: 'rev' } })).entries).toHaveLength(1);
    expect((await rpc('renameEntry', { entryId: dash.entry.entryId, name: 'a/b' })).status).toBe(400);
  });

  it('answer permissions per entry, and in bulk for entries, workbooks and collections', async () => {
    expect(await ok('getEntriesPermissions', { entryIds: ['ent_demo_02', 'ent_nope'] })).toEqual({
      ent_demo_02: { permissions: { execute: true, read: true, edit: true, admin: true } },
      ent_nope: { error: 'NOT_FOUND' },
    });
    const bulk = await ok('getPermissionsBulk', { entryIds: ['ent_demo_02'], workbookIds: ['wb_nope'], collectionIds: ['col_demo_analytics'] });
    expect(bulk.entries.ent_demo_02.fullPermissions).toMatchObject({ createEntryBinding: true, view: true });
    expect(bulk.workbooks).toEqual({ wb_nope: { error: 'NOT_FOUND' } });
    expect(bulk.collections.col_demo_analytics.permissions).toMatchObject({ view: true });
    expect((await rpc('getPermissionsBulk', { entryIds: ['e'], extra: true })).status).toBe(400);
  });
});
