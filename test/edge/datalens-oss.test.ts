// `upstream.kind: datalens-oss`: the gateway in front of open-source DataLens's UI server, reaching its internal
// routes (src/edge/datalens-oss/). Each test runs a real gateway against a tiny scripted UI server on loopback that
// records what it is sent and answers per method and path (everything else: Express's 404 "Cannot <METHOD> <path>"):
// test/helpers/fake-oss-ui.ts.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { startFakeUi, startOssStack, withOss, type FakeUi, type Seen } from '../helpers/fake-oss-ui.js';
import { rpc, type Stack } from '../helpers/stack.js';

// Ids as United Storage makes them (13 characters).
const WORKBOOK = 'w000000000001';
const COLLECTION = 'c000000000002';
const CHART = 'e000000000001';
const DASH = 'e000000000004';
const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJl-_x';

/** The cookie value open-source DataLens reads its session from. */
const sessionOf = (token: string) => encodeURIComponent(JSON.stringify({ accessToken: token }));

const workbookAnswer = {
  workbookId: WORKBOOK,
  collectionId: 'c000000000001',
  title: 'wb',
  description: 'wb',
  tenantId: 'common',
  meta: {},
  createdBy: 'systemId',
  createdAt: '2026-11-28T21:25:47.736Z',
  updatedBy: 'systemId',
  updatedAt: '2026-11-28T21:25:47.736Z',
  status: 'active',
};

const wizardData = { version: '2', visualization: { id: 'flatTable', placeholders: [] }, datasetsIds: [], datasetsPartialFields: [] };

/** The charts engine's stored entry of a Wizard chart (or another scope/type). */
const chartEntry = (entryId: string, scope = 'widget', type = 'table_wizard_node') => ({
  entryId,
  data: { shared: JSON.stringify(wizardData) },
  key: `1834512876543210987/chart ${entryId}`,
  meta: { stype: type, owner: 'uid:systemId' },
  scope,
  type,
  public: false,
  revId: 'r000000000001',
  savedId: 'r000000000001',
  publishedId: 'r000000000001',
  createdAt: '2026-11-28T21:25:47.736Z',
  createdBy: 'uid:systemId',
  updatedAt: '2026-11-28T21:25:47.736Z',
  updatedBy: 'uid:systemId',
  workbookId: WORKBOOK,
  annotation: { description: '' },
});

/** The methods added at version 2 this backend serves (routes.ts rows with `since: 2`). */
const SERVED_FROM_2 = ['renameEntry', 'createFolder', 'deleteFolder', 'getEditorChart', 'createEditorChart', 'updateEditorChart', 'deleteEditorChart'];

const paths = async (url: string, document: string): Promise<string[]> => {
  const res = await fetch(`${url}${document}`);
  expect(res.status).toBe(200);
  return Object.keys(((await res.json()) as { paths: Record<string, unknown> }).paths);
};

// ── one gateway with the default settings ──────────────────────────────────

