// The unknown-field rule stated in a request's JSON Schema: every object says whether fields it does not name
// are refused (`additionalProperties: false`) or passed to the backend unchanged (`additionalProperties: true`).

import type { JsonSchema } from './schema-diff.js';

const isObj = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a node describes an object with named fields (records state their values' schema already). */
const namesFields = (node: JsonSchema) => isObj(node.properties) || (node.type === 'object' && node.propertyNames === undefined);

/** A copy of `schema` in which every object with named fields states `additionalProperties` as true or false. */
export function withStatedUnknownFields(schema: JsonSchema): JsonSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObj(node)) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      // Schema maps (properties, $defs) hold schemas under arbitrary names; other keys hold schemas or values.
      out[key] = (key === 'properties' || key === '$defs') && isObj(value)
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, visit(sub)]))
        : visit(value);
    }
    if (namesFields(node)) {
      const extra = node.additionalProperties;
      // Absent or `{}` (any value) both mean "allowed"; say so plainly.
      if (extra === undefined || (isObj(extra) && Object.keys(extra).length === 0)) out.additionalProperties = true;
    }
    return out;
  };
  return visit(schema) as JsonSchema;
}
