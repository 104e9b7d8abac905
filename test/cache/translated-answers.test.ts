// The store of translated answers (src/adapters/cache/translated-answers.ts): bounded in bytes, least recently used first.
import { describe, expect, it } from 'vitest';
import { createTranslatedAnswers } from '../../src/adapters/cache/translated-answers.js';

const body = (n: number, fill = 'x') => Buffer.from(fill.repeat(n));

describe('translated answers kept in memory', () => {
  it('is not made when maxBytes is 0', () => {
    expect(createTranslatedAnswers({ maxBytes: 0, minAnswerBytes: 0 })).toBeUndefined();
  });

  it('keeps bodies and their keys within maxBytes, evicting the least recently used', () => {
    const kept = createTranslatedAnswers({ maxBytes: 1_000, minAnswerBytes: 16 })!;
    expect(kept.minAnswerBytes).toBe(16);
    kept.set('a', body(400, 'a'));
    kept.set('b', body(400, 'b'));
    expect(kept.get('a')?.toString()).toBe('a'.repeat(400)); // a is now the most recently used
    kept.set('c', body(400, 'c'));
    expect(kept.get('b')).toBeUndefined();
    expect(kept.get('a')?.byteLength).toBe(400);
    expect(kept.get('c')?.byteLength).toBe(400);
  });

  it('leaves out a body larger than the whole bound, and keeps what it held', () => {
    const kept = createTranslatedAnswers({ maxBytes: 1_000, minAnswerBytes: 0 })!;
    kept.set('small', body(100));
    kept.set('large', body(1_000)); // with its key, over the bound
    expect(kept.get('large')).toBeUndefined();
    expect(kept.get('small')?.byteLength).toBe(100);
  });
});
