// What the object-version guard needs of an answer, read from the skeleton before any step runs: per guarded location,
// each object's id, the version it was saved under and whether a listing row carries its content; nothing else decoded.

import { parsePath } from '../../contract-model/field-path.js';
import type { ObjectLocation } from '../../contract-model/types.js';
import { getAt } from './field-ops.js';
import { Fallback, type Node } from './node.js';
import type { Tree } from './tree.js';

export interface Stamp {
  /** The location's index in the plan's `guarded`. */
  readonly at: number;
  readonly id: unknown;
  /** The version field's value as JSON.parse reads it (null or absent: undefined; the guard applies its policy). */
  readonly version: unknown;
  /** For a listing row: whether it carries the object's content (guardObjects' rule). */
  readonly hasContent: boolean;
}

/** The stamps of every object at the guarded locations (guardObjects' walk), null objects skipped. */
export function readStamps(t: Tree, root: Node, guarded: readonly ObjectLocation[]): Stamp[] {
  const out: Stamp[] = [];
  guarded.forEach((loc, at) => {
    for (const obj of t.collect(root, parsePath(loc.path))) {
      if (t.isNull(obj)) continue;
      // Not an object: guardObjects answers 502 with its own message; the buffered path says it.
      if (!t.isObject(obj)) throw new Fallback('not-expressible', `a ${loc.type} that is not an object`);
      const field = (key: string) => {
        const n = t.member(obj, key);
        return n === undefined ? undefined : t.decode(n);
      };
      const content = loc.listing?.content;
      out.push({ at, id: field(loc.idField ?? 'id'), version: field(loc.versionField ?? 'version'), hasContent: content !== undefined && getAt(t, obj, content).found });
    }
  });
  return out;
}
