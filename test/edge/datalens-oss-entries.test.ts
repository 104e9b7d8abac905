// `upstream.kind: datalens-oss`, the methods added at version 2 that open-source DataLens serves through its UI
// server's entry actions (src/edge/datalens-oss/routes.ts rows with `since: 2`, entry-calls.ts): renameEntry, the
// folder writes and the Editor chart methods. Served in version 2's shape; a client at 3 (or `latest`, the head) is
// translated down to 2 by the core. Each test runs a real gateway in front of the scripted UI server
// (test/helpers/fake-oss-ui.ts) and checks what reached the UI server (method, path, JSON body) and the public answer.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { shippedContract } from '../../src/contract/index.js';
import { loadContract, methodAt } from '../../src/core/contract-model/load.js';
import { startFakeUi, startOssStack, type FakeUi } from '../helpers/fake-oss-ui.js';
import { rpc, type Stack } from '../helpers/stack.js';

const loaded = loadContract(shippedContract);
const HEAD = loaded.head;

// Ids as United Storage makes them (13 characters).
const FOLDER = 'e000000000021';
const EDITOR = 'e000000000022';
const WIZARD = 'e000000000023';
const DASH = 'e000000000024';
const WORKBOOK = 'w000000000001';
const WORKBOOK_KEY = '1834512876543210987';
const REV_1 = 'r000000000031';
const REV_2 = 'r000000000032';
const CREATED = '2026-11-28T21:25:47.736Z';
const UPDATED = '2026-11-29T08:02:11.104Z';

type Json = Record<string, unknown>;

/** A United Storage entry as `us.getEntry` and the entry actions answer it. */
const usEntry = (fields: Json): Json => ({
  entryId: EDITOR,
  scope: 'widget',
  type: 'table_node',
  key: 'charts/editor/sales table',
  createdBy: 'uid:systemId',
  createdAt: CREATED,
  updatedBy: 'uid:systemId',
  updatedAt: CREATED,
  savedId: REV_1,
  publishedId: REV_1,
  revId: REV_1,
  tenantId: 'common',
  data: {},
  meta: {},
  annotation: { description: '' },
  hidden: false,
  public: false,
  workbookId: null,
  collectionId: null,
  version: null,
  sourceVersion: null,
  links: null,
  ...fields,
});

/** An Editor table node's tabs (each a string of code or JSON). */
const editorTabs = {
  meta: '{"links": {}}',
  params: 'module.exports = {};',
  sources: 'module.exports = {};',
  controls: 'module.exports = {};',
  prepare: 'module.exports = {head: [{id: "n", name: "n"}], rows: [{cells: [{value: 1}]}]};',
  config: 'module.exports = {};',
};

const folderEntry = usEntry({
  entryId: FOLDER,
  scope: 'folder',
  type: '',
  key: 'reports/2026/',
  unversionedData: {},
  data: {},
  meta: {},
  annotation: null,
  mirrored: false,
  publishedId: null,
});
const editorEntry = usEntry({ data: editorTabs, meta: { stype: 'table_node' }, links: { dataset: 'e000000000025' } });
const wizardEntry = usEntry({
  entryId: WIZARD,
  type: 'table_wizard_node',
  key: `${WORKBOOK_KEY}/wizard`,
  workbookId: WORKBOOK,
  data: { shared: '{"version":"2","visualization":{"id":"flatTable","placeholders":[]},"datasetsIds":[],"datasetsPartialFields":[]}' },
  meta: { stype: 'table_wizard_node' },
});
const dashEntry = usEntry({ entryId: DASH, scope: 'dash', type: '', key: `${WORKBOOK_KEY}/dash`, workbookId: WORKBOOK, data: { counter: 1, salt: '0.1', schemeVersion: 8, tabs: [] } });

/** United Storage's 404 for an entry it does not have, as the internal route sends it. */
const NOT_EXIST = { status: 404, code: 'NOT_EXIST_ENTRY', message: 'The entry does not exist', requestId: 'ui-req-404' };

