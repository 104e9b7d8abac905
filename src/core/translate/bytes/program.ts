// A rewrite program: the steps of a plan's answer migration as data (field operations and declared edits, each on the
// body or on the objects of a kind at their locations), and the trie of the paths they go through.

import { parsePath } from '../../contract-model/field-path.js';
import type { ObjectLocation } from '../../contract-model/types.js';
import type { Located } from '../field-ops.js';
import type { Edit } from './rules.js';
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

/** The trie node a path leads to from `trie` (made as needed), each filter's tag named where it is read. */
function add(trie: Trie, path: string): Trie {
  let node = trie;
  for (const seg of parsePath(path)) {
    if ('each' in seg) node = node.each ??= emptyTrie();
    else {
      let next = node.keys.get(seg.key);
      if (!next) node.keys.set(seg.key, (next = emptyTrie()));
      node = next;
    }
    if (seg.tag !== undefined) node.leaves.add(seg.tag);
  }
  return node;
}

const key = (trie: Trie, k: string): Trie => add(trie, k);

/** The keys declared edits read and step into, from the object they run on. */
function addEdits(trie: Trie, edits: readonly Edit[]): void {
  for (const e of edits) {
    if ('within' in e) addEdits(key(trie, e.within), e.then);
    else if ('eachIn' in e) addEdits((key(trie, e.eachIn).each ??= emptyTrie()), e.then);
    else if ('when' in e) {
      for (const c of e.when) trie.leaves.add(c.key);
      addEdits(trie, e.then);
    } else if ('copyString' in e) {
      key(trie, e.copyString.from[0]).leaves.add(e.copyString.from[1]);
      key(trie, e.copyString.into[0]).leaves.add(e.copyString.into[1]);
    } else if ('default' in e) {
      trie.leaves.add(e.default);
      if (typeof e.value === 'object' && e.value !== null && 'notEqual' in e.value) trie.leaves.add((e.value as { notEqual: { key: string } }).notEqual.key);
    } else trie.leaves.add('setUnlessType' in e ? e.setUnlessType : e.dropIf);
  }
}

/** The trie nodes of an operation's paths inside the object (or body) it runs on. */
function addOp(trie: Trie, op: ByteOp): void {
  if (op.kind === 'move') {
    add(trie, op.from);
    add(trie, op.to);
  } else if (op.kind === 'edits') addEdits(trie, op.edits);
  else add(trie, op.path);
}

/** A program of steps, with the trie of every path they go through (those containers are read on the one pass). */
/** `guarded`: where the guard reads stamps (their id and version fields, a listing's content path, named on the pass). */
export function programOf(steps: readonly Step[], guarded: readonly ObjectLocation[] = []): Program {
  const trie = emptyTrie();
  for (const step of steps) {
    if (step.at === 'body') addOp(trie, step.op);
    else for (const l of step.at) addOp(l.path === '' ? trie : add(trie, l.path), step.op);
  }
  for (const loc of guarded) {
    const at = loc.path === '' ? trie : add(trie, loc.path);
    at.leaves.add(loc.idField ?? 'id').add(loc.versionField ?? 'version');
    if (loc.listing?.content !== undefined) add(at, loc.listing.content);
  }
  return Object.freeze({ steps: Object.freeze([...steps]), trie });
}
