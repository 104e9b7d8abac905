// Every object kind through a real gateway in front of the reference backend: an object a version-1 client saved
// is served at version 1; once the web UI saves it (under the head version), a version-1 read gets 409 from the gateway and
// a version-1 write or delete is refused by the backend with nothing overwritten.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../helpers/calendar.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';
import { stampAt, upToHead } from '../helpers/head-body.js';

const HEAD_HEADER = String(HEAD);

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

type Body = Record<string, unknown>;

/**
 * As the web UI: straight to the backend at the head version, without x-dl-client-api-version. The body is the
 * version-1 write translated up by the contract, so the test speaks whatever shape the head gives the kind.
 */
const asWebUi = async (method: string, body: Body) => rpc(stack.backendUrl, method, (await upToHead(method, 1, body)) as Body, HEAD_HEADER);
/** Whether a read at the head shows `marker` anywhere (the head's shape of a kind may move its content). */
const shows = (read: unknown, marker: string) => JSON.stringify(read).includes(JSON.stringify(marker));

interface Kind {
  readonly kind: string;
  readonly type: string;
  readonly create: readonly [string, Body];
  readonly idOf: (created: any) => string;
  readonly read: (id: string) => readonly [string, Body];
  /** A write that changes what `contentOf` shows to `marker`. */
  readonly write: (id: string, marker: string) => readonly [string, Body];
  readonly remove: (id: string) => readonly [string, Body];
  readonly contentOf: (read: any) => unknown;
}

// Dashboard data as the real schema wants it (datalens-ui src/shared/zod-schemas/dash.ts); create omits schemeVersion.
const settings = { autoupdateInterval: null, maxConcurrentRequests: null, silentLoading: false, dependentSelectors: true, hideTabs: false, expandTOC: false };
const dashData = (title: string) => ({ counter: 1, salt: 's', tabs: [{ id: 't', title, items: [], layout: [], connections: [], aliases: {} }], settings });

const KINDS: Kind[] = [
  {
    kind: 'dashboard',
    type: 'dashboard',
    create: ['createDashboard', { entry: { workbookId: 'wb_demo_sandbox', name: 'Guarded dash', data: dashData('v1'), meta: {} } }],
    idOf: (c) => c.entry.entryId,
    read: (id) => ['getDashboard', { dashboardId: id }],
    write: (id, marker) => ['updateDashboard', { mode: 'publish', entry: { entryId: id, data: { ...dashData(marker), schemeVersion: 8 }, meta: {} } }],
    remove: (id) => ['deleteDashboard', { dashboardId: id }],
    contentOf: (r) => r.entry.data.tabs[0].title,
  },
  ...(['Wizard', 'QL'] as const).map((k): Kind => {
    const template = k === 'QL' ? 'ql' : 'datalens';
    // A Wizard config names its visualization (version 3's document requires one); the marker is the chart's title.
    const data = (marker: string) => (k === 'QL' ? { marker } : { visualization: { id: 'line' }, extraSettings: { title: marker } });
    return {
      kind: `${k} chart`,
      type: 'chart',
      create: [`create${k}Chart`, { template, workbookId: 'wb_demo_sandbox', name: `Guarded ${k}`, data: data('v1') }],
      idOf: (c) => c.entryId,
      read: (id) => [`get${k}Chart`, { chartId: id }],
      write: (id, marker) => [`update${k}Chart`, { entryId: id, mode: 'publish', template, data: data(marker) }],
      remove: (id) => [`delete${k}Chart`, { chartId: id }],
      contentOf: (r) => (k === 'QL' ? r.data.marker : r.data.extraSettings.title),
    };
  }),
  {
    kind: 'dataset',
    type: 'dataset',
    create: ['createDataset', { name: 'Guarded dataset', workbook_id: 'wb_demo_sandbox', dataset: { description: 'v1' } }],
    idOf: (c) => c.id,
    read: (id) => ['getDataset', { datasetId: id }],
    write: (id, marker) => ['updateDataset', { datasetId: id, data: { dataset: { description: marker } } }],
    remove: (id) => ['deleteDataset', { datasetId: id }],
    contentOf: (r) => r.dataset.description,
  },
  {
    kind: 'connection',
    type: 'connection',
    create: ['createConnection', { type: 'clickhouse', name: 'Guarded connection', workbook_id: 'wb_demo_sandbox', host: 'v1' }],
    idOf: (c) => c.id,
    read: (id) => ['getConnection', { connectionId: id }],
    write: (id, marker) => ['updateConnection', { connectionId: id, data: { host: marker } }],
    remove: (id) => ['deleteConnection', { connectionId: id }],
    contentOf: (r) => r.host,
  },
  {
    kind: 'workbook',
    type: 'workbook',
    create: ['createWorkbook', { title: 'v1', collectionId: null }],
    idOf: (c) => c.workbookId,
    read: (id) => ['getWorkbook', { workbookId: id }],
    write: (id, marker) => ['updateWorkbook', { workbookId: id, title: marker }],
    remove: (id) => ['deleteWorkbook', { workbookId: id }],
    contentOf: (r) => r.title,
  },
  {
    kind: 'collection',
    type: 'collection',
    create: ['createCollection', { title: 'v1', parentId: null }],
    idOf: (c) => c.collectionId,
    read: (id) => ['getCollection', { collectionId: id }],
    write: (id, marker) => ['updateCollection', { collectionId: id, title: marker }],
    remove: (id) => ['deleteCollection', { collectionId: id }],
    contentOf: (r) => r.title,
  },
  {
    kind: 'report',
    type: 'report',
    // The marker is the description: a field every version names alike (a newer head may rename `config`).
    create: ['createReport', { key: 'reports/marketing/guarded', config: {}, description: 'v1' }],
    idOf: (c) => c.id,
    read: (id) => ['getReport', { reportId: id }],
    write: (id, marker) => ['updateReport', { reportId: id, description: marker }],
    remove: (id) => ['deleteReport', { reportId: id }],
    contentOf: (r) => r.description,
  },
];

