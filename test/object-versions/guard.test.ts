// DataLens's rule (objects.olderClients: refuse-newer), every object kind through a real gateway in front of the
// reference backend: an object a version-1 client saved is served at version 1; once the web UI saves it (under the
// head version), a version-1 read gets 409 from the gateway and a version-1 write or delete is refused by the backend
// with nothing overwritten. The default rule (lossless) is lossless.test.ts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../helpers/calendar.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';
import { stampAt } from '../helpers/head-body.js';
import { HEAD_HEADER, KINDS, asWebUi as asWebUiAt, shows, type Body } from './kinds.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ config: { objects: { olderClients: 'refuse-newer' } } });
});
const asWebUi = (method: string, body: Body) => asWebUiAt(stack.backendUrl, method, body);
afterAll(() => stack.close());

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