describe('the gateway in front of open-source DataLens (default settings)', () => {
  let ui: FakeUi;
  let stack: Stack;
  beforeAll(async () => {
    ui = await startFakeUi();
    stack = await startOssStack(ui);
  });
  afterAll(async () => {
    await stack?.close();
    await ui?.close();
  });
  beforeEach(() => ui.reset());

  /** The one request the UI server got (fails when it got none or several). */
  const only = (): Seen => {
    expect(ui.seen.map((s) => `${s.method} ${s.path}`)).toHaveLength(1);
    return ui.seen[0]!;
  };

  describe('credentials and headers on the internal route', () => {
    beforeEach(() => ui.on('POST', '/gateway/root/us/getWorkbook', { status: 200, body: workbookAnswer }));

    it('turns `Authorization: Bearer <jwt>` into the auth cookie and drops the Authorization header', async () => {
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1', { authorization: `Bearer ${JWT}` });
      expect(res.status).toBe(200);
      const seen = only();
      expect(seen.headers.cookie).toBe(`auth=${sessionOf(JWT)}`);
      expect(seen.headers.authorization).toBeUndefined();
      // The cookie carries the token as JSON, URL-encoded: decoding it gives the token back.
      expect(JSON.parse(decodeURIComponent(seen.headers.cookie!.slice('auth='.length)))).toEqual({ accessToken: JWT });
    });

    it('turns `Authorization: OAuth <token>` (what the DataLens MCP server sends) into the same cookie', async () => {
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1', { authorization: 'OAuth y0_oauth-token.1' });
      expect(res.status).toBe(200);
      const seen = only();
      expect(seen.headers.cookie).toBe(`auth=${sessionOf('y0_oauth-token.1')}`);
      expect(seen.headers.authorization).toBeUndefined();
    });

    it("passes the client's own cookies with the auth cookie appended", async () => {
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1', {
        authorization: `Bearer ${JWT}`,
        cookie: 'theme=dark; lang=en',
      });
      expect(res.status).toBe(200);
      expect(only().headers.cookie).toBe(`theme=dark; lang=en; auth=${sessionOf(JWT)}`);
    });

    it("replaces a client's own cookie of the auth cookie's name with the token's", async () => {
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1', {
        authorization: `Bearer ${JWT}`,
        cookie: 'auth=stale; lang=en',
      });
      expect(res.status).toBe(200);
      expect(only().headers.cookie).toBe(`lang=en; auth=${sessionOf(JWT)}`);
    });

    it('passes a client cookie as sent when there is no Bearer token', async () => {
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1', { cookie: 'auth=from-browser' });
      expect(res.status).toBe(200);
      expect(only().headers.cookie).toBe('auth=from-browser');
    });

    it('keeps the version headers to itself: x-dl-api-version does not reach the internal route', async () => {
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1', { authorization: `Bearer ${JWT}` });
      expect(res.status).toBe(200);
      const seen = only();
      expect(seen.headers['x-dl-api-version']).toBeUndefined();
      expect(seen.headers['x-dl-client-api-version']).toBeUndefined();
      // The request id does go inside (the UI server logs it).
      expect(seen.headers['x-request-id']).toBe(res.headers.get('x-request-id'));
      expect(seen.headers['content-type']).toBe('application/json');
    });
  });

  describe('route mapping', () => {
    it('getCollectionContent → POST /gateway/root/us/getStructureItems with the same body', async () => {
      const answer = { items: [], nextPageToken: null };
      ui.on('POST', '/gateway/root/us/getStructureItems', { status: 200, body: answer });
      const body = { collectionId: COLLECTION };
      const res = await rpc(stack.url, 'getCollectionContent', body, '1');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual(answer);
      const seen = only();
      expect(seen.method).toBe('POST');
      expect(seen.path).toBe('/gateway/root/us/getStructureItems');
      expect(seen.json).toEqual(body);
    });

    it('getDashboard → POST /gateway/root/mix/getDashboardV1 with the same body', async () => {
      const dashboard = {
        entry: { ...chartEntry(DASH, 'dash', 'dash'), data: { counter: 1, salt: '0.1', schemeVersion: 8, tabs: [] } },
      };
      ui.on('POST', '/gateway/root/mix/getDashboardV1', { status: 200, body: dashboard });
      const body = { dashboardId: DASH, branch: 'saved', includeLinks: true };
      const res = await rpc(stack.url, 'getDashboard', body, '1');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual(dashboard);
      const seen = only();
      expect(`${seen.method} ${seen.path}`).toBe('POST /gateway/root/mix/getDashboardV1');
      expect(seen.json).toEqual(body);
    });

    it('createWizardChart → POST /api/charts/v1/charts with the same body, its answer passed', async () => {
      const created = chartEntry(CHART);
      ui.on('POST', '/api/charts/v1/charts', { status: 200, body: created });
      const body = { template: 'datalens', workbookId: WORKBOOK, name: 'wizard', data: wizardData };
      const res = await rpc(stack.url, 'createWizardChart', body, '1');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual(created);
      const seen = only();
      expect(`${seen.method} ${seen.path}`).toBe('POST /api/charts/v1/charts');
      expect(seen.json).toEqual(body);
    });

    it('getWizardChart {branch: saved, includeLinks} → GET /api/charts/v1/charts/<id>?unreleased=true&includeLinks=true', async () => {
      const path = `/api/charts/v1/charts/${CHART}?unreleased=true&includeLinks=true`;
      ui.on('GET', path, { status: 200, body: { ...chartEntry(CHART), data: wizardData, isFavorite: false, tenantSettings: {} } });
      const res = await rpc(stack.url, 'getWizardChart', { chartId: CHART, branch: 'saved', includeLinks: true }, '1');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const seen = only();
      expect(seen.method).toBe('GET');
      expect(seen.path).toBe(path);
      expect(seen.text).toBe('');
      // The public answer: the entry with its config parsed, the engine's own keys gone, United Storage's defaults in.
      expect(res.body).toMatchObject({ entryId: CHART, scope: 'widget', type: 'table_wizard_node', tenantId: 'common', hidden: false, meta: {} });
      expect(res.body.data).toMatchObject({ visualization: { id: 'flatTable' } });
      expect(res.body).not.toHaveProperty('tenantSettings');
      expect(res.body).not.toHaveProperty('isFavorite');
    });

    it('getQLChart → GET /api/charts/v1/charts/<id>, its `shared` config parsed into `data`', async () => {
      const ql = { type: 'ql', version: '1', chartType: 'sql', queryValue: 'select 1' };
      ui.on('GET', `/api/charts/v1/charts/${CHART}?revId=r000000000007`, {
        status: 200,
        body: { ...chartEntry(CHART, 'widget', 'table_ql_node'), data: { shared: JSON.stringify(ql) }, isFavorite: true },
      });
      const res = await rpc(stack.url, 'getQLChart', { chartId: CHART, revId: 'r000000000007', includeFavorite: true }, '1');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(only().path).toBe(`/api/charts/v1/charts/${CHART}?revId=r000000000007`);
      expect(res.body).toMatchObject({ entryId: CHART, type: 'table_ql_node', data: ql, isFavorite: true });
    });

    it('getQLChart of a Wizard chart → 404 "Entry not found"', async () => {
      ui.on('GET', `/api/charts/v1/charts/${CHART}`, { status: 200, body: { ...chartEntry(CHART), data: wizardData } });
      const res = await rpc(stack.url, 'getQLChart', { chartId: CHART }, '1');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: 404, message: 'Entry not found' });
    });

    it('getWizardChart by id alone → GET /api/charts/v1/charts/<id> without a query', async () => {
      ui.on('GET', `/api/charts/v1/charts/${CHART}`, { status: 200, body: { ...chartEntry(CHART), data: wizardData } });
      const res = await rpc(stack.url, 'getWizardChart', { chartId: CHART }, '1');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(only().path).toBe(`/api/charts/v1/charts/${CHART}`);
    });
  });

  describe('updateWizardChart: the scope check, then the charts engine', () => {
    const update = { entryId: CHART, template: 'datalens', mode: 'publish', data: wizardData };

    it('asks United Storage for the entry first, and answers 404 "No entry found" for a dashboard without saving', async () => {
      ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: chartEntry(CHART, 'dash', 'dash') });
      ui.on('POST', `/api/charts/v1/charts/${CHART}`, { status: 200, body: chartEntry(CHART) });
      const res = await rpc(stack.url, 'updateWizardChart', update, '1');
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body).toEqual({ status: 404, message: 'No entry found', requestId: res.headers.get('x-request-id') });
      const seen = only();
      expect(`${seen.method} ${seen.path}`).toBe('POST /gateway/root/us/getEntry');
      expect(seen.json).toEqual({ entryId: CHART });
    });

    it('answers 404 for a widget of another family (a QL chart) without saving', async () => {
      ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: chartEntry(CHART, 'widget', 'graph_ql_node') });
      const res = await rpc(stack.url, 'updateWizardChart', update, '1');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: 404, message: 'No entry found' });
      expect(ui.seen.map((s) => s.path)).toEqual(['/gateway/root/us/getEntry']);
    });

    it('saves a Wizard chart through POST /api/charts/v1/charts/<id> and passes its answer', async () => {
      const saved = { ...chartEntry(CHART), revId: 'r000000000002', savedId: 'r000000000002', publishedId: 'r000000000002' };
      ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: chartEntry(CHART) });
      ui.on('POST', `/api/charts/v1/charts/${CHART}`, { status: 200, body: saved });
      const res = await rpc(stack.url, 'updateWizardChart', update, '1');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual(saved);
      expect(ui.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /gateway/root/us/getEntry', `POST /api/charts/v1/charts/${CHART}`]);
      expect(ui.seen[0]!.json).toEqual({ entryId: CHART });
      expect(ui.seen[1]!.json).toEqual(update);
    });
  });

  describe('error answers: what the public controller would have said', () => {
    it('internal 500 "No entry found" (GATEWAY_REQUEST_ERROR) → 404 with the message and the request id', async () => {
      ui.on('POST', '/gateway/root/mix/getDashboardV1', { status: 500, body: { status: 500, message: 'No entry found', code: 'GATEWAY_REQUEST_ERROR' } });
      const res = await rpc(stack.url, 'getDashboard', { dashboardId: CHART }, '1');
      expect(res.status).toBe(404);
      const requestId = res.headers.get('x-request-id');
      expect(requestId).toEqual(expect.any(String));
      expect(res.body).toEqual({ status: 404, message: 'No entry found', requestId });
      expect(Object.keys(res.body)).toEqual(['status', 'message', 'requestId']);
    });

    it('internal 500 with a socket code (ECONNREFUSED) and details → 500 with the message only', async () => {
      const message = 'Произошла непредвиденная ошибка. Попробуйте обновить страницу через некоторое время.';
      ui.on('POST', '/gateway/root/bi/getConnection', {
        status: 500,
        body: { status: 500, message, code: 'ECONNREFUSED', details: { title: 'Ошибка', description: message }, requestId: 'ui-req-1' },
      });
      const res = await rpc(stack.url, 'getConnection', { connectionId: 'e000000000003' }, '1');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ status: 500, message, requestId: 'ui-req-1' });
      expect(res.body).not.toHaveProperty('code');
      expect(res.body).not.toHaveProperty('details');
    });

    it('internal 400 (United Storage validation error) passes unchanged', async () => {
      const refusal = {
        status: 400,
        message: 'Validation error',
        code: 'VALIDATION_ERROR',
        details: { title: 'custom', description: 'Validation error', details: [{ code: 'custom', message: "id 'zzzzzzzzzzzzz' has incorrect format", path: ['workbookId'] }] },
        requestId: 'ui-req-2',
      };
      ui.on('POST', '/gateway/root/us/getWorkbook', { status: 400, body: refusal });
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: 'zzzzzzzzzzzzz' }, '1');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refusal);
    });

    it('internal 404 HTML "Cannot POST" (not in full mode) → 502 UPSTREAM_UNAVAILABLE naming APP_MODE=full', async () => {
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ status: 502, code: 'UPSTREAM_UNAVAILABLE' });
      expect(res.body.details.reason).toMatch(/APP_MODE=full/);
      expect(res.body.details.reason).toMatch(/404/);
      expect(only().path).toBe('/gateway/root/us/getWorkbook');
    });

    it('internal 404 {code: UNKNOWN_SERVICE_ACTION} (another UI server) → 502 UPSTREAM_UNAVAILABLE', async () => {
      ui.on('POST', '/gateway/root/us/getWorkbook', { status: 404, body: { status: 404, code: 'UNKNOWN_SERVICE_ACTION', message: 'Unknown action' } });
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      expect(res.body.details.reason).toMatch(/APP_MODE=full/);
    });

    it('an internal 200 that is not JSON (an HTML page: not the full-mode UI server) → 502 UPSTREAM_UNAVAILABLE', async () => {
      ui.on('POST', '/gateway/root/us/getWorkbook', { status: 200, type: 'text/html; charset=utf-8', body: '<!DOCTYPE html><html><body>DataLens</body></html>' });
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      expect(res.body.details.reason).toMatch(/APP_MODE=full/);
    });

    it('getWizardChart of a dashboard (the engine answers 200) → 404 "Entry not found"', async () => {
      ui.on('GET', `/api/charts/v1/charts/${DASH}`, { status: 200, body: chartEntry(DASH, 'dash', 'dash') });
      const res = await rpc(stack.url, 'getWizardChart', { chartId: DASH }, '1');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, message: 'Entry not found', requestId: res.headers.get('x-request-id') });
    });

    it("the charts engine's 404 (United Storage's error) → 404 with its code and message", async () => {
      ui.on('GET', `/api/charts/v1/charts/${CHART}`, { status: 404, body: { code: 'NOT_EXIST_ENTRY', message: 'The entry does not exist' } });
      const res = await rpc(stack.url, 'getWizardChart', { chartId: CHART }, '1');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, code: 'NOT_EXIST_ENTRY', message: 'The entry does not exist', requestId: res.headers.get('x-request-id') });
    });

    it("the charts engine's 500 → 500 \"Internal server error\", its words hidden", async () => {
      ui.on('GET', `/api/charts/v1/charts/${CHART}`, { status: 500, body: { code: 'ERR.UNKNOWN', message: 'connect ECONNREFUSED 10.0.0.1:5432' } });
      const res = await rpc(stack.url, 'getWizardChart', { chartId: CHART }, '1');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ status: 500, message: 'Internal server error', requestId: res.headers.get('x-request-id') });
    });

    it('updateWizardChart of an entry United Storage does not have → its 404 as the answer, nothing saved', async () => {
      ui.on('POST', '/gateway/root/us/getEntry', { status: 404, body: { status: 404, code: 'NOT_EXIST_ENTRY', message: 'The entry does not exist' } });
      const res = await rpc(stack.url, 'updateWizardChart', { entryId: CHART, template: 'datalens', mode: 'publish', data: wizardData }, '1');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: 404, code: 'NOT_EXIST_ENTRY', message: 'The entry does not exist' });
      expect(ui.seen.map((s) => s.path)).toEqual(['/gateway/root/us/getEntry']);
    });

    it('createWizardChart answered 200 with an HTML page → 502 UPSTREAM_UNAVAILABLE', async () => {
      ui.on('POST', '/api/charts/v1/charts', { status: 200, type: 'text/html; charset=utf-8', body: '<!DOCTYPE html><html><body>DataLens</body></html>' });
      const res = await rpc(stack.url, 'createWizardChart', { template: 'datalens', workbookId: WORKBOOK, name: 'w', data: wizardData }, '1');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    });

    // SRC BUG (src/edge/datalens-oss/calls.ts, serveOnOss 'chart-create' and updateChart's save): the charts engine's
    // routes are passed asIs, so their missing route (Express's 404 "Cannot POST") reaches the client as 404
    // UPSTREAM_ERROR, where every other internal route's missing route is 502 UPSTREAM_UNAVAILABLE naming APP_MODE=full.
    it('createWizardChart when the charts engine has no such route (404 HTML "Cannot POST") → 502 UPSTREAM_UNAVAILABLE naming APP_MODE=full', async () => {
      const res = await rpc(stack.url, 'createWizardChart', { template: 'datalens', workbookId: WORKBOOK, name: 'w', data: wizardData }, '1');
      expect(ui.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /api/charts/v1/charts']);
      expect(res.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      expect(res.status).toBe(502);
      expect(res.body.details.reason).toMatch(/APP_MODE=full/);
    });

    // SRC BUG (src/edge/datalens-oss/calls.ts, updateChart): a 2xx us.getEntry answer that is not JSON is read as "not a
    // chart" and answered 404 "No entry found", where every other internal call (action(), readChart) reports a 2xx
    // non-JSON answer as the wrong server (502 UPSTREAM_UNAVAILABLE naming APP_MODE=full). A client is told its chart is
    // gone when the gateway is in front of something that is not the full-mode UI server.
    it('updateWizardChart when us.getEntry answers 200 with an HTML page → 502 UPSTREAM_UNAVAILABLE, not 404 "No entry found"', async () => {
      ui.on('POST', '/gateway/root/us/getEntry', { status: 200, type: 'text/html; charset=utf-8', body: '<!DOCTYPE html><html><body>DataLens</body></html>' });
      const res = await rpc(stack.url, 'updateWizardChart', { entryId: CHART, template: 'datalens', mode: 'publish', data: wizardData }, '1');
      expect(res.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      expect(res.status).toBe(502);
      expect(res.body.details.reason).toMatch(/APP_MODE=full/);
      expect(ui.seen.map((s) => s.path)).toEqual(['/gateway/root/us/getEntry']);
    });

    it('a chart read the charts engine has no route for (404 HTML) → 502 UPSTREAM_UNAVAILABLE too', async () => {
      const res = await rpc(stack.url, 'getWizardChart', { chartId: CHART }, '1');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      expect(res.body.details.reason).toMatch(/APP_MODE=full/);
    });
  });

  describe('methods with no route here: NO_BACKEND_ROUTE', () => {
    it('createReport at version 1 → 404 NO_BACKEND_ROUTE, and nothing reaches the UI server', async () => {
      const res = await rpc(stack.url, 'createReport', { key: 'reports/x', config: { a: 1 } }, '1');
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 404, code: 'NO_BACKEND_ROUTE', details: { method: 'createReport', backendKind: 'datalens-oss' } });
      expect(res.body.details.reason).toMatch(/no route/);
      expect(ui.seen).toEqual([]);
    });

    it('startWorkbookExport (meta-manager not listed by default) → 404 NO_BACKEND_ROUTE, nothing sent', async () => {
      const res = await rpc(stack.url, 'startWorkbookExport', { workbookId: WORKBOOK }, '1');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NO_BACKEND_ROUTE', details: { method: 'startWorkbookExport' } });
      expect(res.body.details.reason).toMatch(/meta-manager/);
      expect(ui.seen).toEqual([]);
    });

    it('leaves the unrouted methods out of GET /1/json/ and /json/, and keeps the routed ones', async () => {
      const v1 = await paths(stack.url, '/1/json/');
      const v2 = await paths(stack.url, '/2/json/');
      const v3 = await paths(stack.url, '/3/json/');
      const latest = await paths(stack.url, '/json/');
      expect(latest).toEqual(v3);
      for (const doc of [v1, v2, v3, latest]) {
        expect(doc).not.toContain('/rpc/startWorkbookExport');
        expect(doc).not.toContain('/rpc/getWorkbookExportStatus');
        expect(doc).not.toContain('/rpc/createReport');
        expect(doc).toContain('/rpc/getWorkbook');
        expect(doc).toContain('/rpc/getConnection');
        expect(doc).toContain('/rpc/getDashboard');
      }
      // The methods added at version 2 that United Storage's entry actions serve (routes.ts `since: 2`): listed from
      // version 2 on; version 1 does not have them at all.
      for (const method of SERVED_FROM_2) {
        expect(v1, method).not.toContain(`/rpc/${method}`);
        for (const doc of [v2, v3, latest]) expect(doc, method).toContain(`/rpc/${method}`);
      }
      // Methods above version 1 without a row on this backend stay unlisted at every version.
      for (const method of ['listDirectory', 'moveFolderEntry', 'createEmbed', 'getPermissions', 'modifyPermissions', 'getEntriesPermissions', 'createHtmlPage', 'createEntryLock']) {
        for (const doc of [v1, v2, v3, latest]) expect(doc, method).not.toContain(`/rpc/${method}`);
      }
      expect(ui.seen).toEqual([]);
    });
  });

  describe('discovery and readiness', () => {
    it('/versions names the backend: kind datalens-oss speaking API version 1', async () => {
      const res = await fetch(`${stack.url}/versions`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { backend: unknown }).backend).toEqual({ kind: 'datalens-oss', apiVersion: 1 });
    });

    it('the reference pages say what serves them: open-source DataLens at version 1, translated at 3, as is at 1', async () => {
      const page = async (v: string) => (await fetch(`${stack.url}/${v}/`)).text();
      expect(await page('3')).toContain('Served by a self-hosted open-source DataLens, which speaks API version 1; calls at 3 are translated down to the version it serves them at (1; 2 for its folder and Editor chart methods) and their answers up.');
      const v1 = await page('1');
      expect(v1).toContain('Served by a self-hosted open-source DataLens, which speaks API version 1. The methods it cannot serve are not listed.');
      expect(ui.seen).toEqual([]);
    });

    it('/readyz is 200 when GET /ping answers 200 "pong", though no version is announced', async () => {
      ui.on('GET', '/ping', { status: 200, type: 'text/plain; charset=utf-8', body: 'pong' });
      const res = await fetch(`${stack.url}/readyz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ready' });
      expect(ui.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /ping']);
    });

    it('/readyz is 503 when GET /ping answers 500', async () => {
      ui.on('GET', '/ping', { status: 500, body: { message: 'down' } });
      const res = await fetch(`${stack.url}/readyz`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { status: string; reason: string };
      expect(body.status).toBe('not ready');
      expect(body.reason).toMatch(/GET \/ping.*500/);
    });
  });

  describe('a client of a later version', () => {
    it("version 3's getWorkbook gets 200, the internal request carrying version 1's body", async () => {
      ui.on('POST', '/gateway/root/us/getWorkbook', { status: 200, body: workbookAnswer });
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '3', { authorization: `Bearer ${JWT}` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ workbookId: WORKBOOK, title: 'wb' });
      expect(res.headers.get('x-dl-api-version')).toBe('3');
      const seen = only();
      expect(`${seen.method} ${seen.path}`).toBe('POST /gateway/root/us/getWorkbook');
      expect(seen.json).toEqual({ workbookId: WORKBOOK });
      expect(seen.headers['x-dl-api-version']).toBeUndefined();
      expect(seen.headers.cookie).toBe(`auth=${sessionOf(JWT)}`);
    });

    it("version 3's getWizardChart {branch: saved, includeLinks} reads the same engine route and gets the chart under `entry`", async () => {
      const path = `/api/charts/v1/charts/${CHART}?unreleased=true&includeLinks=true`;
      ui.on('GET', path, { status: 200, body: { ...chartEntry(CHART), data: wizardData, isFavorite: false, tenantSettings: {} } });
      const res = await rpc(stack.url, 'getWizardChart', { chartId: CHART, branch: 'saved', includeLinks: true }, '3');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(ui.seen.map((s) => `${s.method} ${s.path}`)).toEqual([`GET ${path}`]);
      expect(res.body.entry).toMatchObject({ entryId: CHART, scope: 'widget', type: 'table_wizard_node', data: { visualization: { type: 'flatTable' } } });
    });

    it("version 3's updateWizardChart {chartId, document}: the scope check, then the engine with version 1's body (entryId, template, config)", async () => {
      ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: chartEntry(CHART) });
      ui.on('POST', `/api/charts/v1/charts/${CHART}`, (req) => ({ status: 200, body: { ...chartEntry(CHART), data: { shared: JSON.stringify((req.json as { data: unknown }).data) } } }));
      const document = { sources: { datasetsIds: [] }, visualization: { type: 'flatTable' } };
      const res = await rpc(stack.url, 'updateWizardChart', { chartId: CHART, mode: 'publish', data: document }, '3');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(ui.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /gateway/root/us/getEntry', `POST /api/charts/v1/charts/${CHART}`]);
      expect(ui.seen[0]!.json).toEqual({ entryId: CHART });
      expect(ui.seen[1]!.json).toMatchObject({ entryId: CHART, template: 'datalens', mode: 'publish', data: { visualization: { id: 'flatTable' } } });
      expect(ui.seen[1]!.json).not.toHaveProperty('chartId');
      expect(res.body.entry).toMatchObject({ entryId: CHART, type: 'table_wizard_node' });
      // The engine answers the config only as JSON text in data.shared: the v3 answer's document is made from it.
      expect(res.body.entry.data).toMatchObject({ visualization: { type: 'flatTable' } });
    });

    it("version 2's getEntries with a page token pages the version-1 getEntries by number", async () => {
      const row = { entryId: DASH, key: 'k/dash', scope: 'dash', type: 'dash', createdAt: '2026-11-28T21:25:47.736Z', createdBy: 'u', updatedAt: '2026-11-28T21:25:47.736Z', updatedBy: 'u', savedId: 'r1', publishedId: 'r1', meta: {}, hidden: false, workbookId: WORKBOOK };
      ui.on('POST', '/gateway/root/us/getEntries', { status: 200, body: { hasNextPage: true, entries: [row] } });
      const first = await rpc(stack.url, 'getEntries', { scope: 'dash', pageSize: 1 }, '2');
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.nextPageToken).toEqual(expect.any(String));
      const second = await rpc(stack.url, 'getEntries', { scope: 'dash', pageSize: 1, pageToken: first.body.nextPageToken }, '2');
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(ui.seen.map((s) => s.json)).toEqual([{ scope: 'dash', pageSize: 1 }, { scope: 'dash', pageSize: 1, page: 1 }]);
    });

    it("version 3's getReport has no route either: 404 NO_BACKEND_ROUTE naming the version asked", async () => {
      const res = await rpc(stack.url, 'getReport', { reportId: 'rep_1' }, '3');
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body).toMatchObject({ code: 'NO_BACKEND_ROUTE', details: { method: 'getReport', requestedVersion: 3, backendKind: 'datalens-oss' } });
      expect(ui.seen).toEqual([]);
    });

    it("version 3's createReport is refused (it cannot go down to version 1 at all) before anything reaches the UI server", async () => {
      const res = await rpc(stack.url, 'createReport', { workbookId: WORKBOOK, content: { a: 1 } }, '3');
      expect(res.status).toBe(404);
      expect(['NO_BACKEND_ROUTE', 'METHOD_NOT_SERVED_BY_BACKEND']).toContain(res.body.code);
      expect(ui.seen).toEqual([]);
    });
  });
});

// ── other settings ──────────────────────────────────────────────────────────

describe('the gateway in front of open-source DataLens (other settings)', () => {
  it('sends the token in the cookie upstream.datalensOss.authCookie names', async () => {
    await withOss({ datalensOss: { authCookie: 'dl_session' } }, async (ui, stack) => {
      ui.on('POST', '/gateway/root/us/getWorkbook', { status: 200, body: workbookAnswer });
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1', { authorization: `Bearer ${JWT}`, cookie: 'auth=other' });
      expect(res.status).toBe(200);
      expect(ui.seen).toHaveLength(1);
      expect(ui.seen[0]!.headers.cookie).toBe(`auth=other; dl_session=${sessionOf(JWT)}`);
      expect(ui.seen[0]!.headers.authorization).toBeUndefined();
    });
  });

  it("with services ['bi', 'meta-manager'] routes startWorkbookExport to /gateway/root/metaManager/startWorkbookExport and lists it", async () => {
    await withOss({ datalensOss: { services: ['bi', 'meta-manager'] } }, async (ui, stack) => {
      const started = { exportId: 'o000000000001' };
      ui.on('POST', '/gateway/root/metaManager/startWorkbookExport', { status: 200, body: started });
      const res = await rpc(stack.url, 'startWorkbookExport', { workbookId: WORKBOOK }, '1');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual(started);
      expect(ui.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /gateway/root/metaManager/startWorkbookExport']);
      expect(ui.seen[0]!.json).toEqual({ workbookId: WORKBOOK });
      expect(await paths(stack.url, '/1/json/')).toContain('/rpc/startWorkbookExport');
      expect(await paths(stack.url, '/json/')).toContain('/rpc/startWorkbookExport');
      // Still no route for what open-source DataLens has none for.
      expect(await paths(stack.url, '/1/json/')).not.toContain('/rpc/createReport');
    });
  });

  it('with services [] refuses getConnection with NO_BACKEND_ROUTE and lists it nowhere', async () => {
    await withOss({ datalensOss: { services: [] } }, async (ui, stack) => {
      const res = await rpc(stack.url, 'getConnection', { connectionId: 'e000000000003' }, '1');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NO_BACKEND_ROUTE', details: { method: 'getConnection' } });
      expect(res.body.details.reason).toMatch(/bi service/);
      expect(ui.seen).toEqual([]);
      for (const doc of ['/1/json/', '/json/']) {
        const listed = await paths(stack.url, doc);
        expect(listed).not.toContain('/rpc/getConnection');
        expect(listed).not.toContain('/rpc/getDataset');
        expect(listed).toContain('/rpc/getWorkbook');
      }
    });
  });
});

describe('the UI server under a base path, and the answer limit', () => {
  it('reaches the internal routes and /ping under upstream.url\'s path', async () => {
    await withOss({ basePath: '/datalens/' }, async (ui, stack) => {
      ui.on('POST', '/datalens/gateway/root/us/getWorkbook', { status: 200, body: workbookAnswer });
      ui.on('GET', `/datalens/api/charts/v1/charts/${CHART}`, { status: 200, body: { ...chartEntry(CHART), data: wizardData } });
      ui.on('GET', '/datalens/ping', { status: 200, type: 'text/plain', body: 'pong' });
      expect((await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1')).status).toBe(200);
      expect((await rpc(stack.url, 'getWizardChart', { chartId: CHART }, '1')).status).toBe(200);
      expect((await fetch(`${stack.url}/readyz`)).status).toBe(200);
      expect(ui.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
        'POST /datalens/gateway/root/us/getWorkbook',
        `GET /datalens/api/charts/v1/charts/${CHART}`,
        'GET /datalens/ping',
      ]);
    });
  });

  it('refuses an internal answer above limits.responseBytes with 502', async () => {
    await withOss({ config: { limits: { responseBytes: 2048 } } }, async (ui, stack) => {
      ui.on('POST', '/gateway/root/us/getWorkbook', { status: 200, body: { ...workbookAnswer, description: 'x'.repeat(4096) } });
      const res = await rpc(stack.url, 'getWorkbook', { workbookId: WORKBOOK }, '1');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      expect(res.body.details.reason).toMatch(/2048-byte limit/);
    });
  });
});

// ── config ──────────────────────────────────────────────────────────────────

describe('config of upstream.kind datalens-oss', () => {
  const lifecycle = { versions: [{ version: 1, released: '2025-01-15' }] };
  const problemsOf = (fn: () => unknown): string[] => {
    try {
      fn();
    } catch (e) {
      if (e instanceof ConfigError) return [...e.problems];
      throw e;
    }
    throw new Error('expected a ConfigError');
  };

  it('refuses the embedded backend', () => {
    const problems = problemsOf(() => parseConfig({ lifecycle, upstream: { kind: 'datalens-oss', url: 'embedded' } }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^upstream\.url: kind datalens-oss needs the UI server's base URL/);
  });

  it('refuses kind datalens-oss with the default url (embedded) too', () => {
    expect(problemsOf(() => parseConfig({ lifecycle, upstream: { kind: 'datalens-oss' } })).join('\n')).toMatch(/kind datalens-oss/);
  });

  it('refuses an API version other than 1', () => {
    const problems = problemsOf(() => parseConfig({ lifecycle, upstream: { kind: 'datalens-oss', url: 'http://datalens-ui:8080', apiVersion: 2 } }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^upstream\.apiVersion: open-source DataLens speaks API version 1 \(got 2\)/);
  });

  it('takes apiVersion 1, and defaults: cookie auth, services [bi]', () => {
    const { config } = parseConfig({ lifecycle, upstream: { kind: 'datalens-oss', url: 'http://datalens-ui:8080', apiVersion: 1 } });
    expect(config.upstream.kind).toBe('datalens-oss');
    expect(config.upstream.datalensOss).toEqual({ authCookie: 'auth', services: ['bi'] });
  });

  it('the kind defaults to rpc, where the embedded backend is fine', () => {
    const { config } = parseConfig({ lifecycle });
    expect(config.upstream.kind).toBe('rpc');
    expect(config.upstream.url).toBe('embedded');
  });

  it('UPSTREAM_KIND, DATALENS_OSS_SERVICES and DATALENS_OSS_AUTH_COOKIE override the file', () => {
    const { config } = parseConfig(
      { lifecycle, upstream: { url: 'http://datalens-ui:8080' } },
      { UPSTREAM_KIND: 'datalens-oss', DATALENS_OSS_SERVICES: 'bi, meta-manager', DATALENS_OSS_AUTH_COOKIE: 'dl_auth' },
    );
    expect(config.upstream.kind).toBe('datalens-oss');
    expect(config.upstream.datalensOss.services).toEqual(['bi', 'meta-manager']);
    expect(config.upstream.datalensOss.authCookie).toBe('dl_auth');
  });

  it('DATALENS_OSS_SERVICES wins over the file\'s list, and UPSTREAM_KIND over the file\'s kind', () => {
    const { config } = parseConfig(
      { lifecycle, upstream: { kind: 'rpc', url: 'http://datalens-ui:8080', datalensOss: { services: ['bi'] } } },
      { UPSTREAM_KIND: 'datalens-oss', DATALENS_OSS_SERVICES: 'meta-manager' },
    );
    expect(config.upstream.kind).toBe('datalens-oss');
    expect(config.upstream.datalensOss.services).toEqual(['meta-manager']);
  });

  it('DATALENS_OSS_SERVICES=none is no service besides United Storage; an empty value leaves the file\'s list', () => {
    const file = { lifecycle, upstream: { kind: 'datalens-oss', url: 'http://datalens-ui:8080', datalensOss: { services: ['bi', 'meta-manager'] } } };
    expect(parseConfig(file, { DATALENS_OSS_SERVICES: 'none' }).config.upstream.datalensOss.services).toEqual([]);
    expect(parseConfig(file, { DATALENS_OSS_SERVICES: '' }).config.upstream.datalensOss.services).toEqual(['bi', 'meta-manager']);
  });

  it('names the environment variable when its value is wrong', () => {
    const problems = problemsOf(() => parseConfig({ lifecycle, upstream: { url: 'http://datalens-ui:8080' } }, { UPSTREAM_KIND: 'datalens', DATALENS_OSS_SERVICES: 'bi,us' }));
    expect(problems.some((p) => p.startsWith('UPSTREAM_KIND (environment variable, overrides upstream.kind)'))).toBe(true);
    const services = problems.find((p) => p.startsWith('DATALENS_OSS_SERVICES (environment variable, overrides upstream.datalensOss.services'));
    expect(services, problems.join('\n')).toMatch(/"bi"\|"meta-manager"/);
  });

  it('UPSTREAM_API_VERSION=2 under kind datalens-oss is refused, naming the variable', () => {
    const problems = problemsOf(() => parseConfig({ lifecycle, upstream: { kind: 'datalens-oss', url: 'http://datalens-ui:8080' } }, { UPSTREAM_API_VERSION: '2' }));
    expect(problems).toEqual([expect.stringMatching(/^UPSTREAM_API_VERSION \(environment variable, overrides upstream\.apiVersion\): open-source DataLens speaks API version 1 \(got 2\)/)]);
  });

  it('UPSTREAM_KIND=datalens-oss over the embedded backend is refused', () => {
    expect(problemsOf(() => parseConfig({ lifecycle }, { UPSTREAM_KIND: 'datalens-oss' })).join('\n')).toMatch(/upstream\.url: kind datalens-oss needs/);
  });
});
