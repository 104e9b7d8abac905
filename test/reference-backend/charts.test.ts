import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED } from '../../src/reference-backend/index.js';
import { rpc, start, type Started } from './helpers.js';
import { HEAD } from '../helpers/calendar.js';

let s: Started;
beforeAll(async () => {
  s = await start({ seed: DEMO_SEED });
});
afterAll(() => s.backend.close());

// Each kind: how it is created, updated and read (Wizard and QL take flat arguments; Editor nests them in `entry`
// and answers `{entry}`). Bodies follow the real argument schemas (Editor: the DataLens API reference). `stamp`:
// where the answer carries the API version the chart was saved under (Editor's `version` is its format version, 1).
const editorData = (marker: string) => ({ meta: marker, params: '{}', sources: '{}', controls: '{}', prepare: '', config: '{}' });
const unwrap = (body: any) => body.entry ?? body;
/** The demo seed's connection in wb_demo_sandbox. */
const QL_CONNECTION = 'ent_demo_24';
const KINDS = [
  {
    // From version 3 on: the Wizard document (WizardV1ConfigSchema), `chartId` on update, answers `{entry}` stamped in `apiVersion`.
    kind: 'Wizard',
    type: 'graph_wizard_node',
    demo: 'ent_demo_02',
    stamp: 'apiVersion',
    data: (marker: string) => ({ sources: { datasetsIds: [] }, visualization: { type: 'line', chartSettings: { title: marker } } }),
    create: (f: Record<string, unknown>) => ({ ...f }),
    update: ({ entryId, ...f }: Record<string, unknown>) => ({ chartId: entryId, mode: 'publish', ...f }),
  },
  {
    kind: 'QL',
    type: 'graph_ql_node',
    demo: 'ent_demo_07',
    stamp: 'version',
    // QL data names its connection (the demo one in the sandbox): the real charts engine refuses it without one.
    data: (marker: string) => ({ marker, connection: { entryId: QL_CONNECTION, type: 'clickhouse' } }),
    create: (f: Record<string, unknown>) => ({ template: 'ql', ...f }),
    update: (f: Record<string, unknown>) => ({ template: 'ql', mode: 'publish', ...f }),
  },
  {
    kind: 'Editor',
    type: 'graph_node',
    demo: 'ent_demo_12',
    stamp: 'apiVersion',
    data: editorData,
    create: (f: Record<string, unknown>) => ({ mode: 'publish', entry: { annotation: { description: '' }, ...f } }),
    update: (f: Record<string, unknown>) => ({ mode: 'publish', entry: { annotation: { description: '' }, type: 'graph_node', revId: 'ignored', ...f } }),
  },
] as const;

