// The Wizard config ↔ v3 document mapping on its own (pure functions): any config an older client sends comes back
// exactly, through JSON, and the document holds the moved values at their v3 places.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEGACY_CONFIG, configDown, configUp, isWizardDocument, withoutLegacy } from '../../../src/contract/v3/wizard-config.js';

const json = fc.jsonValue({ maxDepth: 2 });
const key = fc.oneof(fc.constantFrom('x', 'y', 'y2', 'rows', 'colors', 'type', 'layers', '__proto__', 'constructor', 'items'), fc.string({ maxLength: 6 }));
// Ids mostly from a small pool, so that duplicates and reserved names come up often.
const placeholderId = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('x', 'y', 'rows', 'colors', '__proto__') }, { weight: 1, arbitrary: fc.oneof(key, fc.integer()) });
const placeholder = fc.record({ id: placeholderId, items: json, settings: json, title: fc.string(), type: fc.string() }, { requiredKeys: ['id'] });
const common = fc.record({ colors: json, colorsConfig: json, labels: json, sort: json, shapes: json, tooltips: json, filters: json }, { requiredKeys: [] });
const layer = fc.oneof(
  { weight: 4, arbitrary: fc.record({ id: fc.oneof(fc.string(), json), type: fc.constant('layer'), name: fc.string(), layerSettings: json, commonPlaceholders: fc.oneof(common, json), placeholders: fc.array(placeholder, { maxLength: 4 }) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: json },
);
const visualization = fc.record(
  { id: fc.oneof(fc.string(), json), type: fc.string(), name: fc.string(), placeholders: fc.oneof({ weight: 4, arbitrary: fc.array(fc.oneof({ weight: 4, arbitrary: placeholder }, { weight: 1, arbitrary: json }), { maxLength: 4 }) }, { weight: 1, arbitrary: json }), layers: fc.array(layer, { maxLength: 3 }), selectedLayerId: json },
  { requiredKeys: [] },
);
const config = fc
  .tuple(
    fc.record(
      { version: fc.string(), type: fc.constant('datalens'), visualization: fc.oneof({ weight: 4, arbitrary: visualization }, { weight: 1, arbitrary: json }), datasetsIds: json, datasetsPartialFields: json, updates: json, filters: json, hierarchies: json, links: json, sort: json, colors: json, colorsConfig: json, shapes: json, shapesConfig: json, labels: json, tooltips: json, segments: json, extraSettings: json },
      { requiredKeys: [] },
    ),
    fc.dictionary(key, json, { maxKeys: 3 }),
  )
  .map(([known, extra]) => JSON.parse(JSON.stringify({ ...extra, ...known })) as Record<string, unknown>);

const viaJson = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe('Wizard config → v3 document → config', () => {
  it('gives back exactly the config, also after the document went through JSON', () => {
    fc.assert(
      fc.property(config, (c) => {
        const before = structuredClone(c);
        const doc = configUp(c);
        expect(c).toEqual(before); // the input is not touched
        expect(isWizardDocument(doc)).toBe(true);
        expect(configDown(viaJson(doc))).toEqual(c);
      }),
      { numRuns: 500 },
    );
  });

  it('puts sources, sections and chart settings where the v3 schema has them, and nothing moved stays behind', () => {
    const c = {
      version: '15',
      visualization: { id: 'line', placeholders: [{ id: 'x', items: [1], settings: { grid: 'on' } }, { id: 'y', items: [2] }] },
      datasetsIds: ['ds'],
      filters: [3],
      colors: [4],
      colorsConfig: { palette: 'p' },
      sort: [5],
      extraSettings: { title: 't' },
      datasetsPartialFields: [[]],
    };
    const doc = configUp(c);
    expect(withoutLegacy(doc)).toEqual({
      sources: { datasetsIds: ['ds'], filters: [3] },
      visualization: { type: 'line', x: { items: [1], settings: { grid: 'on' } }, y: { items: [2] }, colors: { items: [4], settings: { palette: 'p' } }, sort: { items: [5] }, chartSettings: { title: 't' } },
    });
    expect((doc[LEGACY_CONFIG] as { rest: unknown }).rest).toEqual({ version: '15', visualization: { placeholders: [{ id: 'x' }, { id: 'y' }] }, datasetsPartialFields: [[]] });
  });

  it('maps a layered visualization layer by layer (WizardV1CombinedChartLayerSchema: type, layerSettings, sections)', () => {
    const c = {
      visualization: {
        id: 'combined-chart',
        selectedLayerId: 'l1',
        layers: [{ id: 'line', type: 'layer', layerSettings: { id: 'l1', name: 'Layer 1' }, commonPlaceholders: { colors: [1], labels: [2], tooltips: [3] }, placeholders: [{ id: 'x', items: [4] }] }],
      },
    };
    const doc = configUp(c);
    expect(withoutLegacy(doc)).toEqual({
      sources: { datasetsIds: [] },
      visualization: { type: 'combined-chart', selectedLayerId: 'l1', layers: [{ type: 'line', layerSettings: { id: 'l1', name: 'Layer 1' }, colors: { items: [1] }, labels: { items: [2] }, x: { items: [4] } }] },
    });
    expect(configDown(doc)).toEqual(c);
  });

  it('gives a canonical config for a document no older client wrote (placeholders in document order, the config version it is written in)', () => {
    const doc = { sources: { datasetsIds: ['ds'] }, visualization: { type: 'area', x: { items: [1] }, y: { items: [], settings: { s: 1 } }, colors: { items: [2], settings: { palette: 'p' } }, chartSettings: { title: 't' } } };
    expect(configDown(doc)).toEqual({
      datasetsIds: ['ds'],
      colors: [2],
      colorsConfig: { palette: 'p' },
      extraSettings: { title: 't' },
      visualization: { id: 'area', placeholders: [{ id: 'x', items: [1] }, { id: 'y', items: [], settings: { s: 1 } }] },
      // Open-source DataLens's charts engine refuses a config that does not say its version.
      version: '15',
    });
  });

  it('keeps a "__proto__" key of a config as data, never as a prototype', () => {
    const c = JSON.parse('{"visualization":{"id":"line","__proto__":{"polluted":true}},"__proto__":{"x":1}}');
    const down = configDown(viaJson(configUp(c)));
    expect(Object.getPrototypeOf(down)).toBe(Object.prototype);
    const own = (o: unknown) => Object.getOwnPropertyDescriptor(o, '__proto__')?.value;
    expect(own(down)).toEqual({ x: 1 });
    expect(own(down.visualization)).toEqual({ polluted: true });
    expect((down.visualization as { id: unknown }).id).toBe('line');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
