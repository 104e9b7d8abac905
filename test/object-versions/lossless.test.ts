// The default rule (objects.olderClients: lossless), every object kind through a real gateway in front of the
// reference backend: once the web UI saves an object (under the head version), a version-1 client still reads it when
// its kind did not change since version 1, or when the round trip down to version 1 and back loses nothing; otherwise
// 409 naming the kind, the saved version and what version 1 cannot carry. Writes follow the kinds that did not change.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import { shippedContract } from '../../src/contract/index.js';
import { buildPlan } from '../../src/core/translate/plan.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { stampAt } from '../helpers/head-body.js';
import { REPORT_DESCRIPTION } from '../helpers/head-shapes.js';
import { CALENDAR, type Stack, rpc, startStack } from '../helpers/stack.js';
import { HEAD_HEADER, KINDS, asWebUi as asWebUiAt, dashData, shows, type Body } from './kinds.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
const asWebUi = (method: string, body: Body) => asWebUiAt(stack.backendUrl, method, body);

const loaded = loadContract(shippedContract);
/** Whether the contract declares a change to what `method` answers between version 1 and the head (from the plan, not a list). */
const changedSince1 = (method: string) => (buildPlan(loaded, 1, method)?.kinds?.get(KIND_OF[method] as string)?.changedAt.length ?? 0) > 0;
const KIND_OF: Record<string, string> = Object.fromEntries(KINDS.map((k) => [k.read('x')[0], k.type]));

describe.each(KINDS)('$kind', (k) => {
  let id: string;
  const readMethod = k.read('x')[0];
  const unchanged = !changedSince1(readMethod);
  beforeAll(async () => {
    const [method, body] = k.create;
    const created = await rpc(stack.url, method, body, '1');
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    id = k.idOf(created.body);
    expect((await asWebUi(...k.write(id, 'web'))).status).toBe(200);
  });

  it('once the web UI saves it, version 1 reads it whole, or gets 409 naming what version 1 cannot carry', async () => {
    const r = await rpc(stack.url, ...k.read(id), '1');
    if (r.status === 200) {
      expect(k.contentOf(r.body)).toBe('web');
      expect(stampAt(1, readMethod, r.body)).toBe(HEAD);
    } else {
      // Only a kind the contract changed since version 1 may be refused, and the refusal says why.
      expect(unchanged).toBe(false);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({
        code: 'UNSUPPORTED_OBJECT_VERSION',
        details: { objectType: k.type, objectId: id, objectVersion: HEAD, requestedVersion: 1, rule: 'lossless' },
      });
      expect(r.body.details.fields.length > 0 || typeof r.body.details.reason === 'string').toBe(true);
    }
    if (unchanged) expect(r.status).toBe(200);
  });

  it('a version-1 write goes through on a kind that did not change since version 1, and is refused (nothing overwritten) on one that did', async () => {
    const r = await rpc(stack.url, ...k.write(id, 'old client'), '1');
    const after = (await rpc(stack.url, ...k.read(id), HEAD_HEADER)).body;
    if (unchanged) {
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(shows(after, 'old client')).toBe(true);
      expect(stampAt(HEAD, readMethod, after)).toBe(1);
    } else {
      expect(r.status).toBe(409);
      expect(shows(after, 'web')).toBe(true);
      expect(shows(after, 'old client')).toBe(false);
    }
  });
});

describe('the round trip decides for a changed kind (dashboards at version 3)', () => {
  const theme = (light: string, dark: string) => ({ backgroundSettings: { color: { light, dark } } });
  const withItem = (extra: Body) => {
    const data = dashData('themed') as { tabs: Body[] } & Body;
    const item = { id: 'i1', type: 'text', namespace: 'default', data: { text: 'hello', ...extra } };
    return { ...data, tabs: [{ ...data.tabs[0], items: [item], layout: [{ i: 'i1', h: 2, w: 2, x: 0, y: 0 }] }] };
  };
  const save = async (data: Body) => {
    const created = await rpc(stack.backendUrl, 'createDashboard', { entry: { workbookId: 'wb_demo_sandbox', name: `Themed ${Math.random()}`, data, meta: {} } }, HEAD_HEADER);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.entry.entryId as string;
  };

  // The version whose change made dashboard items' colours themed pairs (3), found in the contract; read the one before.
  const themed = loaded.versions.find((v) => loaded.byVersion.get(v)!.changes.some((c) => c.kind === 'fieldRenamed' && c.convert && c.to === 'data.tabs.*.items.*.data.backgroundSettings.color'));
  const before = (themed ?? HEAD) - 1;

  it('serves a dashboard the web UI saved when its item colour is the same in both themes, and refuses it, naming the field, when it is not', async () => {
    // Skipped in substance when the contract declares no themed colours (nothing to round-trip).
    if (themed === undefined || !buildPlan(loaded, before, 'getDashboard')?.kinds?.get('dashboard')?.changedAt.includes(themed)) return;
    const same = await save(withItem(theme('#111111', '#111111')));
    const ok = await rpc(stack.url, 'getDashboard', { dashboardId: same }, String(before));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const differs = await save(withItem(theme('#111111', '#eeeeee')));
    const refused = await rpc(stack.url, 'getDashboard', { dashboardId: differs }, String(before));
    expect(refused.status).toBe(409);
    expect(refused.body.details).toMatchObject({ objectType: 'dashboard', objectId: differs, objectVersion: HEAD, requestedVersion: before, rule: 'lossless' });
    expect(refused.body.details.fields).toEqual(['data.tabs.0.items.0.data.backgroundSettings.color.dark']);
  });
});

