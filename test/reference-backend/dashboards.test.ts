import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED } from '../../src/reference-backend/index.js';
import { rpc, start, type Started } from './helpers.js';
import { HEAD } from '../helpers/calendar.js';

let s: Started;
beforeAll(async () => {
  s = await start({ seed: DEMO_SEED });
});
afterAll(() => s.backend.close());

// Dashboard data as the real schema wants it (datalens-ui src/shared/zod-schemas/dash.ts); create omits schemeVersion.
const settings = { autoupdateInterval: null, maxConcurrentRequests: null, silentLoading: false, dependentSelectors: true, hideTabs: false, expandTOC: false };
const tab = (title = 'Main') => ({ id: 't1', title, items: [], layout: [], connections: [], aliases: {} });
const newData = (title?: string) => ({ counter: 1, salt: 'test', tabs: [tab(title)], settings });
const savedData = (title?: string) => ({ ...newData(title), schemeVersion: 8 });
const createDash = async (entry: Record<string, unknown>, clientVersion?: number) => {
  const r = await rpc(s.url, 'createDashboard', { entry: { data: newData(), meta: {}, ...entry } }, { clientVersion });
  expect(r.status).toBe(200);
  return r.body.entry;
};

describe('dashboards', () => {
  it('serves the demo dashboard in the v1 dashboard format, with its link to the demo chart', async () => {
    const r = await rpc(s.url, 'getDashboard', { dashboardId: 'ent_demo_01', includePermissions: true, includeFavorite: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ isFavorite: false, permissions: { read: true }, entry: { entryId: 'ent_demo_01', scope: 'dash', version: 1, apiVersion: HEAD } });
    expect(r.body.entry.data).toMatchObject({ schemeVersion: 8, tabs: [expect.objectContaining({ title: 'Overview' })] });
    expect(r.body.entry.links).toEqual({ ent_demo_02: 'ent_demo_02' });
    expect(Object.keys(r.body.entry)).toEqual(expect.arrayContaining(['revId', 'savedId', 'publishedId', 'tenantId', 'hidden', 'public', 'meta', 'key']));
  });

  it('creates a dashboard in a workbook (key = workbook/name) and refuses a key together with a workbook', async () => {
    const entry = await createDash({ workbookId: 'wb_demo_sandbox', name: 'Fresh' }, 1);
    expect(entry).toMatchObject({ key: 'wb_demo_sandbox/Fresh', workbookId: 'wb_demo_sandbox', version: 1, apiVersion: 1, data: { schemeVersion: 8, counter: 1 } });
    const both = await rpc(s.url, 'createDashboard', { entry: { key: 'x', workbookId: 'wb_demo_sandbox', name: 'y', data: newData(), meta: {} } });
    expect(both.status).toBe(400);
  });

  it('saves a draft without publishing, and serves the published revision on request', async () => {
    const created = await createDash({ key: 'folder/drafted' });
    const saved = await rpc(s.url, 'updateDashboard', { mode: 'save', entry: { entryId: created.entryId, data: savedData('Draft'), meta: {} } });
    expect(saved.body.entry.savedId).not.toBe(saved.body.entry.publishedId);
    expect(saved.body.entry.publishedId).toBe(created.publishedId);
    const published = await rpc(s.url, 'getDashboard', { dashboardId: created.entryId, branch: 'published' });
    expect(published.body.entry.data.tabs[0].title).toBe('Main');
    const latest = await rpc(s.url, 'getDashboard', { dashboardId: created.entryId });
    expect(latest.body.entry.data.tabs[0].title).toBe('Draft');
    expect((await rpc(s.url, 'getDashboard', { dashboardId: created.entryId, revId: 'rev_missing' })).status).toBe(404);
  });

  it('does not serve a chart as a dashboard', async () => {
    expect((await rpc(s.url, 'getDashboard', { dashboardId: 'ent_demo_02' })).status).toBe(404);
  });

  it('refuses a version-1 update or delete of a dashboard saved under the head version, leaving it as it was', async () => {
    const before = (await rpc(s.url, 'getDashboard', { dashboardId: 'ent_demo_01' })).body;
    const update = await rpc(s.url, 'updateDashboard', { mode: 'publish', entry: { entryId: 'ent_demo_01', data: savedData('old client'), meta: {} } }, { clientVersion: 1 });
    expect(update.status).toBe(409);
    expect(update.body).toMatchObject({ code: 'UNSUPPORTED_OBJECT_VERSION', details: { objectId: 'ent_demo_01', objectVersion: HEAD, requestedVersion: 1, minVersion: HEAD } });
    expect((await rpc(s.url, 'deleteDashboard', { dashboardId: 'ent_demo_01' }, { clientVersion: 1 })).status).toBe(409);
    expect((await rpc(s.url, 'getDashboard', { dashboardId: 'ent_demo_01' })).body).toEqual(before);
  });

  it('lets the web UI take over a version-1 dashboard, after which version 1 may not write it', async () => {
    const created = await createDash({ key: 'folder/handover' }, 1);
    const byWebUi = await rpc(s.url, 'updateDashboard', { mode: 'publish', entry: { entryId: created.entryId, data: savedData(), meta: {} } });
    expect(byWebUi.body.entry).toMatchObject({ version: 1, apiVersion: HEAD, updatedBy: 'web-ui' });
    expect((await rpc(s.url, 'deleteDashboard', { dashboardId: created.entryId }, { clientVersion: 1 })).status).toBe(409);
    expect((await rpc(s.url, 'deleteDashboard', { dashboardId: created.entryId })).body).toEqual({});
    expect((await rpc(s.url, 'getDashboard', { dashboardId: created.entryId })).status).toBe(404);
  });
});
