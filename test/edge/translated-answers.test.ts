// Answers translated down are kept and served again (cache.translatedAnswers), through a real gateway in front of the
// reference backend: the same bytes read again at the same version are served as kept, different bytes (an update,
// an object saved under a newer version) are translated or refused anew, and a translation whose migrations consulted
// more than the answer (a lookup in the guard's round trip) is never kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD } from '../helpers/calendar.js';
import { REPORT_CONTENT, REPORT_DESCRIPTION } from '../helpers/head-shapes.js';
import { oldDashboardData } from '../helpers/old-dashboard.js';
import { rpc, startStack, type Stack } from '../helpers/stack.js';

type Json = Record<string, any>;

/** A dashboard's data in the v1/v2 shape (the changes of version 3 turn its colours and widgetTabId around). */
const oldData = (text: string): Json =>
  oldDashboardData(
    [
      { id: 'title1', namespace: 'default', type: 'title', data: { text, size: 'l', showInTOC: true, textColor: '#112233', background: { color: '#FFEEDD' } } },
      { id: 'ai1', namespace: 'default', type: 'neuro_widget', data: { prompt: 'Explain', hideTitle: false, widgetTabId: 'w1' } },
    ],
    { counter: 1, salt: 'kept-answers', description: 'kept answers' },
  );

/** The counter's values by result (reused, translated, not_reusable); {} when nothing was looked up. */
async function lookups(stack: Stack): Promise<Record<string, number>> {
  const metric = await stack.metrics.registry.getSingleMetric('dlgw_translated_answers_total')?.get();
  return Object.fromEntries((metric?.values ?? []).map((v) => [String(v.labels.result), v.value]));
}

/** A report created on the backend as a client of `version` saved it (the stamp the guard reads). */
async function backendReport(stack: Stack, version: number): Promise<string> {
  const res = await rpc(stack.backendUrl, 'createReport', { workbookId: 'wb_demo_marketing', [REPORT_CONTENT]: { a: 1 }, [REPORT_DESCRIPTION]: 'kept', legacyKey: `reports/marketing/kept-${version}-${Date.now()}` }, String(HEAD), { 'x-dl-client-api-version': String(version) });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

describe('with every answer looked up (minAnswerBytes 0)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ config: { cache: { translatedAnswers: { minAnswerBytes: 0 } } } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('serves the same dashboard read again as kept, a changed one translated anew, and one saved at the head refused', async () => {
    const created = await rpc(stack.url, 'createDashboard', { entry: { workbookId: 'wb_demo_sandbox', name: `kept-${Date.now()}`, data: oldData('Sales'), meta: {} } }, '2');
    expect(created.status).toBe(200);
    const id = created.body.entry.entryId as string;
    const before = await lookups(stack);

    const first = await rpc(stack.url, 'getDashboard', { dashboardId: id }, '2');
    const again = await rpc(stack.url, 'getDashboard', { dashboardId: id }, '2');
    for (const read of [first, again]) {
      expect(read.status).toBe(200);
      expect(read.body.entry.data).toEqual(oldData('Sales'));
      expect(read.headers.get('content-length')).toBe(String(Buffer.byteLength(JSON.stringify(read.body))));
    }
    expect(await lookups(stack)).toMatchObject({ translated: (before.translated ?? 0) + 1, reused: (before.reused ?? 0) + 1 });

    // An update at v2 changes the backend's bytes: translated anew, and the new text is read.
    const updated = await rpc(stack.url, 'updateDashboard', { entry: { entryId: id, data: oldData('Revenue'), meta: {} }, mode: 'save' }, '2');
    expect(updated.status).toBe(200);
    const changed = await rpc(stack.url, 'getDashboard', { dashboardId: id }, '2');
    expect(changed.body.entry.data).toEqual(oldData('Revenue'));
    expect((await lookups(stack)).translated).toBe((before.translated ?? 0) + 3); // the update's own answer, then the read

    // Saved at the head with a list of two insight tabs, which version 2 cannot carry: refused, never the kept answer.
    const headData = (await rpc(stack.url, 'getDashboard', { dashboardId: id }, String(HEAD))).body.entry.data;
    headData.tabs[0].items[1].data.widgetTabIds = ['w1', 'w2'];
    const atHead = await rpc(stack.url, 'updateDashboard', { entry: { entryId: id, data: headData, meta: {} }, mode: 'save' }, String(HEAD));
    expect(atHead.status).toBe(200);
    const refused = await rpc(stack.url, 'getDashboard', { dashboardId: id }, '2');
    expect(refused.status).toBe(409);
    expect(refused.body.details).toMatchObject({ objectType: 'dashboard', objectId: id, requestedVersion: 2 });
  });

  it('keeps answers per version: a v1 read of the same bytes is translated for v1, then served as kept', async () => {
    const id = await backendReport(stack, 1);
    const before = await lookups(stack);
    const v1 = await rpc(stack.url, 'getReport', { reportId: id }, '1');
    const v1again = await rpc(stack.url, 'getReport', { reportId: id }, '1');
    for (const read of [v1, v1again]) {
      expect(read.status).toBe(200);
      expect(read.body).toHaveProperty('key');
      expect(read.body).not.toHaveProperty('workbookId');
    }
    expect(v1again.body).toEqual(v1.body);
    expect(await lookups(stack)).toMatchObject({ translated: (before.translated ?? 0) + 1, reused: (before.reused ?? 0) + 1 });
  });

  it('never keeps a translation that consulted more than the answer (the guard\'s round trip looks the key up)', async () => {
    // Saved at 2, read at 1: the lossless guard takes the report back up, which resolves its key through the services.
    const id = await backendReport(stack, 2);
    const before = await lookups(stack);
    for (let i = 0; i < 2; i++) {
      const read = await rpc(stack.url, 'getReport', { reportId: id }, '1');
      expect(read.status).toBe(200);
      expect(read.body).toHaveProperty('key');
    }
    const after = await lookups(stack);
    expect(after.not_reusable).toBe((before.not_reusable ?? 0) + 2);
    expect(after.reused ?? 0).toBe(before.reused ?? 0);
  });
});