describe.each(KINDS)('$kind charts', ({ kind, type, demo, stamp, data, create, update }) => {
  it('serves the demo chart as a US entry', async () => {
    const r = await rpc(s.url, `get${kind}Chart`, { chartId: demo, includePermissions: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ isFavorite: false, permissions: { read: true } });
    expect(unwrap(r.body)).toMatchObject({ entryId: demo, scope: 'widget', type, [stamp]: HEAD });
    if (stamp !== 'version') expect(unwrap(r.body).version).toBe(1);
    expect(Object.keys(unwrap(r.body))).toEqual(expect.arrayContaining(['revId', 'savedId', 'publishedId', 'data', 'meta', 'links', 'tenantId']));
  });

  it('creates, updates and deletes a chart, stamping each write’s version', async () => {
    const created = await rpc(s.url, `create${kind}Chart`, create({ workbookId: 'wb_demo_sandbox', name: `${kind} new`, type, data: data('one') }), { clientVersion: 1 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const chart = unwrap(created.body);
    expect(chart).toMatchObject({ type, workbookId: 'wb_demo_sandbox', data: data('one'), [stamp]: 1, createdBy: 'api' });
    const updated = await rpc(s.url, `update${kind}Chart`, update({ entryId: chart.entryId, data: data('two') }), { clientVersion: 1 });
    expect(unwrap(updated.body)).toMatchObject({ data: data('two'), [stamp]: 1 });
    expect(unwrap(updated.body).revId).not.toBe(chart.revId);
    expect((await rpc(s.url, `delete${kind}Chart`, { chartId: chart.entryId }, { clientVersion: 1 })).body).toEqual({});
    expect((await rpc(s.url, `get${kind}Chart`, { chartId: chart.entryId })).status).toBe(404);
  });

  it('refuses a type of another chart kind, and does not serve another kind’s chart', async () => {
    const wrong = kind === 'Wizard' ? 'graph_ql_node' : 'graph_wizard_node';
    expect((await rpc(s.url, `create${kind}Chart`, create({ key: 'x/y', type: wrong, data: data('x') }))).status).toBe(400);
    const other = KINDS.find((k) => k.kind !== kind)!.demo;
    expect((await rpc(s.url, `get${kind}Chart`, { chartId: other })).status).toBe(404);
  });

  it('refuses a version-1 update or delete of a chart saved under the head version, leaving it as it was', async () => {
    const before = (await rpc(s.url, `get${kind}Chart`, { chartId: demo })).body;
    const r = await rpc(s.url, `update${kind}Chart`, update({ entryId: demo, data: data('old client') }), { clientVersion: 1 });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'UNSUPPORTED_OBJECT_VERSION', details: { objectId: demo, objectVersion: HEAD } });
    expect((await rpc(s.url, `delete${kind}Chart`, { chartId: demo }, { clientVersion: 1 })).status).toBe(409);
    expect((await rpc(s.url, `get${kind}Chart`, { chartId: demo })).body).toEqual(before);
  });
});

// The real charts engine reads data.connection.entryId on every QL write (its ql-chart-template identifyLinks) and
// answers 400 without it (recorded: ../shared/reference/datalens-oss-v1-recordings.json, the first createQLChart).
describe('QL chart data without a connection', () => {
  const ql = (marker: string, connection?: unknown) => ({ marker, ...(connection !== undefined && { connection }) });
  const refused = (r: { status: number; body: any }) => {
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'data.connection.entryId' }] } });
  };

  it.each([
    ['no connection', undefined],
    ['a null connection', null],
    ['a connection without entryId', { type: 'clickhouse' }],
    ['an empty entryId', { entryId: '' }],
  ])('is refused on create: %s', async (_, connection) => {
    refused(await rpc(s.url, 'createQLChart', { template: 'ql', workbookId: 'wb_demo_sandbox', name: 'QL no connection', data: ql('x', connection) }, { clientVersion: 1 }));
    const listed = await rpc(s.url, 'getWorkbookEntries', { workbookId: 'wb_demo_sandbox', pageSize: 100 });
    expect(JSON.stringify(listed.body)).not.toContain('QL no connection');
  });

  it('is refused on update, before the chart is looked up, and the chart stays as it was', async () => {
    const created = await rpc(s.url, 'createQLChart', { template: 'ql', workbookId: 'wb_demo_sandbox', name: 'QL kept', data: ql('one', { entryId: QL_CONNECTION }) }, { clientVersion: 1 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const before = (await rpc(s.url, 'getQLChart', { chartId: created.body.entryId })).body;
    refused(await rpc(s.url, 'updateQLChart', { template: 'ql', mode: 'publish', entryId: created.body.entryId, data: ql('two') }, { clientVersion: 1 }));
    expect((await rpc(s.url, 'getQLChart', { chartId: created.body.entryId })).body).toEqual(before);
    refused(await rpc(s.url, 'updateQLChart', { template: 'ql', mode: 'publish', entryId: 'ent_no_such_chart', data: ql('two') }, { clientVersion: 1 }));
  });

  it('links the connection a chart names, as real DataLens does', async () => {
    const created = await rpc(s.url, 'createQLChart', { template: 'ql', workbookId: 'wb_demo_sandbox', name: 'QL linked', data: ql('one', { entryId: QL_CONNECTION }) }, { clientVersion: 1 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((await rpc(s.url, 'getQLChart', { chartId: created.body.entryId, includeLinks: true })).body.links).toEqual({ connection: QL_CONNECTION });
  });
});
