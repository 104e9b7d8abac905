// Answers already translated down, kept by a digest of the backend's bytes and of what the translation depended on
// (src/edge/rpc/answer-reuse.ts builds the keys; src/adapters/cache/translated-answers.ts keeps them).

export interface TranslatedAnswers {
  /** Answers shorter than this are translated every time: digesting them would cost about what it saves. */
  readonly minAnswerBytes: number;
  /** The translated body kept under `key`, if it is still kept. */
  get(key: string): Buffer | undefined;
  /** Keeps `translated` under `key` (evicting the least recently used) unless it alone exceeds the bound. */
  set(key: string, translated: Buffer): void;
}
