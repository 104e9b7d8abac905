// A refused body's zod issues as the client reads them: real DataLens's `details` shape, bounded in count and size.

import type { z } from 'zod';
import type { ValidationIssue } from './errors.js';

type ZodIssue = z.core.$ZodIssue;

/** At most this many issues reach the client, a union's nested ones included: a hostile body cannot grow the answer. */
export const MAX_ISSUES = 50;
/** An `unrecognized_keys` issue names at most this many keys (its message says how many more there were). */
export const MAX_KEYS = 50;

/** The issues as zod 4 reports them (and real DataLens answers them), minus `input`, at most MAX_ISSUES in all. */
export function toValidationIssues(issues: readonly ZodIssue[]): ValidationIssue[] {
  return copyList(issues, { left: MAX_ISSUES });
}

function copyList(issues: readonly ZodIssue[], budget: { left: number }): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    if (budget.left <= 0) break;
    budget.left -= 1;
    out.push(copyIssue(issue, budget));
  }
  return out;
}

function copyIssue(issue: ZodIssue, budget: { left: number }): ValidationIssue {
  const copy: Record<string, unknown> = {};
  // zod's own field order (expected, code, path, message), which is the order real DataLens answers in.
  for (const [field, value] of Object.entries(issue)) {
    // `input` would echo the client's value back (zod adds it only when asked to; never passed on).
    if (field !== 'input' && value !== undefined) copy[field] = jsonSafe(value);
  }
  copy.path = issue.path.map((step) => (typeof step === 'number' ? step : String(step)));
  if (issue.code === 'unrecognized_keys' && issue.keys.length > MAX_KEYS) {
    const named = issue.keys.slice(0, MAX_KEYS);
    copy.keys = named;
    copy.message = `Unrecognized keys: ${named.map((k) => JSON.stringify(k)).join(', ')} and ${issue.keys.length - MAX_KEYS} more`;
  }
  if (issue.code === 'invalid_union') copy.errors = issue.errors.map((branch) => copyList(branch, budget));
  if (issue.code === 'invalid_key' || issue.code === 'invalid_element') copy.issues = copyList(issue.issues, budget);
  return copy as unknown as ValidationIssue;
}

/** A value JSON can carry: a bigint bound (`too_big` of a bigint schema) becomes its decimal string. */
function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map(jsonSafe);
  return value;
}
