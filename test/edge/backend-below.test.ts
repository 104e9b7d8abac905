// A gateway in front of a backend at an older version (upstream.apiVersion: 1 or 2; the reference backend speaking
// it): version 3 calls go down to the backend's version and their answers come back up, parsing with version 3's
// answer schemas; methods the backend cannot serve are refused and left out of the documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedContract } from '../../src/contract/index.js';
import { loadContract, methodAt } from '../../src/core/contract-model/load.js';
import { oldDashboardData } from '../helpers/old-dashboard.js';
import { upToHead } from '../helpers/head-body.js';
import { startStack, type Stack } from '../helpers/stack.js';

type Json = Record<string, any>;
const loaded = loadContract(shippedContract);
const HEAD = loaded.head;
const DATASET = 'ds_demo_orders';
const SANDBOX = 'wb_demo_sandbox';

/** The answer parses with the head version's answer schema for `method`. */
function expectHeadShape(method: string, body: unknown): void {
  const parsed = methodAt(loaded, HEAD, method)!.response.safeParse(body);
  expect(parsed.success, `${method}: ${JSON.stringify(parsed.error?.issues?.slice(0, 3))}`).toBe(true);
}

const dashData = (n: number): Json =>
  oldDashboardData(
    [
      { id: 'title1', namespace: 'default', type: 'title', data: { text: 'Sales', size: 'l', showInTOC: true, textColor: '#112233', background: { color: '#FFEEDD' } } },
      { id: 'text1', namespace: 'default', type: 'text', data: { text: 'Notes', background: { color: '#000000' } } },
    ],
    { counter: 2, salt: `salt-${n}`, description: `about dashboard ${n}` },
  );

