// Custom migrations that are only edits can say so as data: the rewriter applies the declared edits in their place.
// A migration without a declaration keeps its plan on the buffered path.

import type { BodyMigration } from '../../contract-model/types.js';
import { markObjectEdit } from '../field-ops.js';
import type { Edit } from './rules.js';

const declared = new WeakMap<BodyMigration, readonly Edit[]>();

/** Declares what an object (or answer) migration does as edits of the object it is given; returns it unchanged. */
export function declareEdits<F extends BodyMigration>(migration: F, edits: readonly Edit[]): F {
  declared.set(migration, Object.freeze([...edits]));
  // Edits of the object it is given and nothing else: plans may run it in one walk with field steps.
  markObjectEdit(migration);
  return migration;
}

export const editsOf = (migration: BodyMigration): readonly Edit[] | undefined => declared.get(migration);
