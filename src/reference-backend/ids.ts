// Short random object ids with a type prefix: rep_…, wb_…, ent_….

import { randomUUID } from 'node:crypto';

export type IdPrefix = 'rep' | 'wb' | 'ent';

/** `<prefix>_` + 16 hex characters taken from a random UUID (60 random bits; collisions are re-drawn by the store). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}
