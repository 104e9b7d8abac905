// Dashboards across versions 1–3 through a real gateway in front of the reference backend (which speaks v3,
// DashboardV2): older clients write and read their own shape, a v3 client reads everything in the v3 shape, and a
// dashboard saved at 3 is refused to older clients, through getDashboard and through listings with content.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../../helpers/calendar.js';
import { oldDashboardData } from '../../helpers/old-dashboard.js';
import { startStack, type Stack } from '../../helpers/stack.js';

type Json = Record<string, unknown>;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function rpc(version: number, method: string, body: Json, via: 'gateway' | 'backend' = 'gateway'): Promise<{ status: number; body: Json }> {
  const base = via === 'gateway' ? stack.url : stack.backendUrl;
  const res = await fetch(`${base}/rpc/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-dl-api-version': String(version) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** A dashboard's data in the v1/v2 shape: description, schemeVersion, one colour, textColor, widgetTabId. */
const oldData = (n: number): Json =>
  oldDashboardData(
    [
      { id: 'title1', namespace: 'default', type: 'title', data: { text: 'Sales', size: 'l', showInTOC: true, textColor: '#112233', background: { color: '#FFEEDD' } } },
      { id: 'text1', namespace: 'default', type: 'text', data: { text: 'Notes', background: { color: '#000000' } } },
      { id: 'ai1', namespace: 'default', type: 'neuro_widget', data: { prompt: 'Explain', hideTitle: false, widgetTabId: 'w1' } },
    ],
    { counter: 3, salt: `salt-${n}`, description: `about dashboard ${n}` },
  );

const oldCreate = (n: number): Json => ({ entry: { workbookId: 'wb_demo_sandbox', name: `v3-dash-${n}-${Date.now()}`, data: oldData(n), meta: {} } });
const entryOf = (body: Json) => body.entry as Json;
const dataOf = (body: Json) => entryOf(body).data as Json;
const itemsOf = (data: Json) => ((data.tabs as Json[])[0]!.items as Json[]).map((i) => i.data as Json);

describe('a v2 or v1 client writes the old shape', () => {
  for (const version of [1, 2]) {
    it(`v${version}: the backend stores it in the v3 shape, and the client reads back exactly what it wrote`, async () => {
      const created = await rpc(version, 'createDashboard', oldCreate(version));
      expect(created.status).toBe(200);
      const id = entryOf(created.body).entryId as string;
      // What the backend holds, read at its own version (v3): the changelog's migrations.
      const stored = await rpc(HEAD, 'getDashboard', { dashboardId: id }, 'backend');
      expect(stored.status).toBe(200);
      expect(entryOf(stored.body).version).toBe(2);
      expect(entryOf(stored.body).apiVersion).toBe(version);
      expect(entryOf(stored.body).annotation).toEqual({ description: `about dashboard ${version}` });
      const v3 = dataOf(stored.body);
      expect(v3).not.toHaveProperty('schemeVersion');
      expect(v3).not.toHaveProperty('description');
      expect(itemsOf(v3)).toEqual([
        { text: 'Sales', size: 'l', showInTOC: true, textSettings: { color: { light: '#112233', dark: '#112233' } }, backgroundSettings: { color: { light: '#FFEEDD', dark: '#FFEEDD' } } },
        { text: 'Notes', backgroundSettings: { color: { light: '#000000', dark: '#000000' } } },
        { prompt: 'Explain', hideTitle: false, widgetTabIds: ['w1'] },
      ]);
      // The old client reads its own shape back.
      for (const answer of [created, await rpc(version, 'getDashboard', { dashboardId: id })]) {
        expect(answer.status).toBe(200);
        expect(entryOf(answer.body).version).toBe(1);
        expect(dataOf(answer.body)).toEqual(oldData(version));
      }
    });
  }

  it('v2 updateDashboard goes up in the v3 shape, and reads back what it wrote', async () => {
    const created = await rpc(2, 'createDashboard', oldCreate(20));
    const entry = entryOf(created.body);
    const changed = oldData(21);
    const updated = await rpc(2, 'updateDashboard', { entry: { entryId: entry.entryId, data: changed, meta: {} }, mode: 'save' });
    expect(updated.status).toBe(200);
    expect(dataOf(updated.body)).toEqual(changed);
    const stored = await rpc(HEAD, 'getDashboard', { dashboardId: entry.entryId }, 'backend');
    expect(entryOf(stored.body).annotation).toEqual({ description: 'about dashboard 21' });
    expect(itemsOf(dataOf(stored.body))[2]).toEqual({ prompt: 'Explain', hideTitle: false, widgetTabIds: ['w1'] });
  });
});

describe('a v3 client', () => {
  it('reads dashboards saved at 1 and 2 in the v3 shape, and the seeded one saved in the old format', async () => {
    for (const version of [1, 2]) {
      const id = entryOf((await rpc(version, 'createDashboard', oldCreate(30 + version))).body).entryId as string;
      const read = await rpc(3, 'getDashboard', { dashboardId: id });
      expect(read.status).toBe(200);
      expect(entryOf(read.body).version).toBe(2);
      expect(dataOf(read.body)).not.toHaveProperty('schemeVersion');
      expect(itemsOf(dataOf(read.body))[2]).toEqual({ prompt: 'Explain', hideTitle: false, widgetTabIds: ['w1'] });
    }
    // The seed is the web UI's, saved under the head: read at the head (a later head keeps the v3 dashboard shape or migrates it).
    const seeded = await rpc(HEAD, 'getDashboard', { dashboardId: 'ent_demo_01' });
    expect(seeded.status).toBe(200);
    expect(dataOf(seeded.body)).not.toHaveProperty('schemeVersion');
  });

  it('writes DashboardV2; an older client is refused it (409), through getDashboard and getEntries with includeData', async () => {
    const data = { ...oldData(40) };
    delete data.schemeVersion;
    delete data.description;
    (data.tabs as Json[])[0]!.items = [{ id: 'ai1', namespace: 'default', type: 'neuro_widget', data: { prompt: 'Why', hideTitle: true, widgetTabIds: ['a', 'b'] } }];
    const created = await rpc(3, 'createDashboard', { entry: { workbookId: 'wb_demo_sandbox', name: `v3-only-${Date.now()}`, data, meta: {}, annotation: { description: 'new' } } });
    expect(created.status).toBe(200);
    const id = entryOf(created.body).entryId as string;
    expect(entryOf(created.body).apiVersion).toBe(3);
    for (const version of [1, 2]) {
      const read = await rpc(version, 'getDashboard', { dashboardId: id });
      expect(read.status).toBe(409);
      expect((read.body as { details?: Json }).details).toMatchObject({ objectType: 'dashboard', objectId: id, objectVersion: 3, requestedVersion: version });
    }
    const listed = await rpc(2, 'getEntries', { ids: [id], includeData: true });
    expect(listed.status).toBe(409);
    // Without the content, the row is a reference: served.
    const reference = await rpc(2, 'getEntries', { ids: [id] });
    expect(reference.status).toBe(200);
  });

  it('refuses a dashboard without tabs, and a v2 write of one that has no tab', async () => {
    const data: Json = { ...oldData(50), tabs: [] };
    delete data.schemeVersion;
    delete data.description;
    const v3 = await rpc(3, 'createDashboard', { entry: { workbookId: 'wb_demo_sandbox', name: `no-tabs-${Date.now()}`, data, meta: {} } });
    expect(v3.status).toBe(400);
    // The v2 schema allows no tabs; version 3's backend refuses the dashboard it becomes.
    const v2 = await rpc(2, 'createDashboard', { entry: { workbookId: 'wb_demo_sandbox', name: `no-tabs-v2-${Date.now()}`, data: { ...oldData(51), tabs: [] }, meta: {} } });
    expect(v2.status).toBe(400);
    expect(JSON.stringify(v2.body)).toContain('tabs');
  });
});

describe('listings carry dashboards in each client’s shape', () => {
  it('getEntries with includeData: a v2 client reads a dashboard row in the v2 shape, a v3 client in the v3 shape', async () => {
    const id = entryOf((await rpc(2, 'createDashboard', oldCreate(60))).body).entryId as string;
    const v2 = await rpc(2, 'getEntries', { ids: [id], includeData: true });
    expect(v2.status).toBe(200);
    const row2 = (v2.body.entries as Json[])[0]!;
    const data2 = row2.data as Json;
    expect(data2.schemeVersion).toBe(8);
    expect(itemsOf(data2)[0]).toMatchObject({ textColor: '#112233', background: { color: '#FFEEDD' } });
    expect(itemsOf(data2)[2]).toEqual({ prompt: 'Explain', hideTitle: false, widgetTabId: 'w1' });
    const v3 = await rpc(3, 'getEntries', { ids: [id], includeData: true });
    expect(v3.status).toBe(200);
    const data3 = (v3.body.entries as Json[])[0]!.data as Json;
    expect(data3).not.toHaveProperty('schemeVersion');
    expect(itemsOf(data3)[2]).toEqual({ prompt: 'Explain', hideTitle: false, widgetTabIds: ['w1'] });
  });

  it('without includeData, an older client reads a dashboard row as the backend answers it: its annotation, no made-up data', async () => {
    // Real rows carry the annotation (the recorded v1 getEntries answers of datalens-ui f581b7c) and no content.
    const id = entryOf((await rpc(1, 'createDashboard', oldCreate(70))).body).entryId as string;
    const backend = await rpc(HEAD, 'getEntries', { ids: [id] }, 'backend');
    const row = (backend.body.entries as Json[])[0]!;
    expect(row.annotation).toEqual({ description: 'about dashboard 70' });
    expect(row).not.toHaveProperty('data');
    for (const version of [1, 2, 3]) {
      const listed = await rpc(version, 'getEntries', { ids: [id] });
      expect(listed.status).toBe(200);
      expect((listed.body.entries as Json[])[0]).toEqual(row);
    }
  });
});