describe.each(KINDS)('$kind', (k) => {
  let id: string;
  beforeAll(async () => {
    const [method, body] = k.create;
    const created = await rpc(stack.url, method, body, '1');
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    id = k.idOf(created.body);
  });

  it('is saved under version 1 by a version-1 client and served back at version 1', async () => {
    const r = await rpc(stack.url, ...k.read(id), '1');
    expect(r.status).toBe(200);
    expect(k.contentOf(r.body)).toBe('v1');
    expect(stampAt(1, k.read(id)[0], r.body)).toBe(1);
    const head = await rpc(stack.url, ...k.read(id), HEAD_HEADER);
    expect(stampAt(HEAD, k.read(id)[0], head.body)).toBe(1);
  });

  it('once the web UI saves it, a version-1 read is refused with 409 and the object named', async () => {
    const saved = await asWebUi(...k.write(id, 'web'));
    expect(saved.status).toBe(200);
    const r = await rpc(stack.url, ...k.read(id), '1');
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      code: 'UNSUPPORTED_OBJECT_VERSION',
      details: { objectType: k.type, objectId: id, objectVersion: HEAD, requestedVersion: 1, minVersion: HEAD },
    });
    const latest = await rpc(stack.url, ...k.read(id), 'latest');
    expect(latest.status).toBe(200);
    expect(shows(latest.body, 'web')).toBe(true);
    expect(stampAt(HEAD, k.read(id)[0], latest.body)).toBe(HEAD);
  });

  it('a version-1 write is refused and overwrites nothing', async () => {
    const r = await rpc(stack.url, ...k.write(id, 'old client'), '1');
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'UNSUPPORTED_OBJECT_VERSION', details: { objectId: id, objectVersion: HEAD, requestedVersion: 1 } });
    const after = (await rpc(stack.url, ...k.read(id), HEAD_HEADER)).body;
    expect(shows(after, 'web')).toBe(true);
    expect(shows(after, 'old client')).toBe(false);
  });

  it('a version-1 delete is refused and the object stays; the head may delete it', async () => {
    expect((await rpc(stack.url, ...k.remove(id), '1')).status).toBe(409);
    expect((await rpc(stack.url, ...k.read(id), HEAD_HEADER)).status).toBe(200);
    expect((await rpc(stack.url, ...k.remove(id), HEAD_HEADER)).status).toBe(200);
    expect((await rpc(stack.url, ...k.read(id), HEAD_HEADER)).status).toBe(404);
  });
});

describe('lists at version 1', () => {
  it('serve a row saved under the head as a reference (its version shown), not refused and not left out', async () => {
    const r = await rpc(stack.url, 'getEntries', { ids: ['ent_demo_01', 'ent_demo_05'] }, '1');
    expect(r.status).toBe(200);
    expect(r.body.entries.map((e: { entryId: string; version: number }) => [e.entryId, e.version])).toEqual([
      ['ent_demo_01', HEAD],
      ['ent_demo_05', 1],
    ]);
    const inWorkbook = await rpc(stack.url, 'getWorkbookEntries', { workbookId: 'wb_demo_marketing' }, '1');
    expect(inWorkbook.status).toBe(200);
    expect(inWorkbook.body.entries.some((e: { version: number }) => e.version === HEAD)).toBe(true);
  });

  it('refuse a named set of objects when one of them is newer (getWorkbooksByIds is a read of each)', async () => {
    const old = await rpc(stack.url, 'createWorkbook', { title: 'Old one' }, '1');
    const r = await rpc(stack.url, 'getWorkbooksByIds', { workbookIds: [old.body.workbookId, 'wb_demo_sales'] }, '1');
    expect(r.status).toBe(409);
    expect(r.body.details).toMatchObject({ objectType: 'workbook', objectId: 'wb_demo_sales' });
    expect((await rpc(stack.url, 'getWorkbooksByIds', { workbookIds: [old.body.workbookId] }, '1')).status).toBe(200);
  });
});

describe('the demo seed at version 1', () => {
  it('refuses the web-UI-saved demo dashboard, chart, dataset and connection, and serves them at the head', async () => {
    for (const [method, body] of [
      ['getDashboard', { dashboardId: 'ent_demo_01' }],
      ['getWizardChart', { chartId: 'ent_demo_02' }],
      ['getDataset', { datasetId: 'ent_demo_03' }],
      ['getConnection', { connectionId: 'ent_demo_04' }],
      ['getCollection', { collectionId: 'col_demo_analytics' }],
    ] as const) {
      expect((await rpc(stack.url, method, body, '1')).status, method).toBe(409);
      expect((await rpc(stack.url, method, body, HEAD_HEADER)).status, method).toBe(200);
    }
  });
});
