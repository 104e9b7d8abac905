// Short random object ids with a type prefix: rep_…, wb_…, ent_…, col_…, exp_…, imp_…; and real US's check of an id
// this backend does not hold.

import { randomUUID } from 'node:crypto';
import { BackendError } from './errors.js';

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

/**
 * The id check of real DataLens's storage (United Storage), for an id this backend does not hold.
 *
 * Real US reads every id argument as its own encoding before it looks anything up (datalens-tech/datalens-us
 * 91ff69b9ce377ece7cf4e82a2b7105418d672fc9, src/components/zod/custom-types/encoded-id.ts: a string of
 * ENCODED_ID_LENGTH = 13 characters, then decoded by src/utils/utils.ts `decodeId`): anything else is 400
 * VALIDATION_ERROR with `details: {title: <the issue's code>, description: 'Validation error', details: [<zod
 * issues>]}`, as the recorded v1 answers show (../shared/reference/datalens-oss-v1-recordings.json, call 60
 * `getWorkbook {workbookId: 'short'}` → `too_small`, exact length 13; call 76 `{workbookId: 'zzzzzzzzzzzzz'}` →
 * `custom`, "id '…' has incorrect format"). A well-formed id that names nothing is then 404, as here.
 *
 * Only an id written in US's alphabet (0-9, a-z) is read as US reads it. Any other is of this backend's own forms,
 * which US ids never are: its ids hold a `_` (`wb_…`, `ent_…`, the demo seed's `wb_demo_sales`), and callers name
 * absent objects freely (`no-such-collection`); such an id, when absent, is simply not found.
 */
export function checkForeignId(id: string, field: string): void {
  if (!US_WRITTEN.test(id)) return;
  const issue =
    id.length < US_ID_LENGTH
      ? { origin: 'string', code: 'too_small', minimum: US_ID_LENGTH, inclusive: true, exact: true, path: [field], message: `Too small: expected string to have >=${US_ID_LENGTH} characters` }
      : id.length > US_ID_LENGTH
        ? { origin: 'string', code: 'too_big', maximum: US_ID_LENGTH, inclusive: true, exact: true, path: [field], message: `Too big: expected string to have <=${US_ID_LENGTH} characters` }
        : decodesAsUsId(id)
          ? undefined
          : { code: 'custom', message: `id '${id}' has incorrect format`, path: [field] };
  if (issue === undefined) return;
  throw new BackendError('VALIDATION_ERROR', `${field} is not an id: ${issue.message}.`, {
    title: issue.code,
    description: 'Validation error',
    details: [issue],
    // The form of this backend's other validation answers, beside US's.
    issues: [{ path: field, message: issue.message }],
  });
}

/** The length of every id real US issues. */
const US_ID_LENGTH = 13;
const US_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const US_WRITTEN = /^[0-9a-z]+$/;

/**
 * Whether a 13-character id decodes as US decodes ids (src/utils/utils.ts `decodeId` and `getRotationNumber` at the
 * commit above): the last character, a base-36 digit, is a rotation r; the other twelve are a number in base 36
 * written with the alphabet rotated by r; the id is correct when that number's last two decimal digits, modulo 36,
 * give r back.
 */
function decodesAsUsId(id: string): boolean {
  const rotation = US_ALPHABET.indexOf(id.slice(-1));
  let value = 0n;
  for (const char of id.slice(0, -1)) {
    const at = US_ALPHABET.indexOf(char);
    value = value * 36n + BigInt((at - rotation + 36) % 36);
  }
  return Number(value.toString().slice(-2)) % 36 === rotation;
}