/** The answer parses with `method`'s answer schema at `version` (the contract's own). */
function expectContractShape(version: number, method: string, body: unknown): void {
  const spec = methodAt(loaded, version, method);
  expect(spec, `${method} at ${version}`).toBeDefined();
  const parsed = spec!.response.safeParse(body);
  expect(parsed.success, `${method} at ${version}: ${JSON.stringify(parsed.error?.issues?.slice(0, 3))}`).toBe(true);
}

/**
 * The public `entry` made from United Storage's `stored` one: every field as stored but `sourceVersion`, United
 * Storage's own keys (isFavorite, permissions, fullPermissions) and a null `version`; stamped `apiVersion: 2`, the
 * shape it is served in (open-source DataLens stamps nothing; entry-calls.ts).
 */
function expectPublicEntry(actual: Json, stored: Json): void {
  const { sourceVersion: _s, isFavorite: _f, permissions: _p, fullPermissions: _fp, version, ...rest } = stored;
  expect(actual).toEqual({ ...rest, ...(version !== null && { version }), apiVersion: 2 });
}

/** The versions asked here: the header sent, and the version it resolves to (latest = the head at the stack's clock). */
const VERSIONS = [
  { header: '2', resolved: 2 },
  { header: '3', resolved: 3 },
  { header: 'latest', resolved: HEAD },
] as const;

/** One successful call of each method: what the UI server answers (path → body) and the public arguments. */
const SHAPE_CASES: Record<string, { readonly fake: Record<string, unknown>; readonly body: Json }> = {
  renameEntry: {
    fake: { '/gateway/root/us/renameEntry': [{ entryId: EDITOR, key: 'charts/editor/sales by region', scope: 'widget', type: 'table_node', updatedAt: UPDATED, updatedBy: 'uid:systemId' }] },
    body: { entryId: EDITOR, name: 'sales by region' },
  },
  createFolder: { fake: { '/gateway/root/us/createFolder': folderEntry }, body: { key: 'reports/2026/' } },
  deleteFolder: { fake: { '/gateway/root/us/getEntry': folderEntry, '/gateway/root/mix/deleteEntry': {} }, body: { folderId: FOLDER } },
  getEditorChart: {
    fake: { '/gateway/root/us/getEntry': { ...editorEntry, isFavorite: true, permissions: { execute: true, read: true, edit: true, admin: true } } },
    body: { chartId: EDITOR, includeFavorite: true, includePermissions: true },
  },
  createEditorChart: {
    fake: { '/gateway/root/mix/createEditorChart': editorEntry },
    body: { mode: 'publish', entry: { type: 'table_node', key: 'charts/editor/sales table', data: editorTabs } },
  },
  updateEditorChart: {
    fake: { '/gateway/root/us/getEntry': editorEntry, '/gateway/root/mix/updateEditorChart': { ...editorEntry, revId: REV_2, savedId: REV_2 } },
    body: { mode: 'save', entry: { entryId: EDITOR, type: 'table_node', data: editorTabs } },
  },
  deleteEditorChart: { fake: { '/gateway/root/us/getEntry': editorEntry, '/gateway/root/mix/deleteEntry': {} }, body: { chartId: EDITOR } },
};

const SEVEN = ['renameEntry', 'createFolder', 'deleteFolder', 'getEditorChart', 'createEditorChart', 'updateEditorChart', 'deleteEditorChart'];

