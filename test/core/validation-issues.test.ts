// What a VALIDATION_ERROR's details hold: zod 4's issues as real DataLens answers them, bounded against hostile bodies.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_ISSUES, MAX_KEYS, toValidationIssues } from '../../src/core/validation-issues.js';

const issuesOf = (schema: z.ZodType, body: unknown) => {
  const parsed = schema.safeParse(body);
  if (parsed.success) throw new Error('expected a refusal');
  return toValidationIssues(parsed.error.issues);
};

describe('toValidationIssues', () => {
  // The shapes of the real API's recorded answers (createCollection without title and parentId, getWorkbook with a
  // number, deleteDashboard with an extra key): the same fields, in the same order.
  it('keeps zod 4 issues as they are: fields, their order, array paths, messages', () => {
    const issues = issuesOf(z.strictObject({ title: z.string(), parentId: z.string() }), { force: true });
    expect(issues).toEqual([
      { expected: 'string', code: 'invalid_type', path: ['title'], message: 'Invalid input: expected string, received undefined' },
      { expected: 'string', code: 'invalid_type', path: ['parentId'], message: 'Invalid input: expected string, received undefined' },
      { code: 'unrecognized_keys', keys: ['force'], path: [], message: 'Unrecognized key: "force"' },
    ]);
    expect(Object.keys(issues[0]!)).toEqual(['expected', 'code', 'path', 'message']);
  });

  it('never passes `input` on, even from a schema that asks zod to report it', () => {
    const schema = z.object({ password: z.number({ error: (iss) => ({ message: 'bad', input: iss.input }) }) });
    const parsed = schema.safeParse({ password: 'hunter2' }, { reportInput: true });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error!.issues)).toContain('hunter2');
    expect(JSON.stringify(toValidationIssues(parsed.error!.issues))).not.toContain('hunter2');
  });

  it(`names at most ${MAX_KEYS} unknown keys in one issue, and says how many more there were`, () => {
    const body = Object.fromEntries(Array.from({ length: MAX_KEYS + 250 }, (_, i) => [`k${i}`, 0]));
    const [issue, ...rest] = issuesOf(z.strictObject({}), body);
    expect(rest).toEqual([]);
    expect(issue!.keys).toEqual(Object.keys(body).slice(0, MAX_KEYS));
    expect(issue!.message).toMatch(/^Unrecognized keys: "k0", "k1", .*"k49" and 250 more$/);
  });

  it(`keeps zod's own message when an issue names exactly ${MAX_KEYS} unknown keys`, () => {
    const body = Object.fromEntries(Array.from({ length: MAX_KEYS }, (_, i) => [`k${i}`, 0]));
    const [issue] = issuesOf(z.strictObject({}), body);
    expect(issue!.keys).toHaveLength(MAX_KEYS);
    expect(issue!.message).toBe(`Unrecognized keys: ${Object.keys(body).map((k) => `"${k}"`).join(', ')}`);
  });

  it('keeps the issues nested in a record key\'s and a map element\'s refusal, within the same budget', () => {
    const [key] = issuesOf(z.record(z.string().min(3), z.number()), { ab: 1 });
    expect(key).toMatchObject({ code: 'invalid_key', path: ['ab'], issues: [expect.objectContaining({ code: 'too_small', minimum: 3 })] });
    const parsed = z.map(z.string(), z.number()).safeParse(new Map([[{}, 'x']]), { reportInput: true });
    const [, element] = toValidationIssues(parsed.error!.issues);
    expect(element).toMatchObject({ code: 'invalid_element', issues: [expect.objectContaining({ code: 'invalid_type', expected: 'number' })] });
    // Copied as the top-level ones are: the nested value is not echoed either.
    expect(element!.issues as object[]).toEqual([expect.not.objectContaining({ input: 'x' })]);
    const many = Object.fromEntries(Array.from({ length: MAX_ISSUES }, (_, i) => [`k${i}`, 1]));
    const keys = issuesOf(z.record(z.string().min(5), z.number()), many);
    expect(keys.length + keys.flatMap((k) => k.issues as unknown[]).length).toBe(MAX_ISSUES);
  });

  it('leaves out fields that are undefined and writes every path step a symbol could be as a string', () => {
    const step = Symbol('s');
    const [issue] = toValidationIssues([{ code: 'custom', path: [step, 0, 'a'], message: 'm', params: undefined, input: 1 }]);
    expect(Object.keys(issue!)).toEqual(['code', 'path', 'message']);
    expect(issue!.path).toEqual(['Symbol(s)', 0, 'a']);
  });

  it(`counts a union's nested issues against the same ${MAX_ISSUES}`, () => {
    const branch = z.object(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, z.string()])));
    const schema = z.object({ u: z.union([branch, branch.extend({ g: z.number() })]) });
    const [union] = issuesOf(schema, { u: {} });
    expect(union).toMatchObject({ code: 'invalid_union', path: ['u'] });
    const nested = (union!.errors as unknown[][]).flat();
    expect(1 + nested.length).toBe(MAX_ISSUES);
  });

  it('writes a bigint, as a bound or among the allowed values, as its decimal string, so the answer is JSON', () => {
    const issues = issuesOf(z.object({ n: z.bigint().max(10n), l: z.literal(7n) }), { n: 11n, l: 8n });
    expect(issues[0]).toMatchObject({ code: 'too_big', maximum: '10', path: ['n'] });
    expect(issues[1]).toMatchObject({ code: 'invalid_value', values: ['7'], path: ['l'] });
    expect(() => JSON.stringify(issues)).not.toThrow();
  });
});
