// The impact report as a person reads it: each declared change once with the methods it touches (not once per
// method and field), counts and days in words. Shared by the admin page and the CLI; pure data in, data out.

import type { AffectedUse } from './report.js';

/** What one change touches of one method the client calls. */
export interface MethodTouched {
  readonly method: string;
  /** The method goes away, or its calls change as a whole (a custom change naming no field). */
  readonly whole: boolean;
  /** Its answer changes. */
  readonly answer: boolean;
  /** Request fields the client sent that the change touches, in the contract's path syntax. */
  readonly paths: readonly string[];
  /** Calls that met the change: every call for the answer or the method, else those that sent one of the fields. */
  readonly calls: number;
}

/** One declared change a client will meet, with every method of the client it touches listed once. */
export interface ChangeMet {
  /** The version that brings it. */
  readonly version: number;
  readonly kind: string;
  readonly description: string;
  readonly methods: readonly MethodTouched[];
}

interface Draft {
  whole: boolean;
  answer: boolean;
  paths: string[];
  calls: number;
}

/** The affected uses grouped by change (version, kind, description), oldest version first, methods by name. */
export function changesMet(affected: readonly AffectedUse[]): ChangeMet[] {
  const byChange = new Map<string, { version: number; kind: string; description: string; methods: Map<string, Draft> }>();
  for (const use of affected) {
    const key = `${use.version}\u0000${use.kind}\u0000${use.description}`;
    let change = byChange.get(key);
    if (!change) byChange.set(key, (change = { version: use.version, kind: use.kind, description: use.description, methods: new Map() }));
    let draft = change.methods.get(use.method);
    if (!draft) change.methods.set(use.method, (draft = { whole: false, answer: false, paths: [], calls: 0 }));
    if (use.scope === 'method') draft.whole = true;
    else if (use.scope === 'response') draft.answer = true;
    else if (use.path !== undefined && !draft.paths.includes(use.path)) draft.paths.push(use.path);
    // Calls of one method that met the change: the largest count among its uses (they overlap, so no sum).
    draft.calls = Math.max(draft.calls, use.calls);
  }
  return [...byChange.values()]
    .sort((a, b) => a.version - b.version)
    .map((c) => ({
      version: c.version,
      kind: c.kind,
      description: c.description,
      methods: [...c.methods.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([method, d]) => ({ method, ...d })),
    }));
}

/** What of a method a change touches, in words: "removed" or "the whole call", the fields sent, "answer". */
export function touchedParts(m: MethodTouched, kind: string): string[] {
  const parts: string[] = [];
  if (m.whole) parts.push(kind === 'methodRemoved' ? 'removed' : 'the whole call');
  parts.push(...m.paths.map((p) => `sends \`${p}\``));
  if (m.answer) parts.push('answer');
  return parts;
}

/** A count with its noun in the right number: "1 call", "2 calls", "0 clients". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Whole calendar days (UTC) from `from` to `to`: 0 on the same day, negative once `to` is past. */
export function calendarDaysBetween(from: Date, to: Date): number {
  const dayOf = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return Math.round((dayOf(to) - dayOf(from)) / 86_400_000);
}

/** A day counted from today, in words: "today", "tomorrow", "in 3 days", "yesterday", "28 days ago". */
export function relativeDays(days: number): string {
  if (days === 0) return 'today';
  if (days === 1) return 'tomorrow';
  if (days === -1) return 'yesterday';
  return days > 0 ? `in ${plural(days, 'day')}` : `${plural(-days, 'day')} ago`;
}
