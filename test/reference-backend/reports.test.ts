import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../helpers/calendar.js';
import { REPORT_CONTENT, REPORT_DESCRIPTION, rpc, start, type Started } from './helpers.js';

/** The report content field, by its head-version name. */
const C = REPORT_CONTENT;
/** The report description field, by its head-version name. */
const D = REPORT_DESCRIPTION;

let s: Started;
beforeAll(async () => {
  s = await start({ seed: { workbooks: [{ workbookId: 'wb_a', title: 'A' }, { workbookId: 'wb_b', title: 'B' }] } });
});
afterAll(() => s.backend.close());

const create = async (clientVersion?: number, extra: Record<string, unknown> = {}) => {
  const r = await rpc(s.url, 'createReport', { workbookId: 'wb_a', [C]: { chart: 'bar' }, ...extra }, { clientVersion });
  expect(r.status).toBe(200);
  return r.body;
};

describe('reports', () => {
  it('creates a report and reads it back', async () => {
    const created = await create(undefined, { [D]: 'Q1', legacyKey: 'reports/q1' });
    expect(created).toMatchObject({ workbookId: 'wb_a', [C]: { chart: 'bar' }, [D]: 'Q1', legacyKey: 'reports/q1', version: HEAD });
    expect(created.id).toMatch(/^rep_[0-9a-f]{16}$/);
    expect(Date.parse(created.createdAt)).not.toBeNaN();
    expect(created.updatedAt).toBe(created.createdAt);
    const read = await rpc(s.url, 'getReport', { reportId: created.id });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
  });

  it('defaults the description to an empty string and omits an absent legacyKey', async () => {
    const created = await create();
    expect(created[D]).toBe('');
    expect('legacyKey' in created).toBe(false);
  });

  it('stamps the version from x-dl-client-api-version and as the web UI without it', async () => {
    expect((await create(1)).version).toBe(1);
    expect((await create(2)).version).toBe(2);
    expect((await create()).version).toBe(HEAD);
  });

  it('updates a report by merging the given fields and stamping the version', async () => {
    const created = await create(1, { legacyKey: 'reports/old' });
    const updated = await rpc(s.url, 'updateReport', { reportId: created.id, [D]: 'new', workbookId: 'wb_b' }, { clientVersion: 1 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.id, workbookId: 'wb_b', [C]: { chart: 'bar' }, [D]: 'new', legacyKey: 'reports/old', version: 1 });
    const byWebUi = await rpc(s.url, 'updateReport', { reportId: created.id, [C]: { chart: 'pie' } });
    expect(byWebUi.body).toMatchObject({ [C]: { chart: 'pie' }, [D]: 'new', version: HEAD });
    expect((await rpc(s.url, 'getReport', { reportId: created.id })).body).toEqual(byWebUi.body);
  });

  it('deletes a report, after which it is not found', async () => {
    const created = await create();
    const deleted = await rpc(s.url, 'deleteReport', { reportId: created.id });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ reportId: created.id, deleted: true });
    const gone = await rpc(s.url, 'getReport', { reportId: created.id });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 'NOT_FOUND', details: { reportId: created.id } });
    expect((await rpc(s.url, 'deleteReport', { reportId: created.id })).status).toBe(404);
  });

  it('refuses an update to an unknown workbook without applying any of its other fields', async () => {
    const created = await create();
    const r = await rpc(s.url, 'updateReport', { reportId: created.id, workbookId: 'wb_missing', [D]: 'partial' });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'NOT_FOUND', details: { workbookId: 'wb_missing' } });
    expect((await rpc(s.url, 'getReport', { reportId: created.id })).body).toEqual(created);
  });

  it('refuses to create a report in a workbook that does not exist', async () => {
    const r = await rpc(s.url, 'createReport', { workbookId: 'wb_missing', [C]: {} });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'NOT_FOUND', details: { workbookId: 'wb_missing' } });
  });

  it('refuses a v1-shaped body that still carries key instead of workbookId', async () => {
    const r = await rpc(s.url, 'createReport', { key: 'reports/q1', [C]: {} });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
    expect(r.body.details.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'workbookId' }), expect.objectContaining({ path: 'key' })]),
    );
  });

  it('refuses a content that is not a JSON object', async () => {
    const r = await rpc(s.url, 'createReport', { workbookId: 'wb_a', [C]: [1, 2] });
    expect(r.status).toBe(400);
    expect(r.body.details.issues).toEqual([expect.objectContaining({ path: C })]);
  });
});

describe('the object version guard', () => {
  it('refuses a v1 update of a report saved at the head with 409 and leaves the report unchanged', async () => {
    const created = await create();
    const r = await rpc(s.url, 'updateReport', { reportId: created.id, [D]: 'overwrite', workbookId: 'wb_b' }, { clientVersion: 1 });
    expect(r.status).toBe(409);
    expect(r.headers.get('content-type')).toBe('application/problem+json');
    expect(r.body).toMatchObject({
      code: 'UNSUPPORTED_OBJECT_VERSION',
      status: 409,
      details: { objectId: created.id, objectVersion: HEAD, requestedVersion: 1, minVersion: HEAD },
    });
    expect((await rpc(s.url, 'getReport', { reportId: created.id })).body).toEqual(created);
  });

  it('refuses a v1 delete of a report saved at v2 with 409 and keeps the report', async () => {
    const created = await create(2);
    const r = await rpc(s.url, 'deleteReport', { reportId: created.id }, { clientVersion: 1 });
    expect(r.status).toBe(409);
    expect(r.body.details).toEqual({ objectId: created.id, objectVersion: 2, requestedVersion: 1, minVersion: 2 });
    expect((await rpc(s.url, 'getReport', { reportId: created.id })).body).toEqual(created);
  });

  it('lets a v1 client read a report saved at the head (reads are the gateway’s to refuse)', async () => {
    const created = await create();
    const r = await rpc(s.url, 'getReport', { reportId: created.id }, { clientVersion: 1 });
    expect(r.status).toBe(200);
    expect(r.body.version).toBe(HEAD);
  });

  it('refuses a v1 write once the web UI has saved the report, even though v1 created it', async () => {
    const created = await create(1);
    expect((await rpc(s.url, 'updateReport', { reportId: created.id, [D]: 'ui' })).body.version).toBe(HEAD);
    const r = await rpc(s.url, 'updateReport', { reportId: created.id, [D]: 'v1' }, { clientVersion: 1 });
    expect(r.status).toBe(409);
    expect((await rpc(s.url, 'getReport', { reportId: created.id })).body[D]).toBe('ui');
  });

  it('never lets a racing v1 write overwrite a web-UI save', async () => {
    const created = await create(1);
    const results = await Promise.all([
      rpc(s.url, 'updateReport', { reportId: created.id, [D]: 'ui' }),
      ...Array.from({ length: 10 }, () => rpc(s.url, 'updateReport', { reportId: created.id, [D]: 'v1' }, { clientVersion: 1 })),
    ]);
    const final = (await rpc(s.url, 'getReport', { reportId: created.id })).body;
    // Whatever the interleaving, once the web UI's save landed no v1 write succeeded after it.
    expect(final).toMatchObject({ [D]: 'ui', version: HEAD });
    for (const r of results.slice(1)) expect([200, 409]).toContain(r.status);
  });
});
