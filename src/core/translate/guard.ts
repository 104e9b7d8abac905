// The object-version guard's rule: whether an object saved under one version may be served to a client of another,
// and the round trip that proves nothing is lost. Pure: both the buffered and any streamed answer path call it.

import type { Json, MigrationContext } from '../contract-model/types.js';
import { isPromiseLike } from './promise-like.js';

/**
 * What older clients get for an object saved under a newer version: `lossless` serves it when nothing of it is lost
 * at their version; `refuse-newer` is DataLens's documented rule (every such object refused).
 */
export type OlderClientsRule = 'lossless' | 'refuse-newer';
export const OLDER_CLIENTS_RULES: readonly OlderClientsRule[] = ['lossless', 'refuse-newer'];

/** The operator's rule and the newest released version at the time of the request. */
export interface GuardPolicy {
  readonly olderClients: OlderClientsRule;
  /** Versions above it are not released yet: no client can ask for them, so the strict rule never refuses their objects. */
  readonly releasedThrough: number;
  /**
   * The version an object without its stamp (absent or null) was saved under, for a backend that stamps nothing
   * (open-source DataLens: every object it holds is version 1's); an answer translated up gets that stamp. Unset, such
   * an object is the backend's fault (502).
   */
  readonly unstampedVersion?: number;
}

/** The default: lossless, every version released (tests and tools that do not run a calendar). */
export const DEFAULT_POLICY: GuardPolicy = Object.freeze({ olderClients: 'lossless', releasedThrough: Number.MAX_SAFE_INTEGER });

/** One object-level migration step (the object itself in, the migrated object out). */
export type ObjectStep = (o: Json, ctx: MigrationContext) => Json | Promise<Json>;

/** What the contract says about one kind between a client's version and the head. */
export interface KindHistory {
  /** Versions above the client's whose changes touch the kind (as this method answers it), ascending. */
  readonly changedAt: readonly number[];
  /** Object-level steps head → client version. */
  readonly down: readonly ObjectStep[];
  /** Object-level steps client version → head (the way back, for the round trip). */
  readonly up: readonly ObjectStep[];
  /** Set when a change declares no way back for the kind: the round trip cannot be checked, so it counts as lossy. */
  readonly noWayBack?: string;
}

export type GuardDecision = 'serve' | 'check' | 'refuse';

/**
 * The rule for one object: saved at or below the client's version → served; saved above the head the gateway knows,
 * or (strict rule) under a released newer version → refused; otherwise served as it is when its kind has no change in
 * (client, saved], and checked by the round trip when it has.
 */
export function decideObject(policy: GuardPolicy, head: number, clientVersion: number, savedVersion: number, changedAt: readonly number[]): GuardDecision {
  if (savedVersion <= clientVersion) return 'serve';
  if (savedVersion > head) return 'refuse';
  if (policy.olderClients === 'refuse-newer' && savedVersion <= policy.releasedThrough) return 'refuse';
  for (const v of changedAt) if (v > clientVersion && v <= savedVersion) return 'check';
  return 'serve';
}

async function runSteps(steps: readonly ObjectStep[], o: Json, ctx: MigrationContext): Promise<Json> {
  let current = o;
  for (const step of steps) {
    const out = step(current, ctx);
    current = isPromiseLike(out) ? await out : out;
  }
  return current;
}

const MAX_PATHS = 20;

/** Paths (dotted, array indexes as numbers) where `a` and `b` differ, at most MAX_PATHS; [] when deeply equal. */
export function differences(a: unknown, b: unknown, at = '', out: string[] = []): string[] {
  if (out.length >= MAX_PATHS || Object.is(a, b)) return out;
  const join = (k: string | number) => (at === '' ? String(k) : `${at}.${k}`);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) out.push(join(i));
      else differences(a[i], b[i], join(i), out);
      if (out.length >= MAX_PATHS) break;
    }
    return out;
  }
  const objA = typeof a === 'object' && a !== null && !Array.isArray(a);
  const objB = typeof b === 'object' && b !== null && !Array.isArray(b);
  if (objA && objB) {
    const ra = a as Json;
    const rb = b as Json;
    for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
      const inA = Object.hasOwn(ra, k) && ra[k] !== undefined;
      const inB = Object.hasOwn(rb, k) && rb[k] !== undefined;
      if (inA !== inB) out.push(join(k));
      else if (inA) differences(ra[k], rb[k], join(k), out);
      if (out.length >= MAX_PATHS) break;
    }
    return out;
  }
  out.push(at);
  return out;
}

/**
 * The round trip: `stored` (head-shaped) translated down to the client's version and up again. Returns the paths of
 * the stored object the client's version cannot carry (none = nothing lost), or why the trip cannot be made (then
 * the object counts as lossy: the guard never fails open). `stored` is not modified.
 */
export async function lostFields(history: KindHistory, stored: Json, ctx: MigrationContext): Promise<{ fields: string[]; reason?: string }> {
  if (history.noWayBack !== undefined) return { fields: [], reason: history.noWayBack };
  let back: Json;
  try {
    back = await runSteps(history.up, await runSteps(history.down, structuredClone(stored), ctx), ctx);
  } catch {
    return { fields: [], reason: 'the object does not translate back up to the version it was saved under' };
  }
  return { fields: differences(stored, back) };
}
