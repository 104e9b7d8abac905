// The shipped v3 dashboard changes as plans: selectors' fieldType, group selectors, global items, and the rules'
// edges (a pair already there, a list already there, a description already in the annotation).
import { describe, expect, it } from 'vitest';
import { HEAD } from '../../helpers/calendar.js';
import { shippedContract } from '../../../src/contract/index.js';
import { loadContract } from '../../../src/core/contract-model/load.js';
import type { Json, MigrationContext } from '../../../src/core/contract-model/types.js';
import { translateRequest, translateResponse } from '../../../src/core/translate/engine.js';
import { buildPlan, type MethodPlan } from '../../../src/core/translate/plan.js';
import { NO_SERVICES } from '../../helpers/no-services.js';

const loaded = loadContract(shippedContract);
const ctx: MigrationContext = { clientVersion: 2, callBackend: async () => ({}), principal: 'p', state: new Map(), services: NO_SERVICES };
const plan = (version: number, method: string): MethodPlan => buildPlan(loaded, version, method)!;
const up = (version: number, body: Json) => translateRequest(plan(version, 'createDashboard'), structuredClone(body), ctx);
const down = (version: number, body: Json) => translateResponse(plan(version, 'getDashboard'), structuredClone(body), ctx) as Promise<Json>;

const selector = (id: string, sourceType: string, source: Json): Json => ({ id, namespace: 'default', type: 'control', defaults: {}, data: { title: id, sourceType, source } });
const withItems = (items: Json[], globalItems?: Json[]): Json => ({
  entry: { data: { tabs: [{ id: 't', title: 'T', items, layout: [], connections: [], aliases: {}, ...(globalItems && { globalItems }) }] }, meta: {} },
});
const itemsOf = (body: Json) => ((((body.entry as Json).data as Json).tabs as Json[])[0]!.items as Json[]);

describe('selectors’ fieldType at version 3', () => {
  it('keeps a dataset selector’s data type, leaves any other value out, and drops a non-date manual selector’s', async () => {
    const sent = withItems([
      selector('a', 'dataset', { datasetId: 'd', datasetFieldId: 'f', elementType: 'select', fieldType: 'string' }),
      selector('b', 'dataset', { datasetId: 'd', datasetFieldId: 'f', elementType: 'select', fieldType: 'DIMENSION' }),
      selector('c', 'manual', { fieldName: 'x', elementType: 'select', fieldType: 'string' }),
      selector('d', 'manual', { fieldName: 'x', elementType: 'date', fieldType: 'date' }),
      {
        id: 'g', namespace: 'default', type: 'group_control',
        data: { autoHeight: false, buttonApply: false, buttonReset: false, showGroupName: false, group: [{ id: 'g1', title: 'g1', namespace: 'default', sourceType: 'manual', source: { fieldName: 'y', elementType: 'input', fieldType: 'string' } }] },
      },
    ]);
    const items = itemsOf(await up(2, sent));
    const sources = items.slice(0, 4).map((i) => ((i.data as Json).source as Json).fieldType);
    expect(sources).toEqual(['string', undefined, undefined, 'date']);
    expect((((items[4]!.data as Json).group as Json[])[0]!.source as Json)).not.toHaveProperty('fieldType');
  });

  it('gives an older client "string" back on a manual non-date selector', async () => {
    const answer = {
      entry: {
        entryId: 'e', apiVersion: 2, version: 2, annotation: null,
        data: { tabs: [{ id: 't', title: 'T', layout: [], connections: [], aliases: {}, items: [selector('c', 'manual', { fieldName: 'x', elementType: 'select' })] }] },
      },
    };
    const read = await down(2, answer);
    expect((((itemsOf(read)[0]!.data as Json).source as Json).fieldType)).toBe('string');
    expect((read.entry as Json).version).toBe(1);
  });
});

