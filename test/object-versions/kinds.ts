// The object kinds the guard tests drive through a real gateway: how to create, read, write and delete one of each,
// and how the web UI saves one (straight to the backend at the head version).

import { HEAD } from '../helpers/calendar.js';
import { upToHead } from '../helpers/head-body.js';
import { rpc } from '../helpers/stack.js';

export const HEAD_HEADER = String(HEAD);

export type Body = Record<string, unknown>;

/**
 * As the web UI (at `backendUrl`): straight to the backend at the head version, without x-dl-client-api-version. The body is the
 * version-1 write translated up by the contract, so the test speaks whatever shape the head gives the kind.
 */
export const asWebUi = async (backendUrl: string, method: string, body: Body) => rpc(backendUrl, method, (await upToHead(method, 1, body)) as Body, HEAD_HEADER);
/** Whether a read at the head shows `marker` anywhere (the head's shape of a kind may move its content). */
export const shows = (read: unknown, marker: string) => JSON.stringify(read).includes(JSON.stringify(marker));

export interface Kind {
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
export const settings = { autoupdateInterval: null, maxConcurrentRequests: null, silentLoading: false, dependentSelectors: true, hideTabs: false, expandTOC: false };
export const dashData = (title: string) => ({ counter: 1, salt: 's', tabs: [{ id: 't', title, items: [], layout: [], connections: [], aliases: {} }], settings });

/** The demo seed's connection in wb_demo_sandbox, which QL charts name (src/reference-backend/demo-seed.ts). */
export const DEMO_SANDBOX_CONNECTION = 'ent_demo_24';

export const KINDS: Kind[] = [
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
    // QL data names its connection (the real charts engine refuses QL data without data.connection.entryId): the
    // demo connection in the sandbox.
    const data = (marker: string) =>
      k === 'QL' ? { marker, connection: { entryId: DEMO_SANDBOX_CONNECTION, type: 'clickhouse' } } : { visualization: { id: 'line' }, extraSettings: { title: marker } };
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

