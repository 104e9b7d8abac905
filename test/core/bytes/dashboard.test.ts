// The real dashboard change on the bytes: getDashboard's answer at versions 2 and 1, rewritten from the head's bytes,
// parses to exactly what the buffered translation gives; olderItemFields' declared edits do what the function does.

import { describe, expect, it } from 'vitest';
import { realShapedDashboardData } from '../../../bench/dashboard.js';
import { shippedContract } from '../../../src/contract/index.js';
import { OLDER_ITEM_FIELDS } from '../../../src/contract/v3/dashboards-edits.js';
import { olderItemFields } from '../../../src/contract/v3/dashboards-changes.js';
import { loadContract } from '../../../src/core/contract-model/load.js';
import type { Json, MigrationContext } from '../../../src/core/contract-model/types.js';
import { programFor, programOf, rewrite } from '../../../src/core/translate/bytes/index.js';
import { translateRequest, translateResponse } from '../../../src/core/translate/engine.js';
import { buildPlan } from '../../../src/core/translate/plan.js';
import { NO_SERVICES } from '../../helpers/no-services.js';

const loaded = loadContract(shippedContract);
const ctx = (): MigrationContext => ({ clientVersion: 2, callBackend: async () => ({}), principal: 't', state: new Map(), services: NO_SERVICES });

/** The head's answer to getDashboard for the real-shaped dashboard a v2 client saved (as bench/dash-translate.ts builds it). */
async function headAnswer(): Promise<string> {
  const upPlan = buildPlan(loaded, 2, 'createDashboard');
  if (!upPlan) throw new Error('no plan');
  const up = (await translateRequest(upPlan, { entry: { workbookId: 'wb', name: 'n', data: realShapedDashboardData(), meta: {} } }, ctx())) as { entry: Json };
  const { data, annotation } = up.entry as { data: Json; annotation?: Json };
  return JSON.stringify({ entry: { entryId: 'ent_b', scope: 'dash', type: '', key: null, workbookId: 'wb', version: 2, apiVersion: 2, data, meta: {}, annotation: annotation ?? null } });
}

const joined = (r: ReturnType<typeof rewrite>) => {
  if (r.kind !== 'rewritten') throw new Error(`fell back: ${r.reason} ${r.detail}`);
  return Buffer.concat(r.chunks).toString('utf8');
};

describe('getDashboard on the bytes', () => {
  for (const version of [2, 1]) {
    it(`at version ${version}: the rewritten answer parses to the buffered translation`, async () => {
      const answer = await headAnswer();
      const plan = buildPlan(loaded, version, 'getDashboard');
      const made = programFor(loaded, version, 'getDashboard');
      if (!plan || made.kind !== 'program') throw new Error(made.kind === 'buffered' ? made.reason : 'no plan');
      const buffered = await translateResponse(plan, JSON.parse(answer), ctx());
      expect(JSON.parse(joined(rewrite(Buffer.from(answer), made.program)))).toEqual(buffered);
    });
  }

  it('copies most of the answer as views of its bytes (few chunks written)', async () => {
    const answer = Buffer.from(await headAnswer());
    const made = programFor(loaded, 2, 'getDashboard');
    if (made.kind !== 'program') throw new Error(made.reason);
    const r = rewrite(answer, made.program);
    if (r.kind !== 'rewritten') throw new Error(r.reason);
    const viewed = r.chunks.filter((c) => c.buffer === answer.buffer).reduce((n, c) => n + c.length, 0);
    expect(viewed / r.length).toBeGreaterThan(0.9);
  });
});

describe('olderItemFields declared as edits', () => {
  const entry = (items: Json[]) => ({ data: { tabs: [{ id: 't', items, globalItems: items.map((i) => structuredClone(i)) }, 'not a tab', { items: 'none' }] } });
  const cases: Record<string, Json[]> = {
    'a title with a font size and no showInTOC': [{ type: 'title', data: { size: { fontSize: 12 }, text: 'x' } }, { type: 'title', data: { size: 'l', showInTOC: true } }],
    'widget tabs without description or isDefault': [{ type: 'widget', data: { tabs: [{ id: 'a' }, { id: 'b', description: 'd', isDefault: true }, 3] } }],
    'selectors of every source': [
      { type: 'control', data: { impactType: 'asGroup', sourceType: 'dataset', source: { elementType: 'select', titlePlacement: 'hide' } } },
      { type: 'control', data: { impactType: 'allTabs', sourceType: 'manual', source: { elementType: 'date' } } },
      { type: 'control', data: { sourceType: 'external', source: { elementType: 'select' } } },
      { type: 'control', data: { source: 'not an object' } },
    ],
    'selector groups': [{ type: 'group_control', data: { group: [{ sourceType: 'manual', source: { elementType: 'select', showTitle: false } }, { defaults: { a: 1 }, source: {} }, null] } }],
    'items of other shapes': [{ type: 'text', data: { text: 'x' } }, { type: 'title', data: 'x' }, { type: 'title' }, { data: { size: 1 } }],
  };
  for (const [name, items] of Object.entries(cases)) {
    it(`on ${name}: the same as the function`, () => {
      const body = entry(items);
      const r = rewrite(Buffer.from(JSON.stringify(body)), programOf([{ at: 'body', op: { kind: 'edits', edits: OLDER_ITEM_FIELDS } }]));
      expect(JSON.parse(joined(r))).toEqual(olderItemFields(structuredClone(body)));
    });
  }
});

describe('the guard reads its stamps on the pass', () => {
  it('gets the dashboard id and the version it was saved under, before any step', async () => {
    const made = programFor(loaded, 2, 'getDashboard');
    if (made.kind !== 'program') throw new Error(made.reason);
    const r = rewrite(Buffer.from(await headAnswer()), made.program, made.guarded);
    expect(r.kind === 'rewritten' && r.stamps).toEqual([{ at: 0, id: 'ent_b', version: 2, hasContent: false }]);
  });
});
