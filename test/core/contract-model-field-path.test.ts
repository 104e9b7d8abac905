// The contract's path syntax (field-path.ts): segments, their errors, array steps, and the parsed-path cache.
import { describe, expect, it } from 'vitest';
import { hasElements, parsePath, parseSegment, splitPath } from '../../src/core/contract-model/field-path.js';

describe('parseSegment', () => {
  it('reads a key, an array step and a filtered array step', () => {
    expect(parseSegment('name', 'p')).toEqual({ key: 'name' });
    expect(parseSegment('*', 'p')).toEqual({ each: true });
    expect(parseSegment('*[type=chart]', 'p')).toEqual({ each: true, tag: 'type', values: ['chart'] });
    expect(parseSegment('*[type=chart|title]', 'p')).toEqual({ each: true, tag: 'type', values: ['chart', 'title'] });
    expect(parseSegment('main[type=chart|title]', 'p')).toEqual({ key: 'main', tag: 'type', values: ['chart', 'title'] });
  });

  it('reads a key that merely ends with a star as a key, not as an array step', () => {
    expect(parseSegment('a*', 'p')).toEqual({ key: 'a*' });
    expect(parsePath('x.a*')).toEqual([{ key: 'x' }, { key: 'a*' }]);
  });

  it('refuses a forbidden key or tag in a filtered key, naming the segment and the path', () => {
    expect(() => parseSegment('constructor[type=x]', 'a.constructor[type=x]')).toThrow(
      'forbidden path segment "constructor[type=x]" in "a.constructor[type=x]"',
    );
    expect(() => parseSegment('main[__proto__=x]', 'main[__proto__=x]')).toThrow('forbidden path segment "main[__proto__=x]" in "main[__proto__=x]"');
    expect(() => parseSegment('*[prototype=x]', 'p')).toThrow('forbidden path segment "*[prototype=x]" in "p"');
  });

  it('refuses an empty segment and stray brackets as malformed', () => {
    expect(() => splitPath('a..b')).toThrow('malformed path segment "" in "a..b"');
    expect(() => splitPath('a.')).toThrow('malformed path segment "" in "a."');
    expect(() => parseSegment('', 'x')).toThrow('malformed path segment "" in "x"');
    expect(() => parseSegment('a[b]', 'x')).toThrow('malformed path segment "a[b]" in "x"');
    expect(() => parseSegment('a]', 'x')).toThrow('malformed path segment "a]" in "x"');
    // A filter is the whole segment's end, after a key with no star or bracket.
    expect(() => parseSegment('a[type=x]b', 'x')).toThrow('malformed path segment "a[type=x]b" in "x"');
    expect(() => parseSegment('a*b[type=x]', 'x')).toThrow('malformed path segment "a*b[type=x]" in "x"');
    expect(() => parseSegment('*[type=x]b', 'x')).toThrow('malformed path segment "*[type=x]b" in "x"');
  });
});

describe('hasElements', () => {
  it('tells whether a path steps into arrays anywhere', () => {
    expect(hasElements('a.*.b')).toBe(true);
    expect(hasElements('a.b.*')).toBe(true);
    expect(hasElements('*[type=x]')).toBe(true);
    expect(hasElements('a.b')).toBe(false);
    expect(hasElements('a[type=x].b')).toBe(false);
    expect(hasElements('')).toBe(false);
  });
});

describe('parsePath', () => {
  it('returns the same frozen segments for the same path text', () => {
    const first = parsePath('cache.*[type=x].b');
    expect(first).toEqual([{ key: 'cache' }, { each: true, tag: 'type', values: ['x'] }, { key: 'b' }]);
    expect(Object.isFrozen(first)).toBe(true);
    expect(parsePath('cache.*[type=x].b')).toBe(first);
  });
});
