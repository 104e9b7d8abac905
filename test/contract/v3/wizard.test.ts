// Wizard charts across version 3's document format, through a real gateway in front of the reference backend (which
// speaks version 3): a v1 or v2 client reads back exactly the config it wrote, the backend holds the v3 document, a
// v3 client reads older charts as documents, and a chart saved at 3 is refused to older clients.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../../helpers/calendar.js';
import { WIZARD_DOCUMENT_VERSION } from '../../../src/contract/v3/wizard-charts.js';
import { LEGACY_CONFIG } from '../../../src/contract/v3/wizard-config.js';
import { type Stack, rpc, startStack } from '../../helpers/stack.js';

const V3 = String(WIZARD_DOCUMENT_VERSION);
const SANDBOX = 'wb_demo_sandbox';
const DATASET = 'ent_demo_03';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

let seq = 0;
const name = (prefix: string) => `${prefix}-${++seq}`;

/** A line chart as Wizard saves it at versions 1 and 2 (datalens-ui ChartsConfig; shape as recorded from real v1). */
const lineConfig = (title: string) => ({
  version: '13',
  type: 'datalens',
  visualization: {
    id: 'line',
    type: 'line',
    name: 'label_visualization-line',
    placeholders: [
      { id: 'x', type: 'x', title: 'section_x', items: [{ guid: 'f-day', datasetId: DATASET, title: 'day', type: 'DIMENSION', data_type: 'date' }], settings: { grid: 'on', title: 'auto' } },
      { id: 'y', type: 'y', title: 'section_y', items: [{ guid: 'f-visits', datasetId: DATASET, title: 'visits', type: 'MEASURE' }], settings: {} },
      { id: 'y2', type: 'y', title: 'section_y2', items: [] },
    ],
  },
  datasetsIds: [DATASET],
  datasetsPartialFields: [[{ guid: 'f-day', title: 'day' }]],
  updates: [{ action: 'add_field', field: { guid: 'f-local', title: 'local', formula: '[visits] * 2' } }],
  filters: [{ guid: 'f-day', datasetId: DATASET, filter: { operation: { code: 'GT' }, value: '2026-01-01' } }],
  hierarchies: [],
  links: [],
  sort: [{ guid: 'f-day', datasetId: DATASET, direction: 'ASC' }],
  colors: [{ guid: 'f-region', datasetId: DATASET, title: 'region' }],
  colorsConfig: { palette: 'classic', mountedColors: { north: '1' } },
  shapes: [],
  shapesConfig: {},
  labels: [],
  tooltips: [{ guid: 'f-visits', datasetId: DATASET }],
  segments: [],
  extraSettings: { title, titleMode: 'show', legendMode: 'show', tooltipSum: 'on' },
  geopointsConfig: { radius: 8 },
});

const create = (version: string, data: unknown, extra: Record<string, unknown> = {}) =>
  rpc(stack.url, 'createWizardChart', { template: 'datalens', workbookId: SANDBOX, name: name('wizard'), data, annotation: { description: 'Line chart' }, ...extra }, version);
const get = (version: string, chartId: string, extra: Record<string, unknown> = {}) => rpc(stack.url, 'getWizardChart', { chartId, ...extra }, version);

describe.each(['1', '2'])('a version %s client', (version) => {
  it('reads back exactly the config it created, in the answer and on every read', async () => {
    const data = lineConfig('Visits by day');
    const created = await create(version, data);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ entryId: expect.any(String), scope: 'widget', version: Number(version), annotation: { description: 'Line chart' } });
    // A write's answer also holds the config as JSON text in data.shared, as the real v1 charts engine answers.
    const { shared, ...config } = created.body.data;
    expect(config).toEqual(data);
    expect(JSON.parse(shared)).toEqual(data);
    expect(created.body).not.toHaveProperty('entry');

    const read = await get(version, created.body.entryId, { includePermissions: true });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(data);
    expect(read.body).toMatchObject({ entryId: created.body.entryId, version: Number(version), permissions: { read: true } });
    expect(read.body).not.toHaveProperty('apiVersion');
  });

  it('reads back exactly the config it updated, with entryId naming the chart', async () => {
    const created = await create(version, lineConfig('Before'));
    const data = { ...lineConfig('After'), visualization: { id: 'column', placeholders: [{ id: 'x', items: [] }, { id: 'y', items: [], settings: { scale: 'auto' } }] } };
    const updated = await rpc(stack.url, 'updateWizardChart', { entryId: created.body.entryId, template: 'datalens', mode: 'publish', data }, version);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const { shared, ...config } = updated.body.data;
    expect(config).toEqual(data);
    expect(JSON.parse(shared)).toEqual(data);
    expect(updated.body.publishedId).toBe(updated.body.savedId);
    expect((await get(version, created.body.entryId, { branch: 'published' })).body.data).toEqual(data);
  });

  it('reads its config back through getEntries with includeData as well', async () => {
    const data = lineConfig('Listed');
    const created = await create(version, data);
    const listed = await rpc(stack.url, 'getEntries', { ids: version === '1' ? created.body.entryId : [created.body.entryId], includeData: true, scope: 'widget' }, version);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const row = listed.body.entries.find((e: any) => e.entryId === created.body.entryId);
    expect(row.data).toEqual(data);
  });
});

