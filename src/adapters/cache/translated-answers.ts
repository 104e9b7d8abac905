// The in-process store of answers already translated down (ports/translated-answers.ts), bounded in bytes.

import { LRUCache } from 'lru-cache';
import type { TranslatedAnswers } from '../../ports/translated-answers.js';

export interface TranslatedAnswersOptions {
  /** The bound on the kept bodies and their keys together; 0 keeps nothing (and the store is not made). */
  readonly maxBytes: number;
  readonly minAnswerBytes: number;
}

/** The store, or undefined when `maxBytes` is 0 (every answer is translated on each request). */
export function createTranslatedAnswers(options: TranslatedAnswersOptions): TranslatedAnswers | undefined {
  if (options.maxBytes <= 0) return undefined;
  const cache = new LRUCache<string, Buffer>({
    maxSize: options.maxBytes,
    sizeCalculation: (value, key) => value.byteLength + key.length,
  });
  return {
    minAnswerBytes: options.minAnswerBytes,
    get: (key) => cache.get(key),
    set(key, translated) {
      // An answer larger than the whole bound is not kept (lru-cache would refuse it as well).
      if (translated.byteLength + key.length <= options.maxBytes) cache.set(key, translated);
    },
  };
}
