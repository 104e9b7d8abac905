// Whether one OpenAPI document covers another: every path, parameter and schema property of the real document is in
// ours, with the same JSON types and the same required lists (our additions are allowed). Pure: documents in, gaps out.

type Schema = Record<string, any>;
type Doc = Record<string, any>;

const isObj = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema a `$ref` (to `#/components/...`) names, followed until it is not a reference. */
function deref(doc: Doc, schema: unknown): Schema {
  let s: unknown = schema;
  for (let hops = 0; isObj(s) && typeof s.$ref === 'string' && hops < 32; hops++) {
    s = (s.$ref as string).replace(/^#\//, '').split('/').reduce((node: any, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return isObj(s) ? s : {};
}

/** One view of a schema: its `allOf` members merged (properties, required, types), its `anyOf`/`oneOf` variants kept apart. */
interface View {
  types: Set<string>;
  properties: Map<string, unknown>;
  required: Set<string>;
  items: unknown[];
  variants: unknown[];
  additional: unknown[];
}

function typesOf(s: Schema): string[] {
  if (Array.isArray(s.type)) return s.type;
  if (typeof s.type === 'string') return [s.type];
  if ('const' in s) return [s.const === null ? 'null' : typeof s.const === 'number' ? 'number' : typeof s.const];
  return [];
}

function view(doc: Doc, schema: unknown, into: View = { types: new Set(), properties: new Map(), required: new Set(), items: [], variants: [], additional: [] }): View {
  const s = deref(doc, schema);
  for (const t of typesOf(s)) into.types.add(t === 'integer' ? 'number' : t);
  for (const [k, v] of Object.entries(isObj(s.properties) ? s.properties : {})) if (!into.properties.has(k)) into.properties.set(k, v);
  for (const r of Array.isArray(s.required) ? s.required : []) into.required.add(r);
  if (s.items !== undefined) into.items.push(s.items);
  if (isObj(s.additionalProperties)) into.additional.push(s.additionalProperties);
  for (const member of Array.isArray(s.allOf) ? s.allOf : []) view(doc, member, into);
  for (const key of ['anyOf', 'oneOf'] as const) if (Array.isArray(s[key])) into.variants.push(...s[key]);
  return into;
}

/** Every variant's types and properties folded into one view: what a value of the union may hold. */
function folded(doc: Doc, schema: unknown): View {
  const v = view(doc, schema);
  for (const variant of v.variants) {
    const w = folded(doc, variant);
    for (const t of w.types) v.types.add(t);
    // A key several variants have may hold any of their schemas.
    for (const [k, p] of w.properties) v.properties.set(k, v.properties.has(k) ? { anyOf: [v.properties.get(k), p] } : p);
    v.items.push(...w.items);
    v.additional.push(...w.additional);
  }
  return v;
}

/** One schema for several: itself when there is one, else their union. */
const oneOf = (schemas: unknown[]): unknown => (schemas.length === 1 ? schemas[0] : { anyOf: schemas });

const sorted = (s: Set<string>) => [...s].sort().join('|');

/** The gaps of `ours` against `real` at `path`, one line each. */
export function schemaGaps(realDoc: Doc, real: unknown, ourDoc: Doc, ours: unknown, path: string, depth = 0): string[] {
  if (depth > 40) return [];
  const r = view(realDoc, real);
  const o = folded(ourDoc, ours);
  const gaps: string[] = [];
  const rTypes = folded(realDoc, real).types;
  // Types: where the real schema states them, ours states the same (a union counts all its variants' types).
  if (r.types.size > 0 && o.types.size > 0 && sorted(r.types) !== sorted(o.types)) gaps.push(`${path}: type ${sorted(r.types)} → ${sorted(o.types)}`);
  else if (r.types.size === 0 && rTypes.size > 0 && o.types.size > 0 && sorted(rTypes) !== sorted(o.types)) gaps.push(`${path}: type ${sorted(rTypes)} → ${sorted(o.types)}`);
  if (r.types.size > 0 && o.types.size === 0 && r.variants.length === 0) gaps.push(`${path}: type ${sorted(r.types)} → (any)`);
  for (const [key, schema] of r.properties) {
    if (!o.properties.has(key)) gaps.push(`${path}.${key}: missing`);
    else gaps.push(...schemaGaps(realDoc, schema, ourDoc, o.properties.get(key), `${path}.${key}`, depth + 1));
  }
  if (r.properties.size > 0 && r.variants.length === 0 && sorted(r.required) !== sorted(view(ourDoc, ours).required)) {
    gaps.push(`${path}: required [${[...r.required].sort()}] → [${[...view(ourDoc, ours).required].sort()}]`);
  }
  for (const items of r.items) {
    if (o.items.length === 0) gaps.push(`${path}[]: missing items`);
    else gaps.push(...schemaGaps(realDoc, items, ourDoc, oneOf(o.items), `${path}[]`, depth + 1));
  }
  for (const add of r.additional) {
    if (o.additional.length > 0) gaps.push(...schemaGaps(realDoc, add, ourDoc, oneOf(o.additional), `${path}{}`, depth + 1));
  }
  // A union in the real schema: each variant is covered by the closest of ours (the one it has fewest gaps against),
  // or by ours as a whole when ours is no union.
  const ourVariants = view(ourDoc, ours).variants;
  r.variants.forEach((variant, i) => {
    const candidates = ourVariants.length > 0 ? ourVariants : [ours];
    const best = candidates
      .map((candidate) => variantGaps(realDoc, variant, ourDoc, candidate, r.properties, `${path}<${i}>`, depth))
      .reduce((a, b) => (b.length < a.length ? b : a));
    gaps.push(...best);
  });
  return gaps;
}

/** A real variant's properties (those the union's own object does not name) against one of our schemas. */
function variantGaps(realDoc: Doc, variant: unknown, ourDoc: Doc, ours: unknown, named: Map<string, unknown>, path: string, depth: number): string[] {
  const rv = folded(realDoc, variant);
  const o = folded(ourDoc, ours);
  const gaps: string[] = [];
  for (const [key, schema] of rv.properties) {
    if (named.has(key)) continue;
    if (!o.properties.has(key)) gaps.push(`${path}.${key}: missing`);
    else gaps.push(...schemaGaps(realDoc, schema, ourDoc, o.properties.get(key), `${path}.${key}`, depth + 1));
  }
  return gaps;
}

const bodySchema = (doc: Doc, node: unknown) => deref(doc, node)?.content?.['application/json']?.schema;

/** Every gap of our document against the real one: paths, parameters, request and 200-answer schemas. */
export function documentGaps(realDoc: Doc, ourDoc: Doc): string[] {
  const gaps: string[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(realDoc.paths ?? {})) {
    const ourItem = ourDoc.paths?.[path];
    if (!ourItem) {
      gaps.push(`${path}: missing`);
      continue;
    }
    for (const [verb, op] of Object.entries<Record<string, any>>(item)) {
      const ourOp = ourItem[verb];
      if (!ourOp) {
        gaps.push(`${verb} ${path}: missing`);
        continue;
      }
      const ourParams = (ourOp.parameters ?? []).map((p: unknown) => deref(ourDoc, p));
      for (const p of (op.parameters ?? []).map((q: unknown) => deref(realDoc, q))) {
        const mine = ourParams.find((q: Schema) => q.name?.toLowerCase() === p.name?.toLowerCase() && q.in === p.in);
        if (!mine) gaps.push(`${path} parameter ${p.in} ${p.name}: missing`);
        else {
          if (Boolean(mine.required) !== Boolean(p.required)) gaps.push(`${path} parameter ${p.name}: required ${Boolean(p.required)} → ${Boolean(mine.required)}`);
          gaps.push(...schemaGaps(realDoc, p.schema, ourDoc, mine.schema, `${path} parameter ${p.name}`));
        }
      }
      const realRequest = bodySchema(realDoc, op.requestBody);
      if (realRequest !== undefined) {
        const ourRequest = bodySchema(ourDoc, ourOp.requestBody);
        if (ourRequest === undefined) gaps.push(`${path} request: missing`);
        else gaps.push(...schemaGaps(realDoc, realRequest, ourDoc, ourRequest, `${path} request`));
      }
      const realAnswer = bodySchema(realDoc, op.responses?.['200']);
      if (realAnswer !== undefined) {
        const ourAnswer = bodySchema(ourDoc, ourOp.responses?.['200']);
        if (ourAnswer === undefined) gaps.push(`${path} answer: missing`);
        else gaps.push(...schemaGaps(realDoc, realAnswer, ourDoc, ourAnswer, `${path} answer`));
      }
    }
  }
  return gaps;
}
