// Rewrites an answer's bytes along a program in one pass: read (validating every byte), edit the few containers on
// declared paths, write back as slices; anything it cannot do gives a fallback, for the buffered path.

import type { ObjectLocation } from '../../contract-model/types.js';
import { locatesElements } from '../paths.js';
import { applySteps } from './apply.js';
import { emit } from './emit.js';
import { Fallback, type FallbackReason } from './node.js';
import type { Program } from './program.js';
import { Scanner } from './scan.js';
import { type Stamp, readStamps } from './stamps.js';
import { Tree } from './tree.js';

export type RewriteResult =
  | { readonly kind: 'rewritten'; readonly chunks: Buffer[]; readonly length: number; readonly stamps: readonly Stamp[] }
  | { readonly kind: 'fallback'; readonly reason: FallbackReason; readonly detail: string };

/** `guarded`: the plan's object locations, whose stamps come back for the guard (read before any step runs). */
export function rewrite(bytes: Uint8Array, program: Program, guarded: readonly ObjectLocation[] = []): RewriteResult {
  try {
    const scan = new Scanner(bytes);
    const root = scan.document(program.trie);
    const tree = new Tree(scan);
    const stamps = readStamps(tree, root, guarded);
    try {
      applySteps(tree, root, program.steps, locatesElements(guarded));
    } catch (e) {
      // A migration that throws fails the same way on the buffered path, which reports it.
      throw e instanceof Fallback ? e : new Fallback('migration-threw', e instanceof Error ? e.message : String(e));
    }
    return { kind: 'rewritten', ...emit(scan.b, root), stamps };
  } catch (e) {
    if (e instanceof Fallback) return { kind: 'fallback', reason: e.reason, detail: e.message };
    throw e;
  }
}

/** Fallbacks by reason, for the caller's metric (the core keeps no counters of its own). */
export type FallbackCounts = Partial<Record<FallbackReason, number>>;

export function countFallback(counts: FallbackCounts, result: RewriteResult): void {
  if (result.kind === 'fallback') counts[result.reason] = (counts[result.reason] ?? 0) + 1;
}