for (const backend of [1, 2]) {
  describe(`a version ${HEAD} client in front of a backend at version ${backend}`, () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack({ backendApiVersion: backend });
    });
    afterAll(async () => {
      await stack?.close();
    });

    const call = async (method: string, body: Json, version = HEAD): Promise<{ status: number; body: Json; headers: Headers }> => {
      const res = await fetch(`${stack.url}/rpc/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dl-api-version': String(version) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
    };

    it('says the backend version in /versions and /readyz, and forwards x-dl-api-version: b', async () => {
      const versions = (await (await fetch(`${stack.url}/versions`)).json()) as Json;
      expect(versions.backend).toEqual({ kind: 'rpc', apiVersion: backend });
      // The head's reference page says its calls are translated; a page at the backend's own version says nothing.
      expect(await (await fetch(`${stack.url}/${HEAD}/`)).text()).toContain(`Served by a backend that speaks API version ${backend}; calls at ${HEAD} are translated down`);
      expect(await (await fetch(`${stack.url}/${backend}/`)).text()).not.toContain('dlgw-backend');
      const ready = (await (await fetch(`${stack.url}/readyz`)).json()) as Json;
      expect(ready).toEqual({ status: 'ready', backendVersion: backend });
      await call('getWorkbook', { workbookId: SANDBOX });
      const sent = stack.backend!.requests.filter((r) => r.url === '/rpc/getWorkbook').at(-1)!;
      expect(sent.headers['x-dl-api-version']).toBe(String(backend));
      expect(sent.headers['x-dl-client-api-version']).toBe(String(backend));
    });

    it('creates and reads a workbook', async () => {
      const created = await call('createWorkbook', { title: `wb-${backend}-${Date.now()}` });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expectHeadShape('createWorkbook', created.body);
      const read = await call('getWorkbook', { workbookId: created.body.workbookId });
      expect(read.status).toBe(200);
      expectHeadShape('getWorkbook', read.body);
      expect(read.body.title).toBe(created.body.title);
    });

    it('pages getEntries by the tokens it gives, each page the next', async () => {
      const seen: string[] = [];
      let token: string | undefined;
      for (let i = 0; i < 4; i++) {
        const page = await call('getEntries', { pageSize: 5, ...(token && { pageToken: token }) });
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        expectHeadShape('getEntries', page.body);
        seen.push(...page.body.entries.map((e: Json) => e.entryId));
        token = page.body.nextPageToken;
        if (!token) break;
      }
      expect(seen.length).toBeGreaterThan(5);
      expect(new Set(seen).size).toBe(seen.length);
      const all = await call('getEntries', { pageSize: seen.length });
      expect(all.body.entries.map((e: Json) => e.entryId)).toEqual(seen);
      if (backend === 1) {
        const foreign = await call('getEntries', { pageSize: 5, pageToken: 'not-minted-here' });
        expect(foreign.status).toBe(422);
        expect(foreign.body).toMatchObject({ code: 'VERSION_TRANSLATION_FAILED', details: { field: 'pageToken' } });
      }
    });

    it('creates, reads and updates a dashboard: what the client wrote comes back', async () => {
      const body = (await upToHead('createDashboard', 1, { entry: { workbookId: SANDBOX, name: `dash-${backend}-${Date.now()}`, data: dashData(backend), meta: {} } })) as Json;
      const created = await call('createDashboard', body);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expectHeadShape('createDashboard', created.body);
      expect(created.body.entry.data).toEqual(body.entry.data);
      const id = created.body.entry.entryId;
      const read = await call('getDashboard', { dashboardId: id });
      expect(read.status).toBe(200);
      expectHeadShape('getDashboard', read.body);
      expect(read.body.entry.data).toEqual(body.entry.data);
      expect(read.body.entry.annotation).toEqual(body.entry.annotation ?? { description: `about dashboard ${backend}` });
      const changed = (await upToHead('createDashboard', 1, { entry: { workbookId: SANDBOX, name: 'x', data: dashData(backend + 10), meta: {} } })) as Json;
      const updated = await call('updateDashboard', { entry: { entryId: id, data: changed.entry.data, meta: {} }, mode: 'save' });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expectHeadShape('updateDashboard', updated.body);
      expect((await call('getDashboard', { dashboardId: id })).body.entry.data).toEqual(changed.entry.data);
    });

    it('lists a dashboard row as the backend answers it: its annotation kept, no content made up', async () => {
      const created = await call('createDashboard', (await upToHead('createDashboard', 1, { entry: { workbookId: SANDBOX, name: `dash-row-${backend}-${Date.now()}`, data: dashData(backend), meta: {} } })) as Json);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = created.body.entry.entryId as string;
      const listed = await call('getEntries', { ids: [id] });
      expect(listed.status).toBe(200);
      expectHeadShape('getEntries', listed.body);
      const row = listed.body.entries[0] as Json;
      expect(row).not.toHaveProperty('data');
      expect(row.annotation).toEqual({ description: `about dashboard ${backend}` });
    });

    it('refuses, with the field named, a dashboard the backend version cannot carry', async () => {
      const body = (await upToHead('createDashboard', 1, { entry: { workbookId: SANDBOX, name: `dash-lossy-${backend}`, data: dashData(backend), meta: {} } })) as Json;
      const item = body.entry.data.tabs[0].items[0];
      item.data.size = { fontSize: 20, lineHeight: 24 };
      const refused = await call('createDashboard', body);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'VERSION_TRANSLATION_FAILED', details: { backendVersion: backend } });
      expect(refused.body.details.fields).toContain('entry.data.tabs.0.items.0.data.size');
    });

    it('creates and reads a Wizard chart in the document format', async () => {
      const doc = { sources: { datasetsIds: [DATASET] }, visualization: { type: 'line', x: { items: [] }, y: { items: [] } } };
      const created = await call('createWizardChart', { workbookId: SANDBOX, name: `chart-${backend}-${Date.now()}`, data: doc });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expectHeadShape('createWizardChart', created.body);
      expect(created.body.entry).toMatchObject({ version: 1, apiVersion: backend, data: doc });
      const read = await call('getWizardChart', { chartId: created.body.entry.entryId });
      expect(read.status).toBe(200);
      expectHeadShape('getWizardChart', read.body);
      expect(read.body.entry.data).toEqual(doc);
    });

    it('older clients are served as before (up to the backend, or straight through at its version)', async () => {
      const read = await call('getWorkbook', { workbookId: SANDBOX }, 1);
      expect(read.status).toBe(200);
    });

    it('reads a report saved by a version 1 client, its key resolved to its workbook', async () => {
      const read = await call('getReport', { reportId: 'rep_demo_q1' });
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expectHeadShape('getReport', read.body);
      expect(read.body).toMatchObject({ id: 'rep_demo_q1', workbookId: 'wb_demo_marketing' });
    });

    if (backend === 1) {
      it('refuses the methods a version 1 backend cannot serve, and leaves them out of the documents', async () => {
        const report = await call('createReport', { workbookId: SANDBOX, config: {} });
        expect(report.status).toBe(404);
        expect(report.body).toMatchObject({ code: 'METHOD_NOT_SERVED_BY_BACKEND', details: { method: 'createReport', backendVersion: 1, requestedVersion: HEAD } });
        const folder = await call('createFolder', { key: 'x/' });
        expect(folder.body).toMatchObject({ code: 'METHOD_NOT_SERVED_BY_BACKEND', details: { method: 'createFolder' } });
        expect(folder.body.details.reason).toMatch(/added in API version 2/);
        expect(stack.backend!.requests.some((r) => r.url === '/rpc/createFolder' || r.url === '/rpc/createReport')).toBe(false);
        const doc = (await (await fetch(`${stack.url}/${HEAD}/json/`)).json()) as Json;
        expect(doc.paths).not.toHaveProperty('/rpc/createReport');
        expect(doc.paths).not.toHaveProperty('/rpc/createFolder');
        expect(doc.paths).toHaveProperty('/rpc/getReport');
        expect(doc.paths).toHaveProperty('/rpc/getDashboard');
      });
    }
  });
}