describe('a report the web UI moves out of the workbook its version 1 key names', () => {
  it('is read at version 1 while its key still names its workbook, and refused naming workbookId once moved', async () => {
    const created = await rpc(stack.url, 'createReport', { key: 'reports/marketing/lossless', config: { rows: 1 } }, '1');
    expect(created.status).toBe(200);
    const reportId = created.body.id as string;
    expect((await rpc(stack.backendUrl, 'updateReport', { reportId, [REPORT_DESCRIPTION]: 'edited in the UI' }, HEAD_HEADER)).status).toBe(200);
    const read = await rpc(stack.url, 'getReport', { reportId }, '1');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ description: 'edited in the UI', version: HEAD, key: 'reports/marketing/lossless' });
    expect((await rpc(stack.backendUrl, 'updateReport', { reportId, workbookId: 'wb_demo_sales' }, HEAD_HEADER)).status).toBe(200);
    const moved = await rpc(stack.url, 'getReport', { reportId }, '1');
    expect(moved.status).toBe(409);
    expect(moved.body.details).toEqual({
      objectType: 'report',
      objectId: reportId,
      objectVersion: HEAD,
      requestedVersion: 1,
      minVersion: HEAD,
      rule: 'lossless',
      fields: ['workbookId'],
    });
    expect(JSON.stringify(moved.body)).not.toContain('edited in the UI');
  });
});

describe('getEntries with includeData, a read of each row', () => {
  it('serves at the version before the head a row of a kind that round-trips (a dataset the UI saved), and refuses a Wizard chart\'s', async () => {
    const at = String(HEAD - 1);
    const dataset = await rpc(stack.url, 'getEntries', { ids: ['ent_demo_03'], includeData: true }, at);
    expect(dataset.status, JSON.stringify(dataset.body)).toBe(200);
    expect(dataset.body.entries[0]).toMatchObject({ entryId: 'ent_demo_03', version: HEAD });
    const wizard = await rpc(stack.url, 'getEntries', { ids: ['ent_demo_02'], includeData: true }, at);
    // A Wizard chart's row loses its document going down (what it read back up is not what is stored).
    if (wizard.status !== 200) {
      expect(wizard.status).toBe(409);
      expect(wizard.body.details).toMatchObject({ objectType: 'entry', objectId: 'ent_demo_02', objectVersion: HEAD, requestedVersion: HEAD - 1 });
    }
  });
});

describe('the demo seed at version 1', () => {
  it('serves the web-UI-saved dataset, connection and collection (kinds unchanged since version 1)', async () => {
    for (const [method, body] of [
      ['getDataset', { datasetId: 'ent_demo_03' }],
      ['getConnection', { connectionId: 'ent_demo_04' }],
      ['getCollection', { collectionId: 'col_demo_analytics' }],
    ] as const) {
      expect((await rpc(stack.url, method, body, '1')).status, method).toBe(200);
    }
  });
});

describe('the write grant is the gateway\'s own', () => {
  it('a version 1 client that sends x-dl-client-writes-through itself still cannot overwrite a report the web UI saved', async () => {
    const created = await rpc(stack.url, 'createReport', { key: 'reports/marketing/grant', config: { rows: 1 } }, '1');
    const reportId = created.body.id as string;
    expect((await rpc(stack.backendUrl, 'updateReport', { reportId, [REPORT_DESCRIPTION]: 'UI' }, HEAD_HEADER)).status).toBe(200);
    const before = stack.backend!.requests.length;
    const res = await fetch(`${stack.url}/rpc/updateReport`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dl-api-version': '1', 'x-dl-client-writes-through': `report=${HEAD}` },
      body: JSON.stringify({ reportId, description: 'overwritten' }),
    });
    expect(res.status).toBe(409);
    expect((await rpc(stack.url, 'getReport', { reportId }, HEAD_HEADER)).body).toMatchObject({ [REPORT_DESCRIPTION]: 'UI', version: HEAD });
    // The backend saw the gateway's grant for version 1 (reports not in it), not the client's.
    const seen = stack.backend!.requests.slice(before).find((r) => r.url === '/rpc/updateReport');
    expect(seen?.headers['x-dl-client-writes-through']).toBe(buildPlan(loaded, 1, 'updateReport')?.writeGrant);
    expect(seen?.headers['x-dl-client-writes-through']).not.toContain('report=');
  });
});

describe('objects.olderClients in the config', () => {
  const problemsOf = (objects: unknown): readonly string[] => {
    try {
      parseConfig({ lifecycle: CALENDAR, objects }, {}, '(test)', { contractVersions: VERSIONS });
    } catch (e) {
      if (e instanceof ConfigError) return e.problems;
      throw e;
    }
    return [];
  };

  it('takes lossless (the default) and refuse-newer, and names anything else', () => {
    expect(parseConfig({ lifecycle: CALENDAR }, {}, '(test)', { contractVersions: VERSIONS }).config.objects.olderClients).toBe('lossless');
    expect(problemsOf({ olderClients: 'refuse-newer' })).toEqual([]);
    const problems = problemsOf({ olderClients: 'strict' });
    expect(problems.some((p) => p.startsWith('objects.olderClients') && p.includes('lossless') && p.includes('refuse-newer'))).toBe(true);
    expect(problemsOf({ olderClient: 'lossless' }).some((p) => p.includes('olderClient'))).toBe(true);
  });
});
