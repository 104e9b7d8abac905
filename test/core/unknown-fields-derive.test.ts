// The unknown-field rule written into request JSON Schemas: every object with named fields says
// additionalProperties true or false; records, values and the schema given are left as they are.
import { describe, expect, it } from 'vitest';
import { withStatedUnknownFields } from '../../src/core/derive/unknown-fields.js';

describe('withStatedUnknownFields', () => {
  it('says true where unknown fields are allowed (absent or any value) and keeps false and a value schema', () => {
    expect(withStatedUnknownFields({ type: 'object', properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: true,
    });
    expect(withStatedUnknownFields({ type: 'object', properties: {}, additionalProperties: {} }).additionalProperties).toBe(true);
    expect(withStatedUnknownFields({ type: 'object', properties: {}, additionalProperties: false }).additionalProperties).toBe(false);
    expect(withStatedUnknownFields({ type: 'object', additionalProperties: { type: 'number' } }).additionalProperties).toEqual({ type: 'number' });
    expect(withStatedUnknownFields({ properties: { a: {} } }).additionalProperties).toBe(true);
    expect(withStatedUnknownFields({ type: 'object' }).additionalProperties).toBe(true);
  });

  it('leaves records (objects keyed by a name pattern) and non-objects alone', () => {
    const record = { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string' } };
    expect(withStatedUnknownFields(record)).toEqual(record);
    expect(withStatedUnknownFields({ type: 'object', propertyNames: { type: 'string' } })).toEqual({ type: 'object', propertyNames: { type: 'string' } });
    expect(withStatedUnknownFields({ type: 'string', enum: ['a', 'b'] })).toEqual({ type: 'string', enum: ['a', 'b'] });
  });

  it('states it at every depth: properties, items, alternatives and definitions', () => {
    const out = withStatedUnknownFields({
      type: 'object',
      properties: {
        one: { type: 'object', properties: {} },
        list: { type: 'array', items: { type: 'object', properties: {} } },
        either: { anyOf: [{ type: 'object', properties: {}, additionalProperties: false }, { type: 'null' }, { type: 'object', properties: {} }] },
      },
      $defs: { Node: { type: 'object', properties: {} } },
    }) as any;
    expect(out.properties.one.additionalProperties).toBe(true);
    expect(out.properties.list.items.additionalProperties).toBe(true);
    expect(out.properties.either.anyOf).toEqual([
      { type: 'object', properties: {}, additionalProperties: false },
      { type: 'null' },
      { type: 'object', properties: {}, additionalProperties: true },
    ]);
    expect(out.$defs.Node.additionalProperties).toBe(true);
  });

  it('reads the names in properties and $defs as names, not schema keywords', () => {
    const out = withStatedUnknownFields({
      type: 'object',
      properties: { properties: { type: 'string' }, additionalProperties: { type: 'object', properties: {} } },
      $defs: { properties: { type: 'object', properties: {} } },
    }) as any;
    expect(out.properties.properties).toEqual({ type: 'string' });
    expect(out.properties.additionalProperties).toEqual({ type: 'object', properties: {}, additionalProperties: true });
    expect(out.$defs.properties.additionalProperties).toBe(true);
    expect(out.additionalProperties).toBe(true);
  });

  it('adds no field to the maps of names themselves', () => {
    const out = withStatedUnknownFields({
      type: 'object',
      properties: { properties: { type: 'object', properties: {} } },
      $defs: { properties: { type: 'object', properties: {} } },
    }) as any;
    expect(Object.keys(out.properties)).toEqual(['properties']);
    expect(Object.keys(out.$defs)).toEqual(['properties']);
  });

  it('returns a copy: the schema given is not changed', () => {
    const schema = { type: 'object', properties: { a: { type: 'object', properties: {} } } };
    const before = JSON.stringify(schema);
    withStatedUnknownFields(schema);
    expect(JSON.stringify(schema)).toBe(before);
  });
});
