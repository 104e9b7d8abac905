// Custom migrations that are only edits can say so as data: the rewriter applies the declared edits in their place.
// A migration without a declaration keeps its plan on the buffered path.

import type { BodyMigration } from '../../contract-model/types.js';
import type { Edit } from './rules.js';

const declared = new WeakMap<BodyMigration, readonly Edit[]>();

/** Declares what an object (or answer) migration does as edits of the object it is given; returns it unchanged. */
export function declareEdits<F extends BodyMigration>(migration: F, edits: readonly Edit[]): F {
  declared.set(migration, Object.freeze([...edits]));
  return migration;
}

export const editsOf = (migration: BodyMigration): readonly Edit[] | undefined => declared.get(migration);
