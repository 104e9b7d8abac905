import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED } from '../../src/reference-backend/index.js';
import { rpc, start, type Started } from './helpers.js';

let s: Started;
beforeAll(async () => {
  s = await start({ seed: DEMO_SEED });
});
afterAll(() => s.backend.close());

// Each kind: how it is created, updated and read (Wizard and QL take flat arguments; Editor nests them in `entry`).
const KINDS = [
  { kind: 'Wizard', type: 'graph_wizard_node', demo: 'ent_demo_02', create: (f: object) => ({ template: 'datalens', ...f }), update: (f: object) => ({ template: 'datalens', mode: 'publish', ...f }) },
  { kind: 'QL', type: 'graph_ql_node', demo: 'ent_demo_07', create: (f: object) => ({ template: 'ql', ...f }), update: (f: object) => ({ template: 'ql', mode: 'publish', ...f }) },
  { kind: 'Editor', type: 'graph_node', demo: 'ent_demo_12', create: (f: object) => ({ mode: 'publish', entry: f }), update: (f: object) => ({ mode: 'publish', entry: f }) },
] as const;

describe.each(KINDS)('$kind charts', ({ kind, type, demo, create, update }) => {
  it('serves the demo chart as a US entry', async () => {
    const r = await rpc(s.url, `get${kind}Chart`, { chartId: demo, includePermissions: true });
    expect(r.status).toBe(200);
    // Editor answers hold the chart under `entry` (the public API reference); Wizard and QL answer it bare.
    const chart = kind === 'Editor' ? r.body.entry : r.body;
    expect(chart).toMatchObject({ entryId: demo, scope: 'widget', type, version: 2, isFavorite: false, permissions: { read: true } });
    expect(Object.keys(chart)).toEqual(expect.arrayContaining(['revId', 'savedId', 'publishedId', 'data', 'meta', 'links', 'tenantId']));
  });

  it('creates, updates and deletes a chart, stamping each write’s version', async () => {
    const created = await rpc(s.url, `create${kind}Chart`, create({ workbookId: 'wb_demo_sandbox', name: `${kind} new`, type, data: { v: 1 } }), { clientVersion: 1 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type, workbookId: 'wb_demo_sandbox', data: { v: 1 }, version: 1, createdBy: 'api' });
    const updated = await rpc(s.url, `update${kind}Chart`, update({ entryId: created.body.entryId, data: { v: 2 } }), { clientVersion: 1 });
    expect(updated.body).toMatchObject({ data: { v: 2 }, version: 1 });
    expect(updated.body.revId).not.toBe(created.body.revId);
    expect((await rpc(s.url, `delete${kind}Chart`, { chartId: created.body.entryId }, { clientVersion: 1 })).body).toEqual({});
    expect((await rpc(s.url, `get${kind}Chart`, { chartId: created.body.entryId })).status).toBe(404);
  });

  it('refuses a type of another chart kind, and does not serve another kind’s chart', async () => {
    const wrong = kind === 'Wizard' ? 'graph_ql_node' : 'graph_wizard_node';
    expect((await rpc(s.url, `create${kind}Chart`, create({ key: 'x/y', type: wrong, data: {} }))).status).toBe(400);
    const other = KINDS.find((k) => k.kind !== kind)!.demo;
    expect((await rpc(s.url, `get${kind}Chart`, { chartId: other })).status).toBe(404);
  });

  it('refuses a version-1 update or delete of a chart saved under version 2, leaving it as it was', async () => {
    const before = (await rpc(s.url, `get${kind}Chart`, { chartId: demo })).body;
    const r = await rpc(s.url, `update${kind}Chart`, update({ entryId: demo, data: { v: 'old client' } }), { clientVersion: 1 });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'UNSUPPORTED_OBJECT_VERSION', details: { objectId: demo, objectVersion: 2 } });
    expect((await rpc(s.url, `delete${kind}Chart`, { chartId: demo }, { clientVersion: 1 })).status).toBe(409);
    expect((await rpc(s.url, `get${kind}Chart`, { chartId: demo })).body).toEqual(before);
  });
});