describe('the defaults, and the reuse turned off', () => {
  let defaults: Stack;
  let off: Stack;
  beforeAll(async () => {
    defaults = await startStack();
    off = await startStack({ config: { cache: { translatedAnswers: { maxBytes: 0, minAnswerBytes: 0 } } } });
  });
  afterAll(async () => {
    await defaults?.close();
    await off?.close();
  });

  it('by default, answers under 16 KiB are translated every time without a lookup', async () => {
    const id = await backendReport(defaults, 1);
    for (let i = 0; i < 2; i++) expect((await rpc(defaults.url, 'getReport', { reportId: id }, '1')).status).toBe(200);
    expect(await lookups(defaults)).toEqual({});
  });

  it('with maxBytes 0 nothing is kept or looked up, and the answers are the same', async () => {
    const id = await backendReport(off, 1);
    const reads = [await rpc(off.url, 'getReport', { reportId: id }, '1'), await rpc(off.url, 'getReport', { reportId: id }, '1')];
    expect(reads.map((r) => r.status)).toEqual([200, 200]);
    expect(reads[1]!.body).toEqual(reads[0]!.body);
    expect(await lookups(off)).toEqual({});
  });

  it('with nothing kept, a short and a long translated answer in several-byte characters come whole, their length in bytes', async () => {
    // Both sides of the length from which an answer is encoded once (handler.ts): 40 and 40,000 Cyrillic characters.
    for (const text of ['Выручка '.repeat(5), 'Выручка '.repeat(5_000)]) {
      const created = await rpc(off.url, 'createDashboard', { entry: { workbookId: 'wb_demo_sandbox', name: `bytes-${text.length}-${Date.now()}`, data: oldData(text), meta: {} } }, '2');
      expect(created.status).toBe(200);
      const res = await fetch(`${off.url}/rpc/getDashboard`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dl-api-version': '2' },
        body: JSON.stringify({ dashboardId: created.body.entry.entryId }),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(bytes.byteLength));
      expect(bytes.byteLength).toBeGreaterThan(text.length);
      expect(JSON.parse(bytes.toString('utf8')).entry.data).toEqual(oldData(text));
    }
  });
});
