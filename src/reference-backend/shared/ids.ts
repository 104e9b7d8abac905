// Short random object ids with a type prefix: rep_…, wb_…, ent_…, col_…, exp_…, imp_….

import { randomUUID } from 'node:crypto';

export type IdPrefix = 'rep' | 'wb' | 'ent' | 'col' | 'exp' | 'imp' | 'rev';

/** `<prefix>_` + 16 hex characters taken from a random UUID (60 random bits; collisions are re-drawn by the stores). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

/** A fresh id not yet in `taken`. */
export function freshId(prefix: IdPrefix, taken: { has(id: string): boolean }): string {
  for (;;) {
    const id = newId(prefix);
    if (!taken.has(id)) return id;
  }
}
