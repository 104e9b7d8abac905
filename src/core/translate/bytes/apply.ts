// Runs a program's steps on the skeleton in the plan's order: each step on the body, or on every object of its kind at
// its locations (the slots found afresh for each location, as onLocated finds them).

import { parsePath, parseSegment, splitPath } from '../../contract-model/field-path.js';
import { contentKey, type Located } from '../field-ops.js';
import { drop, fill, fromArray, move, restore, toArray } from './field-ops.js';
import type { Node } from './node.js';
import type { ByteOp, Step } from './program.js';
import { applyEdits } from './rules.js';
import type { Tree } from './tree.js';

/** The objects at one location, as onLocated's slotsOf finds them. */
export function located(t: Tree, root: Node, loc: Located): Node[] {
  if (loc.path === '') return t.isObject(root) ? [root] : [];
  const parts = splitPath(loc.path);
  const step = parseSegment(parts.pop() as string, loc.path);
  const found: Node[] = [];
  for (const holder of t.collect(root, parsePath(parts.join('.')))) {
    if ('each' in step) {
      if (t.isArray(holder)) for (const kid of t.open(holder).all()) if (t.isObject(kid) && t.matches(step, kid)) found.push(kid);
    } else if (t.isObject(holder)) {
      const kid = t.member(holder, step.key);
      if (t.isObject(kid) && t.matches(step, kid)) found.push(kid);
    }
  }
  return found;
}

function run(t: Tree, o: Node, op: ByteOp): void {
  switch (op.kind) {
    case 'fill':
      return fill(t, o, op.path, op.value);
    case 'restore':
      return restore(t, o, op.path, op.value);
    case 'drop':
      return drop(t, o, op.path);
    case 'move':
      return move(t, o, op.from, op.to, op.convert);
    case 'toArray':
      return toArray(t, o, op.path);
    case 'fromArray':
      return fromArray(t, o, op.path);
    case 'edits':
      return applyEdits(t, t.open(o), op.edits);
    default: {
      const never: never = op;
      throw new Error(`unknown operation ${(never as ByteOp).kind}`);
    }
  }
}

/** The paths a field operation reads or writes (contentKey's rule); declared edits, like object migrations, have none. */
const pathsOf = (op: ByteOp): readonly string[] | undefined => (op.kind === 'edits' ? undefined : op.kind === 'move' ? [op.from, op.to] : [op.path]);

/** Every step, in order, on a body that is an object, or a list when `elements` (translateResponse leaves any other body as it is). */
export function applySteps(t: Tree, root: Node, steps: readonly Step[], elements = false): void {
  if (!t.isObject(root) && !(elements && t.isArray(root))) return;
  for (const step of steps) {
    if (step.at === 'body') {
      run(t, root, step.op);
      continue;
    }
    for (const loc of step.at) {
      const need = contentKey(loc, pathsOf(step.op));
      for (const o of located(t, root, loc)) if (need === undefined || t.member(o, need) !== undefined) run(t, o, step.op);
    }
  }
}
