import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED } from '../../src/reference-backend/index.js';
import { rpc, start, type Started } from './helpers.js';
import { HEAD } from '../helpers/calendar.js';

let s: Started;
beforeAll(async () => {
  s = await start({ seed: DEMO_SEED });
});
afterAll(() => s.backend.close());

describe('connections', () => {
  it('serves the demo connection: its settings beside id, name and type', async () => {
    const r = await rpc(s.url, 'getConnection', { connectionId: 'ent_demo_04' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 'ent_demo_04', name: 'connection-04', type: 'clickhouse', host: 'localhost', version: HEAD });
  });

  it('never reads back a write-only setting, nor the workbook_id the real read schema does not name', async () => {
    const created = await rpc(s.url, 'createConnection', { type: 'postgres', name: 'secret-pg', workbook_id: 'wb_demo_sandbox', host: 'db', port: 5432, password: 'p4ss', ssl_ca: 'PEM' });
    const read = (await rpc(s.url, 'getConnection', { connectionId: created.body.id })).body;
    expect(read).toMatchObject({ host: 'db', port: 5432, name: 'secret-pg' });
    expect(Object.keys(read).filter((k) => ['password', 'ssl_ca', 'workbook_id'].includes(k))).toEqual([]);
  });

  it('creates a connection (answering its id), updates its settings and deletes it', async () => {
    const created = await rpc(s.url, 'createConnection', { type: 'postgres', name: 'pg', workbook_id: 'wb_demo_sandbox', host: 'db', port: 5432 }, { clientVersion: 1 });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body)).toEqual(['id']);
    const id = created.body.id;
    expect((await rpc(s.url, 'getConnection', { connectionId: id })).body).toMatchObject({ type: 'postgres', host: 'db', port: 5432, version: 1 });
    expect((await rpc(s.url, 'updateConnection', { connectionId: id, data: { port: 6432 } }, { clientVersion: 1 })).body).toEqual({});
    expect((await rpc(s.url, 'getConnection', { connectionId: id })).body).toMatchObject({ host: 'db', port: 6432 });
    expect((await rpc(s.url, 'deleteConnection', { connectionId: id }, { clientVersion: 1 })).body).toEqual({});
    expect((await rpc(s.url, 'getConnection', { connectionId: id })).status).toBe(404);
  });

  it('refuses a connection without a connector type', async () => {
    expect((await rpc(s.url, 'createConnection', { name: 'x', workbook_id: 'wb_demo_sandbox' })).status).toBe(400);
  });

  it('refuses a version-1 update or delete of a connection saved under the head version, leaving it as it was', async () => {
    const before = (await rpc(s.url, 'getConnection', { connectionId: 'ent_demo_04' })).body;
    const r = await rpc(s.url, 'updateConnection', { connectionId: 'ent_demo_04', data: { host: 'elsewhere' } }, { clientVersion: 1 });
    expect(r.status).toBe(409);
    expect(r.body.details).toMatchObject({ objectId: 'ent_demo_04', objectVersion: HEAD, requestedVersion: 1 });
    expect((await rpc(s.url, 'deleteConnection', { connectionId: 'ent_demo_04' }, { clientVersion: 1 })).status).toBe(409);
    expect((await rpc(s.url, 'getConnection', { connectionId: 'ent_demo_04' })).body).toEqual(before);
  });
});