describe('open-source DataLens: the methods added at version 2, served through the entry actions', () => {
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

  /** What the UI server was sent: `METHOD path` and the JSON body of each request, in order. */
  const seen = () => ui.seen.map((s) => ({ call: `${s.method} ${s.path}`, body: s.json }));

  for (const { header, resolved } of VERSIONS) {
    describe(`at x-dl-api-version: ${header}`, () => {
      const call = async (method: string, body: unknown) => {
        const res = await rpc(stack.url, method, body, header);
        expect(res.headers.get('x-dl-api-version'), method).toBe(String(resolved));
        return res;
      };
      /** A successful answer (its shape is checked by the contract's schemas below, one test per method). */
      const expectServed = (method: string, res: { status: number; body: unknown }) => {
        expect(res.status, `${method}: ${JSON.stringify(res.body)}`).toBe(200);
      };

      describe(`the answers parse with the contract's own answer schemas at ${resolved}`, () => {
        for (const [method, { fake, body }] of Object.entries(SHAPE_CASES)) {
          it(method, async () => {
            for (const [path, reply] of Object.entries(fake)) ui.on('POST', path, { status: 200, body: reply });
            const res = await call(method, body);
            expectServed(method, res);
            expectContractShape(resolved, method, res.body);
          });
        }
      });

      describe('renameEntry → us.renameEntry', () => {
        it('sends the same body and passes United Storage\'s answer (the renamed entries) as it is', async () => {
          const renamed = [
            { entryId: EDITOR, key: 'charts/editor/sales by region', scope: 'widget', type: 'table_node', updatedAt: UPDATED, updatedBy: 'uid:systemId', tenantId: 'common', savedId: REV_1, publishedId: REV_1, hidden: false },
          ];
          ui.on('POST', '/gateway/root/us/renameEntry', { status: 200, body: renamed });
          const body = { entryId: EDITOR, name: 'sales by region' };
          const res = await call('renameEntry', body);
          expectServed('renameEntry', res);
          expect(res.body).toEqual(renamed);
          expect(seen()).toEqual([{ call: 'POST /gateway/root/us/renameEntry', body }]);
        });

        it("passes United Storage's 4xx with its code, message and details", async () => {
          const refusal = { status: 409, code: 'ENTRY_ALREADY_EXISTS', message: 'The entry already exists', details: { key: 'charts/editor/sales' }, requestId: 'ui-req-409' };
          ui.on('POST', '/gateway/root/us/renameEntry', { status: 409, body: refusal });
          const res = await call('renameEntry', { entryId: EDITOR, name: 'sales' });
          expect(res.status).toBe(409);
          expect(res.body).toEqual(refusal);
          expect(seen().map((s) => s.call)).toEqual(['POST /gateway/root/us/renameEntry']);
        });
      });

      describe('createFolder → us.createFolder', () => {
        it('sends {key} and passes the folder entry United Storage answers', async () => {
          ui.on('POST', '/gateway/root/us/createFolder', { status: 200, body: folderEntry });
          const res = await call('createFolder', { key: 'reports/2026/' });
          expectServed('createFolder', res);
          expect(res.body).toEqual(folderEntry);
          expect(seen()).toEqual([{ call: 'POST /gateway/root/us/createFolder', body: { key: 'reports/2026/' } }]);
        });

        it('refuses initialPermissions with 422 VERSION_TRANSLATION_FAILED naming the field, and sends nothing', async () => {
          ui.on('POST', '/gateway/root/us/createFolder', { status: 200, body: folderEntry });
          const res = await call('createFolder', { key: 'reports/2026/', initialPermissions: { acl_view: [{ subject: 'user:u1', comment: '' }] } });
          expect(res.status, JSON.stringify(res.body)).toBe(422);
          expect(res.body).toMatchObject({ status: 422, code: 'VERSION_TRANSLATION_FAILED', details: { fields: ['initialPermissions'] } });
          expect(ui.seen).toEqual([]);
        });
      });

      describe('deleteFolder → us.getEntry, then mix.deleteEntry', () => {
        it('checks that the entry is a folder, deletes it with scope folder and answers {}', async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: folderEntry });
          ui.on('POST', '/gateway/root/mix/deleteEntry', { status: 200, body: { entryId: FOLDER, scope: 'folder', type: '', key: 'reports/2026/' } });
          const res = await call('deleteFolder', { folderId: FOLDER });
          expectServed('deleteFolder', res);
          expect(res.body).toEqual({});
          expect(seen()).toEqual([
            { call: 'POST /gateway/root/us/getEntry', body: { entryId: FOLDER } },
            { call: 'POST /gateway/root/mix/deleteEntry', body: { entryId: FOLDER, scope: 'folder' } },
          ]);
        });

        it('answers 404 "No entry found" for an entry that is not a folder (an Editor chart), and deletes nothing', async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: editorEntry });
          ui.on('POST', '/gateway/root/mix/deleteEntry', { status: 200, body: {} });
          const res = await call('deleteFolder', { folderId: EDITOR });
          expect(res.status, JSON.stringify(res.body)).toBe(404);
          expect(res.body).toEqual({ status: 404, message: 'No entry found', requestId: res.headers.get('x-request-id') });
          expect(seen()).toEqual([{ call: 'POST /gateway/root/us/getEntry', body: { entryId: EDITOR } }]);
        });

        it("passes United Storage's 404 on getEntry with its code, and deletes nothing", async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 404, body: NOT_EXIST });
          ui.on('POST', '/gateway/root/mix/deleteEntry', { status: 200, body: {} });
          const res = await call('deleteFolder', { folderId: FOLDER });
          expect(res.status).toBe(404);
          expect(res.body).toEqual(NOT_EXIST);
          expect(seen().map((s) => s.call)).toEqual(['POST /gateway/root/us/getEntry']);
        });

        it('refuses a call without folderId with 400 VALIDATION_ERROR, and sends nothing', async () => {
          const res = await call('deleteFolder', {});
          expect(res.status, JSON.stringify(res.body)).toBe(400);
          expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
          expect(ui.seen).toEqual([]);
        });
      });

      describe('getEditorChart → us.getEntry', () => {
        it('asks with includeFavorite false by default and answers {entry} without United Storage\'s own keys', async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: { ...editorEntry, isFavorite: false } });
          const res = await call('getEditorChart', { chartId: EDITOR });
          expectServed('getEditorChart', res);
          expect(seen()).toEqual([{ call: 'POST /gateway/root/us/getEntry', body: { entryId: EDITOR, includeFavorite: false } }]);
          expect(Object.keys(res.body)).toEqual(['entry']);
          expectPublicEntry(res.body.entry, editorEntry);
          expect(res.body).not.toHaveProperty('isFavorite');
          expect(res.body.entry).not.toHaveProperty('isFavorite');
          expect(res.body.entry).not.toHaveProperty('sourceVersion');
          // United Storage's `version` is null here (no Editor format version): left out, not passed as null.
          expect(res.body.entry.version).toBeUndefined();
        });

        it('maps includePermissions, includeLinks, includeFavorite, revId, branch and workbookId, and answers isFavorite and permissions beside the entry', async () => {
          const permissions = { execute: true, read: true, edit: true, admin: false };
          const fullPermissions = { listAccessBindings: true, view: true, update: true };
          const stored: Json = { ...editorEntry, revId: REV_2, isFavorite: true, permissions, fullPermissions };
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: stored });
          const res = await call('getEditorChart', { chartId: EDITOR, revId: REV_2, branch: 'saved', includePermissions: true, includeLinks: true, includeFavorite: true, workbookId: null });
          expectServed('getEditorChart', res);
          expect(seen()).toEqual([
            {
              call: 'POST /gateway/root/us/getEntry',
              body: { entryId: EDITOR, revId: REV_2, branch: 'saved', includePermissionsInfo: true, includeLinks: true, includeFavorite: true },
            },
          ]);
          expect(res.body.isFavorite).toBe(true);
          expect(res.body.permissions).toEqual(permissions);
          expect(res.body.entry).toMatchObject({ entryId: EDITOR, revId: REV_2, scope: 'widget', type: 'table_node', data: editorTabs, links: { dataset: 'e000000000025' } });
          for (const key of ['isFavorite', 'permissions', 'fullPermissions', 'sourceVersion']) expect(res.body.entry, key).not.toHaveProperty(key);
          expect(Object.keys(res.body).sort()).toEqual(['entry', 'isFavorite', 'permissions']);
          expectPublicEntry(res.body.entry, stored);
        });

        it('passes a workbookId to United Storage', async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: { ...editorEntry, workbookId: WORKBOOK, key: `${WORKBOOK_KEY}/sales table` } });
          const res = await call('getEditorChart', { chartId: EDITOR, workbookId: WORKBOOK });
          expectServed('getEditorChart', res);
          expect(seen()).toEqual([{ call: 'POST /gateway/root/us/getEntry', body: { entryId: EDITOR, workbookId: WORKBOOK, includeFavorite: false } }]);
          expect(res.body.entry).toMatchObject({ entryId: EDITOR, workbookId: WORKBOOK });
        });

        it('keeps an Editor format version United Storage does have (1)', async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: { ...editorEntry, version: 1 } });
          const res = await call('getEditorChart', { chartId: EDITOR });
          expectServed('getEditorChart', res);
          expect(res.body.entry.version).toBe(1);
          expectPublicEntry(res.body.entry, { ...editorEntry, version: 1 });
        });

        it('answers 404 "Entry not found" for a Wizard chart (a widget, not an Editor type)', async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: wizardEntry });
          const res = await call('getEditorChart', { chartId: WIZARD });
          expect(res.status, JSON.stringify(res.body)).toBe(404);
          expect(res.body).toEqual({ status: 404, message: 'Entry not found', requestId: res.headers.get('x-request-id') });
          expect(seen().map((s) => s.call)).toEqual(['POST /gateway/root/us/getEntry']);
        });

        it('answers 404 "Entry not found" for a dashboard', async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: dashEntry });
          const res = await call('getEditorChart', { chartId: DASH });
          expect(res.status).toBe(404);
          expect(res.body).toMatchObject({ status: 404, message: 'Entry not found' });
        });

        it("passes United Storage's 404 with its code", async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 404, body: NOT_EXIST });
          const res = await call('getEditorChart', { chartId: EDITOR });
          expect(res.status).toBe(404);
          expect(res.body).toEqual(NOT_EXIST);
        });
      });

      describe('createEditorChart → mix.createEditorChart', () => {
        it('sends the entry\'s fields flat with the mode (in a folder), and answers {entry}', async () => {
          const created = usEntry({ entryId: EDITOR, key: 'charts/editor/sales table', data: editorTabs, meta: { stype: 'table_node' }, annotation: { description: 'Sales' } });
          ui.on('POST', '/gateway/root/mix/createEditorChart', { status: 200, body: created });
          const entry = { type: 'table_node', key: 'charts/editor/sales table', data: editorTabs, annotation: { description: 'Sales' } };
          const res = await call('createEditorChart', { mode: 'publish', entry });
          expectServed('createEditorChart', res);
          expect(seen()).toEqual([{ call: 'POST /gateway/root/mix/createEditorChart', body: { ...entry, mode: 'publish' } }]);
          expect(Object.keys(res.body)).toEqual(['entry']);
          expectPublicEntry(res.body.entry, created);
          expect(res.body.entry).not.toHaveProperty('sourceVersion');
          expect(res.body.entry.version).toBeUndefined();
        });

        it('in a workbook (workbookId and name), with meta and links, without a mode', async () => {
          const links = { dataset: 'e000000000025' };
          const created = usEntry({ entryId: EDITOR, key: `${WORKBOOK_KEY}/sales table`, workbookId: WORKBOOK, data: editorTabs, meta: { stype: 'table_node', owner: 'uid:systemId' }, links });
          ui.on('POST', '/gateway/root/mix/createEditorChart', { status: 200, body: created });
          const entry = { type: 'table_node', workbookId: WORKBOOK, name: 'sales table', data: editorTabs, meta: { owner: 'uid:systemId' }, links };
          const res = await call('createEditorChart', { entry });
          expectServed('createEditorChart', res);
          expect(seen()).toEqual([{ call: 'POST /gateway/root/mix/createEditorChart', body: entry }]);
          expect(res.body.entry).toMatchObject({ entryId: EDITOR, workbookId: WORKBOOK, links, data: editorTabs });
        });

        it("passes the action's 4xx with its code, message and details", async () => {
          const refusal = {
            status: 400,
            code: 'VALIDATION_ERROR',
            message: 'Validation error',
            details: { title: 'custom', description: 'Validation error', details: [{ code: 'custom', message: "id 'zzzzzzzzzzzzz' has incorrect format", path: ['workbookId'] }] },
            requestId: 'ui-req-400',
          };
          ui.on('POST', '/gateway/root/mix/createEditorChart', { status: 400, body: refusal });
          const res = await call('createEditorChart', { mode: 'save', entry: { type: 'table_node', workbookId: 'zzzzzzzzzzzzz', name: 'x', data: editorTabs } });
          expect(res.status).toBe(400);
          expect(res.body).toEqual(refusal);
        });
      });

      describe('updateEditorChart → us.getEntry, then mix.updateEditorChart', () => {
        const update = (entry: Json = {}) => ({ mode: 'save', entry: { entryId: EDITOR, revId: REV_1, type: 'table_node', data: editorTabs, meta: { stype: 'table_node' }, ...entry } });

        it("checks the entry, sends the entry's fields flat without type, with entryId and mode, and answers {entry}", async () => {
          const saved: Json = { ...editorEntry, revId: REV_2, savedId: REV_2, updatedAt: UPDATED };
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: editorEntry });
          ui.on('POST', '/gateway/root/mix/updateEditorChart', { status: 200, body: saved });
          const res = await call('updateEditorChart', update({ annotation: { description: 'Sales, saved' } }));
          expectServed('updateEditorChart', res);
          expect(seen()).toEqual([
            { call: 'POST /gateway/root/us/getEntry', body: { entryId: EDITOR } },
            {
              call: 'POST /gateway/root/mix/updateEditorChart',
              body: { entryId: EDITOR, revId: REV_1, data: editorTabs, meta: { stype: 'table_node' }, annotation: { description: 'Sales, saved' }, mode: 'save' },
            },
          ]);
          expect(Object.keys(res.body)).toEqual(['entry']);
          expectPublicEntry(res.body.entry, saved);
          expect(res.body.entry).not.toHaveProperty('sourceVersion');
        });

        it('answers 404 "No entry found" for a Wizard chart, and saves nothing', async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: wizardEntry });
          ui.on('POST', '/gateway/root/mix/updateEditorChart', { status: 200, body: editorEntry });
          const res = await call('updateEditorChart', update({ entryId: WIZARD }));
          expect(res.status, JSON.stringify(res.body)).toBe(404);
          expect(res.body).toEqual({ status: 404, message: 'No entry found', requestId: res.headers.get('x-request-id') });
          expect(seen()).toEqual([{ call: 'POST /gateway/root/us/getEntry', body: { entryId: WIZARD } }]);
        });

        it('refuses a type other than the stored one with 422 naming entry.type, and saves nothing', async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: editorEntry });
          ui.on('POST', '/gateway/root/mix/updateEditorChart', { status: 200, body: editorEntry });
          const res = await call('updateEditorChart', update({ type: 'graph_node' }));
          expect(res.status, JSON.stringify(res.body)).toBe(422);
          expect(res.body).toMatchObject({ status: 422, code: 'VERSION_TRANSLATION_FAILED', details: { fields: ['entry.type'] } });
          expect(seen().map((s) => s.call)).toEqual(['POST /gateway/root/us/getEntry']);
        });

        it("passes United Storage's 404 on getEntry with its code, and saves nothing", async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 404, body: NOT_EXIST });
          ui.on('POST', '/gateway/root/mix/updateEditorChart', { status: 200, body: editorEntry });
          const res = await call('updateEditorChart', update());
          expect(res.status).toBe(404);
          expect(res.body).toEqual(NOT_EXIST);
          expect(seen().map((s) => s.call)).toEqual(['POST /gateway/root/us/getEntry']);
        });
      });

      describe('deleteEditorChart → us.getEntry, then mix.deleteEntry', () => {
        it('checks the entry is an Editor chart, deletes it with scope widget and answers {}', async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: editorEntry });
          ui.on('POST', '/gateway/root/mix/deleteEntry', { status: 200, body: { entryId: EDITOR, scope: 'widget', type: 'table_node', key: 'charts/editor/sales table' } });
          const res = await call('deleteEditorChart', { chartId: EDITOR });
          expectServed('deleteEditorChart', res);
          expect(res.body).toEqual({});
          expect(seen()).toEqual([
            { call: 'POST /gateway/root/us/getEntry', body: { entryId: EDITOR } },
            { call: 'POST /gateway/root/mix/deleteEntry', body: { entryId: EDITOR, scope: 'widget' } },
          ]);
        });

        it('answers 404 "No entry found" for a Wizard chart or a folder, and deletes nothing', async () => {
          for (const [id, stored] of [[WIZARD, wizardEntry], [FOLDER, folderEntry]] as const) {
            ui.reset();
            ui.on('POST', '/gateway/root/us/getEntry', { status: 200, body: stored });
            ui.on('POST', '/gateway/root/mix/deleteEntry', { status: 200, body: {} });
            const res = await call('deleteEditorChart', { chartId: id });
            expect(res.status, JSON.stringify(res.body)).toBe(404);
            expect(res.body).toEqual({ status: 404, message: 'No entry found', requestId: res.headers.get('x-request-id') });
            expect(seen()).toEqual([{ call: 'POST /gateway/root/us/getEntry', body: { entryId: id } }]);
          }
        });

        it("passes United Storage's 404 on getEntry with its code, and deletes nothing", async () => {
          ui.on('POST', '/gateway/root/us/getEntry', { status: 404, body: NOT_EXIST });
          const res = await call('deleteEditorChart', { chartId: EDITOR });
          expect(res.status).toBe(404);
          expect(res.body).toEqual(NOT_EXIST);
          expect(seen().map((s) => s.call)).toEqual(['POST /gateway/root/us/getEntry']);
        });
      });
    });
  }

  describe('at version 1, where these methods do not exist', () => {
    const bodies: Record<string, Json> = {
      renameEntry: { entryId: EDITOR, name: 'x' },
      createFolder: { key: 'reports/' },
      deleteFolder: { folderId: FOLDER },
      getEditorChart: { chartId: EDITOR },
      createEditorChart: { entry: { type: 'table_node', key: 'charts/x', data: editorTabs } },
      updateEditorChart: { mode: 'save', entry: { entryId: EDITOR, data: editorTabs } },
      deleteEditorChart: { chartId: EDITOR },
    };
    for (const method of SEVEN) {
      it(`${method} → 404 ENDPOINT_NOT_FOUND naming the versions that have it, and nothing reaches the UI server`, async () => {
        const res = await rpc(stack.url, method, bodies[method], '1');
        expect(res.status, JSON.stringify(res.body)).toBe(404);
        expect(res.body).toMatchObject({ status: 404, code: 'ENDPOINT_NOT_FOUND', details: { method, requestedVersion: 1, availableIn: loaded.availableIn.get(method) } });
        expect(loaded.availableIn.get(method)?.[0]).toBe(2);
        expect(ui.seen).toEqual([]);
      });
    }
  });
});