describe('what version 3 lets out, an older client reads with the v1 format’s defaults', () => {
  const answerWith = (items: Json[], globalItems: Json[] = []): Json => ({
    entry: { entryId: 'e', apiVersion: 2, version: 2, annotation: null, data: { tabs: [{ id: 't', title: 'T', layout: [], connections: [], aliases: {}, items, globalItems }] } },
  });
  const group = (members: Json[]): Json => ({
    id: 'g', namespace: 'default', type: 'group_control', data: { autoHeight: false, buttonApply: false, buttonReset: false, showGroupName: false, group: members },
  });

  it('fills a title’s named size and showInTOC, a widget tab’s description and isDefault, a selector’s showTitle, multiselectable and isRange, a grouped selector’s defaults', async () => {
    const answer = answerWith([
      { id: 'ti', namespace: 'default', type: 'title', data: { text: 'Sales', size: { fontSize: 20 } } },
      { id: 'w', namespace: 'default', type: 'widget', data: { hideTitle: false, tabs: [{ id: 'wt', title: 'Visits', chartId: 'c', params: {} }] } },
      selector('s', 'dataset', { datasetId: 'd', datasetFieldId: 'f', elementType: 'select', titlePlacement: 'hide' }),
      group([{ id: 'g1', title: 'g1', namespace: 'default', sourceType: 'manual', source: { fieldName: 'x', elementType: 'date' } }]),
    ]);
    const items = itemsOf(await down(2, answer)).map((i) => i.data as Json);
    expect(items[0]).toEqual({ text: 'Sales', size: 'm', showInTOC: false });
    expect((items[1]!.tabs as Json[])[0]).toEqual({ id: 'wt', title: 'Visits', chartId: 'c', params: {}, description: '', isDefault: false });
    expect(items[2]!.source).toMatchObject({ showTitle: false, multiselectable: false });
    const member = (items[3]!.group as Json[])[0]!;
    expect(member.defaults).toEqual({});
    expect(member.source).toMatchObject({ showTitle: true, isRange: false });
  });

  it('keeps what is there, leaves a single selector’s "asGroup" out (items and global items), and leaves an external selector as it is', async () => {
    const kept = selector('k', 'manual', { fieldName: 'x', elementType: 'select', showTitle: false, multiselectable: true });
    const asGroup = { ...selector('a', 'external', { chartId: 'c' }), data: { title: 'a', sourceType: 'external', source: { chartId: 'c' }, impactType: 'asGroup' } };
    const read = await down(2, answerWith([kept, asGroup], [structuredClone(asGroup)]));
    const tab = (((read.entry as Json).data as Json).tabs as Json[])[0]!;
    const [keptData, asGroupData] = (tab.items as Json[]).map((i) => i.data as Json);
    expect(keptData!.source).toMatchObject({ showTitle: false, multiselectable: true });
    expect(asGroupData).toEqual({ title: 'a', sourceType: 'external', source: { chartId: 'c' } });
    expect((tab.globalItems as Json[])[0]!.data).toEqual({ title: 'a', sourceType: 'external', source: { chartId: 'c' } });
  });
});

describe('the rules’ edges', () => {
  it('a description already in the annotation wins; a widgetTabIds list already there stays', async () => {
    const sent = withItems([{ id: 'n', namespace: 'default', type: 'neuro_widget', data: { prompt: 'p', hideTitle: false, widgetTabId: 'a', widgetTabIds: ['b', 'c'] } }]);
    ((sent.entry as Json).data as Json).description = 'old';
    (sent.entry as Json).annotation = { description: 'kept' };
    const migrated = await up(1, sent);
    expect((migrated.entry as Json).annotation).toEqual({ description: 'kept' });
    expect((migrated.entry as Json).data).not.toHaveProperty('description');
    expect(itemsOf(migrated)[0]!.data).toEqual({ prompt: 'p', hideTitle: false, widgetTabIds: ['b', 'c'] });
  });

  it('global items’ background becomes the themed pair too, and comes back as one colour', async () => {
    const sent = withItems([], [{ id: 'gl', namespace: 'default', type: 'control', defaults: {}, data: { title: 'gl', sourceType: 'external', source: { chartId: 'c' }, background: { color: '#ABCDEF' } } }]);
    const migrated = await up(2, sent);
    const global = ((((migrated.entry as Json).data as Json).tabs as Json[])[0]!.globalItems as Json[])[0]!.data as Json;
    expect(global.backgroundSettings).toEqual({ color: { light: '#ABCDEF', dark: '#ABCDEF' } });
    expect(global).not.toHaveProperty('background');
  });

  it('the head’s plan passes through: nothing is migrated at the head', () => {
    expect(plan(HEAD, 'createDashboard').passThrough).toBe(true);
    expect(plan(2, 'createDashboard').up.length).toBeGreaterThan(0);
  });
});
