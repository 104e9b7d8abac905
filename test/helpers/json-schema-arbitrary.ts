// Bodies for property tests, built from a method's request schema as JSON Schema: small values of every field
// it names (enums, bounds, nested objects, arrays), and, where the schema keeps unknown keys, one it does not name.

import fc from 'fast-check';

type Schema = Record<string, any>;

const small = { maxLength: 8 } as const;

/** Past `maxDepth` levels any small value stands for the schema (deep documents such as dashboards need more). */
export function arbitraryOf(schema: Schema | boolean | undefined, depth = 0, maxDepth = 4): fc.Arbitrary<unknown> {
  if (schema === undefined || schema === true || depth > maxDepth) return fc.oneof(fc.string(small), fc.integer(), fc.boolean(), fc.constant(null));
  if (schema === false) return fc.constant(undefined);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, depth + 1, maxDepth)));
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => arbitraryOf({ ...schema, type }, depth, maxDepth)));
  switch (schema.type) {
    case 'string':
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 12, Math.max(12, schema.minLength ?? 0)) });
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1000);
      return fc.integer({ min: Math.max(min, -1000), max: Math.min(max, Math.max(min, -1000) + 2000) });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryOf(schema.items, depth + 1, maxDepth), { minLength: schema.minItems ?? 0, maxLength: Math.max(3, schema.minItems ?? 0) });
    case 'object':
      return objectOf(schema, depth, {}, maxDepth);
    default:
      return arbitraryOf(undefined, depth, maxDepth);
  }
}

/** An object with the schema's required keys, some of its optional ones, and an unknown key where allowed. */
export function objectOf(schema: Schema, depth = 0, overrides: Record<string, fc.Arbitrary<unknown>> = {}, maxDepth = 4): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(properties)) shape[key] = overrides[key] ?? arbitraryOf(sub, depth + 1, maxDepth);
  const known = fc.record(shape, { requiredKeys: (schema.required ?? []) as string[] });
  if (schema.additionalProperties === false) return known;
  return fc.tuple(known, fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined })).map(([body, extra]) =>
    extra === undefined ? body : { ...body, x_unnamed_field: extra },
  );
}
