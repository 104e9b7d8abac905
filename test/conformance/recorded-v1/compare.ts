// The recordings' placeholders bound to the gateway's own values, and the key-path comparison of a real answer
// with ours: every key path of the real answer present in ours with the same JSON type (keys we add are allowed).

/** A whole string that names a recorded volatile value, e.g. `<collectionId:archive>`. */
const PLACEHOLDER = /^<[A-Za-z]+(?::[A-Za-z0-9]+)*>$/;
/** Placeholders whose values are not ids: never bound, never put into a request. */
const UNBOUND = new Set(['<time>', '<requestId>']);

export const isPlaceholder = (value: unknown): value is string => typeof value === 'string' && PLACEHOLDER.test(value);

/** The JSON type of a value, as a client's parser sees it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Placeholder → the value the gateway answered where the recording had that placeholder. */
export class Bindings {
  private readonly values = new Map<string, unknown>();

  /** The bound value; throws when no earlier answer gave it (the replay's order is broken). */
  get(placeholder: string): unknown {
    if (!this.values.has(placeholder)) throw new Error(`no earlier answer gave ${placeholder}`);
    return this.values.get(placeholder);
  }

  set(placeholder: string, value: unknown): void {
    this.values.set(placeholder, value);
  }

  /** The request to send: every placeholder (value or object key) replaced by the gateway's value. */
  fill(recorded: unknown): unknown {
    if (isPlaceholder(recorded) && !UNBOUND.has(recorded)) return this.get(recorded);
    if (Array.isArray(recorded)) return recorded.map((item) => this.fill(item));
    if (recorded !== null && typeof recorded === 'object') {
      return Object.fromEntries(Object.entries(recorded).map(([k, v]) => [isPlaceholder(k) ? String(this.get(k)) : k, this.fill(v)]));
    }
    return recorded;
  }

  /** Binds every id placeholder of the real answer not bound yet to our value at the same path. */
  learn(real: unknown, ours: unknown): void {
    if (isPlaceholder(real)) {
      if (!UNBOUND.has(real) && !this.values.has(real) && typeof ours === 'string') this.values.set(real, ours);
      return;
    }
    if (Array.isArray(real)) {
      if (Array.isArray(ours)) real.forEach((item, i) => this.learn(item, ours[i]));
      return;
    }
    if (real !== null && typeof real === 'object' && ours !== null && typeof ours === 'object' && !Array.isArray(ours)) {
      for (const [key, value] of Object.entries(real)) {
        if (isPlaceholder(key)) continue;
        this.learn(value, (ours as Record<string, unknown>)[key]);
      }
    }
  }

  /** An object key of the real answer as our answer spells it (a placeholder key becomes its bound id). */
  key(real: string): string {
    return isPlaceholder(real) && this.values.has(real) ? String(this.values.get(real)) : real;
  }
}

/**
 * The differences of our answer from the real one, one line each: `missing <path>` or `<path>: <real type> → <our
 * type>`. Array items are compared by position; items we add past the real ones are allowed.
 */
export function shapeDifferences(real: unknown, ours: unknown, bindings: Bindings, path = ''): string[] {
  const here = path === '' ? '(root)' : path;
  if (jsonType(real) !== jsonType(ours)) return [`${here}: ${jsonType(real)} → ${jsonType(ours)}`];
  if (Array.isArray(real)) {
    const list = ours as unknown[];
    return real.flatMap((item, i) => (i < list.length ? shapeDifferences(item, list[i], bindings, `${path}[${i}]`) : [`missing ${path}[${i}]`]));
  }
  if (real === null || typeof real !== 'object') return [];
  const mine = ours as Record<string, unknown>;
  return Object.entries(real).flatMap(([key, value]) => {
    const ourKey = bindings.key(key);
    const at = path === '' ? key : `${path}.${key}`;
    return Object.hasOwn(mine, ourKey) ? shapeDifferences(value, mine[ourKey], bindings, at) : [`missing ${at}`];
  });
}
