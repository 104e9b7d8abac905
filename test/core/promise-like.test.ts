import { describe, expect, it } from 'vitest';
import { isPromiseLike } from '../../src/core/translate/promise-like.js';

describe('isPromiseLike (which migration results are awaited)', () => {
  it('is true for promises and thenables, false for plain values, null and undefined', () => {
    expect(isPromiseLike(Promise.resolve(1))).toBe(true);
    expect(isPromiseLike({ then: () => undefined })).toBe(true);
    expect(isPromiseLike({ then: 'not a function' })).toBe(false);
    expect(isPromiseLike({ a: 1 })).toBe(false);
    expect(isPromiseLike(null)).toBe(false);
    expect(isPromiseLike(undefined)).toBe(false);
  });
});
