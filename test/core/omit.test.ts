import { describe, expect, it } from 'vitest';
import { omit } from '../../src/core/contract-model/builders.js';

describe('omit', () => {
  it('copies a body without the named top-level fields and leaves the original as it was', () => {
    const body = { id: 'r1', key: 'reports/a', config: { a: 1 }, version: 1 };
    const out = omit(body, 'key', 'version');
    expect(out).toEqual({ id: 'r1', config: { a: 1 } });
    expect(body).toEqual({ id: 'r1', key: 'reports/a', config: { a: 1 }, version: 1 });
    expect(Object.keys(out)).toEqual(['id', 'config']);
  });

  it('keeps a parsed "__proto__" key as an own field and never as the copy\'s prototype', () => {
    const body = JSON.parse('{"id":"r1","__proto__":{"polluted":true},"key":"k"}') as Record<string, unknown>;
    const out = omit(body, 'key');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(out)).toBe('{"id":"r1","__proto__":{"polluted":true}}');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('copies the "__proto__" key as a plain field: enumerable, writable and configurable', () => {
    const body = JSON.parse('{"__proto__":{"a":1}}') as Record<string, unknown>;
    const out = omit(body);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')).toEqual({ value: { a: 1 }, enumerable: true, writable: true, configurable: true });
  });
});
