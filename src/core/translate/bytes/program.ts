// A rewrite program: the steps of a plan's answer migration as data (field operations and declared edits, each on the
// body or on the objects of a kind at their locations), and the trie of the paths they go through.

import { parsePath } from '../../contract-model/field-path.js';
import type { Located } from '../field-ops.js';
import { type Edit, editPaths } from './rules.js';
import { type Trie, emptyTrie } from './scan.js';

/** One field operation as data (../field-ops.ts); `convert` is the value function of a converted rename. */
export type ByteOp =
  | { readonly kind: 'fill'; readonly path: string; readonly value: unknown }
  | { readonly kind: 'restore'; readonly path: string; readonly value: unknown }
  | { readonly kind: 'drop'; readonly path: string }
  | { readonly kind: 'move'; readonly from: string; readonly to: string; readonly convert?: (value: unknown, existing: unknown) => unknown }
  | { readonly kind: 'toArray'; readonly path: string }
  | { readonly kind: 'fromArray'; readonly path: string }
  | { readonly kind: 'edits'; readonly edits: readonly Edit[] };

/** Where a step runs: on the body itself, or on every object of one kind at its locations (onLocated's rule). */
export interface Step {
  readonly at: 'body' | readonly Located[];
  readonly op: ByteOp;
}

export interface Program {
  readonly steps: readonly Step[];
  readonly trie: Trie;
}

/** A path's steps as trie keys: a key (its filter left out) or `*`. */
const keysOf = (path: string): string[] => parsePath(path).map((s) => ('each' in s ? '*' : s.key));

function add(trie: Trie, keys: readonly string[]): void {
  let node = trie;
  for (const k of keys) {
    if (k === '*') node = node.each ??= emptyTrie();
    else {
      let next = node.keys.get(k);
      if (!next) node.keys.set(k, (next = emptyTrie()));
      node = next;
    }
  }
}

/** The paths an operation reads or writes inside the object (or body) it runs on. */
function opPaths(op: ByteOp): string[][] {
  switch (op.kind) {
    case 'move':
      return [keysOf(op.from), keysOf(op.to)];
    case 'edits':
      return editPaths(op.edits);
    default:
      return [keysOf(op.path)];
  }
}

/** A program of steps, with the trie of every path they go through (those containers are read on the one pass). */
export function programOf(steps: readonly Step[], extraPaths: readonly string[] = []): Program {
  const trie = emptyTrie();
  for (const step of steps) {
    const prefixes = step.at === 'body' ? [[]] : step.at.map((l) => keysOf(l.path));
    for (const prefix of prefixes) for (const inner of opPaths(step.op)) add(trie, [...prefix, ...inner]);
  }
  for (const p of extraPaths) add(trie, keysOf(p));
  return Object.freeze({ steps: Object.freeze([...steps]), trie });
}
