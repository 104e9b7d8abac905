// Where translations keep what they learn (v1 page tokens, legacy-key lookups): strings under string keys,
// each entry with its own time to live, held in process or shared between replicas. Pure interface, no I/O.

/** A key-value cache whose methods never reject: any trouble in the store reads as a miss. */
export interface CacheStore {
  /** The values of `keys`, in order; undefined where absent, expired or unreadable. */
  getMany(keys: readonly string[]): Promise<ReadonlyArray<string | undefined>>;
  /** The value when this process holds it now, without a promise (no shared-store round trip); undefined otherwise. */
  peek(key: string): string | undefined;
  /** Stores `value` for `ttlMs`; resolves once stored or given up on. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
}