describe('what the backend holds for a chart an older client wrote', () => {
  it('is the v3 document: sources and visualization sections, no template, the rest kept only for older clients', async () => {
    const created = await create('2', lineConfig('Held'));
    const id = created.body.entryId;
    // As the gateway asks for a version 2 client: the document with its legacy part.
    const forV2 = await rpc(stack.backendUrl, 'getWizardChart', { chartId: id }, String(HEAD), { 'x-dl-client-api-version': '2' });
    const doc = forV2.body.entry.data;
    expect(doc.sources).toEqual({
      datasetsIds: [DATASET],
      updates: lineConfig('').updates,
      filters: lineConfig('').filters,
      hierarchies: [],
      links: [],
    });
    expect(doc.visualization).toMatchObject({
      type: 'line',
      x: { items: [{ guid: 'f-day' }], settings: { grid: 'on', title: 'auto' } },
      y: { items: [{ guid: 'f-visits' }], settings: {} },
      y2: { items: [] },
      colors: { items: [{ guid: 'f-region' }], settings: { palette: 'classic', mountedColors: { north: '1' } } },
      sort: { items: [{ guid: 'f-day', direction: 'ASC' }] },
      chartSettings: { title: 'Held', titleMode: 'show', legendMode: 'show', tooltipSum: 'on' },
    });
    // What the document has no place for (config version, datasetsPartialFields, tooltips, …) is kept, not dropped.
    expect(doc[LEGACY_CONFIG].rest).toMatchObject({ version: '13', type: 'datalens', datasetsPartialFields: [[{ guid: 'f-day', title: 'day' }]], tooltips: [{ guid: 'f-visits', datasetId: DATASET }], geopointsConfig: { radius: 8 } });
    expect(forV2.body.entry).toMatchObject({ version: 1, apiVersion: 2 });
    // As a version 3 client (and the web UI) read it: the document alone.
    const forV3 = await rpc(stack.backendUrl, 'getWizardChart', { chartId: id }, String(HEAD));
    expect(forV3.body.entry.data).not.toHaveProperty(LEGACY_CONFIG);
  });
});

describe('a version 3 client', () => {
  it('reads a chart saved at 1 or 2 as a v3 document, stamped with the version it was saved under', async () => {
    for (const version of ['1', '2']) {
      const created = await create(version, lineConfig(`Saved at ${version}`));
      const read = await get(V3, created.body.entryId);
      expect(read.status).toBe(200);
      expect(read.body.entry).toMatchObject({ entryId: created.body.entryId, version: 1, apiVersion: Number(version), scope: 'widget' });
      expect(read.body.entry.data).toMatchObject({ sources: { datasetsIds: [DATASET] }, visualization: { type: 'line', x: { items: [{ guid: 'f-day' }] } } });
      expect(read.body.entry.data).not.toHaveProperty(LEGACY_CONFIG);
      expect(read.body.entry.data).not.toHaveProperty('datasetsIds');
    }
  });

  it('lists charts with includeData as documents too: older clients\' charts without their legacy part, the seed\'s converted', async () => {
    const created = await create('2', lineConfig('Listed at 3'));
    const listed = await rpc(stack.url, 'getEntries', { ids: [created.body.entryId, 'ent_demo_02'], includeData: true, scope: 'widget' }, String(HEAD));
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.entries).toHaveLength(2);
    for (const row of listed.body.entries) {
      expect(row.data).toMatchObject({ sources: { datasetsIds: expect.any(Array) }, visualization: { type: expect.any(String) } });
      expect(row.data).not.toHaveProperty(LEGACY_CONFIG);
    }
  });

  it('reads the seed chart, stored before the document format, as a document', async () => {
    const read = await get(String(HEAD), 'ent_demo_02');
    expect(read.status).toBe(200);
    expect(read.body.entry.data).toMatchObject({ sources: { datasetsIds: expect.any(Array) }, visualization: { type: expect.any(String) } });
    expect(read.body.entry.data).not.toHaveProperty(LEGACY_CONFIG);
  });

  it('creates and updates with documents and chartId; older clients are refused that chart with 409', async () => {
    const doc = { sources: { datasetsIds: [DATASET] }, visualization: { type: 'line', x: { items: [] }, y: { items: [] } } };
    const created = await rpc(stack.url, 'createWizardChart', { workbookId: SANDBOX, name: name('v3'), data: doc }, V3);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.entry.entryId;
    expect(created.body.entry).toMatchObject({ version: 1, apiVersion: WIZARD_DOCUMENT_VERSION, data: doc });

    const updated = await rpc(stack.url, 'updateWizardChart', { chartId: id, mode: 'save', data: { ...doc, visualization: { type: 'area' } } }, V3);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.entry.data.visualization).toEqual({ type: 'area' });

    for (const version of ['1', '2']) {
      const read = await get(version, id);
      expect(read.status).toBe(409);
      expect(read.body).toMatchObject({
        code: 'UNSUPPORTED_OBJECT_VERSION',
        details: { objectType: 'chart', objectId: id, objectVersion: WIZARD_DOCUMENT_VERSION, requestedVersion: Number(version) },
      });
      const write = await rpc(stack.url, 'updateWizardChart', { entryId: id, template: 'datalens', mode: 'save', data: lineConfig('overwrite') }, version);
      expect(write.status).toBe(409);
      expect(write.body.code).toBe('UNSUPPORTED_OBJECT_VERSION');
    }
    // Nothing was overwritten.
    expect((await get(V3, id)).body.entry.data.visualization).toEqual({ type: 'area' });
  });

  it('is refused an old-shaped body: the v3 schema wants a document and chartId', async () => {
    const old = await rpc(stack.url, 'createWizardChart', { template: 'datalens', workbookId: SANDBOX, name: name('old'), data: lineConfig('old') }, V3);
    expect(old.status).toBe(400);
    expect(old.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('an older config the v3 document cannot express', () => {
  it('is refused with 422 VERSION_TRANSLATION_FAILED when it names no visualization', async () => {
    const answer = await create('2', { datasetsIds: [DATASET] });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'VERSION_TRANSLATION_FAILED', details: { field: 'data.visualization.id' } });
  });
});
