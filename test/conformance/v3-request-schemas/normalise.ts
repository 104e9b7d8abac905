// Both sides' request schemas as one comparable shape: $refs resolved, allOf merged, nullable folded into the types.

type Json = Record<string, unknown>;

/** Bounds compared as they are (`minimum` … `maxItems`, `format`). */
export const BOUND_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'format'] as const;
type BoundKey = (typeof BOUND_KEYS)[number];

/** One schema node, normalised: any value, a part the data file leaves out, alternatives, or typed constraints. */
export type Node =
  | { readonly kind: 'any' }
  | { readonly kind: 'not-extracted'; readonly why: string }
  | { readonly kind: 'alts'; readonly alts: readonly Node[] }
  | Typed;

export interface Typed {
  readonly kind: 'typed';
  /** JSON types the node takes (`null` included when nullable); empty when the schema names none. */
  types: Set<string>;
  enum?: unknown[];
  props?: Map<string, Node>;
  required?: Set<string>;
  /** What a key the object does not name may hold: `open` (anything), `closed`, or a schema. */
  additional?: 'open' | 'closed' | Node;
  items?: Node;
  prefixItems?: Node[];
  bounds: Partial<Record<BoundKey, unknown>>;
}

/** Resolves a `$ref` string to its schema, or undefined when it names nothing. */
export type Resolve = (ref: string) => unknown;

/** zod's default integer bounds (Number.MAX_SAFE_INTEGER): no bound a schema author wrote. */
const SAFE = Number.MAX_SAFE_INTEGER;
const MAX_DEPTH = 40;

export function normalise(schema: unknown, resolve: Resolve, depth = 0): Node {
  if (schema === true || schema === undefined) return { kind: 'any' };
  if (schema === false) return { kind: 'typed', types: new Set(), enum: [], bounds: {} };
  if (typeof schema !== 'object' || schema === null || depth > MAX_DEPTH) return { kind: 'any' };
  const s = schema as Json;
  if (typeof s['x-not-extracted'] === 'string') return { kind: 'not-extracted', why: s['x-not-extracted'] };
  if (typeof s.$ref === 'string') return normalise(resolve(s.$ref), resolve, depth + 1);
  const parts: Node[] = [];
  if (Array.isArray(s.allOf)) parts.push(...s.allOf.map((p) => normalise(p, resolve, depth + 1)));
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  const own = ownNode(s, resolve, depth);
  if (own) parts.push(own);
  if (Array.isArray(alternatives)) {
    const variants = alternatives.map((a) => normalise(a, resolve, depth + 1));
    // OpenAPI's discriminator: the property must be present in every variant that names it.
    const key = s['x-discriminator'];
    parts.push(alts(typeof key === 'string' ? variants.map((v) => requiring(v, key)) : variants));
  }
  return parts.reduce<Node>((acc, part) => merge(acc, part), { kind: 'any' });
}

/** The node's own keywords (without allOf/anyOf/oneOf), or undefined when it has none that constrain. */
function ownNode(s: Json, resolve: Resolve, depth: number): Typed | undefined {
  const types = new Set<string>(Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);
  const node: Typed = { kind: 'typed', types, bounds: {} };
  let constrains = types.size > 0;
  const values = 'const' in s ? [s.const] : Array.isArray(s.enum) ? (s.enum as unknown[]) : undefined;
  if (values) {
    if (values.includes(null)) types.add('null');
    node.enum = values.filter((v) => v !== null);
    constrains = true;
  }
  if (s.properties && typeof s.properties === 'object') {
    // A read-only property is the server's: not part of a request.
    const entries = Object.entries(s.properties as Json).filter(([, v]) => !(v && typeof v === 'object' && (v as Json).readOnly === true));
    node.props = new Map(entries.map(([k, v]) => [k, normalise(v, resolve, depth + 1)]));
    constrains = true;
  }
  if (Array.isArray(s.required)) node.required = new Set(s.required as string[]);
  if ('additionalProperties' in s) {
    const a = s.additionalProperties;
    node.additional = a === false ? 'closed' : a === true || isEmptySchema(a) ? 'open' : normalise(a, resolve, depth + 1);
    constrains = true;
  }
  if ('items' in s) node.items = normalise(s.items, resolve, depth + 1);
  if (Array.isArray(s.prefixItems)) node.prefixItems = s.prefixItems.map((p) => normalise(p, resolve, depth + 1));
  for (const key of BOUND_KEYS) {
    const v = s[key];
    // No bound: zod's safe-integer defaults, and a length of at least 0.
    if (v === undefined || v === null || (key === 'maximum' && v === SAFE) || (key === 'minimum' && v === -SAFE) || (v === 0 && (key === 'minItems' || key === 'minLength'))) continue;
    node.bounds[key] = v;
    constrains = true;
  }
  return constrains ? node : undefined;
}

/** The variant with `key` required where it names that property. */
function requiring(node: Node, key: string): Node {
  if (node.kind !== 'typed' || !node.props?.has(key)) return node;
  return { ...node, required: new Set([...(node.required ?? []), key]) };
}

const isEmptySchema = (v: unknown) => typeof v === 'object' && v !== null && Object.keys(v).length === 0;

/** Alternatives with `{type: null}` folded into the others' types, and plain type-only members joined. */
function alts(list: Node[]): Node {
  if (list.some((n) => n.kind === 'any')) return { kind: 'any' };
  const isNull = (n: Node) => n.kind === 'typed' && n.types.size === 1 && n.types.has('null') && !n.enum && !n.props;
  const nullable = list.some(isNull);
  let rest = list.filter((n) => !isNull(n)).flatMap((n) => (n.kind === 'alts' ? n.alts : [n]));
  if (nullable) rest = rest.map((n) => (n.kind === 'typed' ? { ...n, types: new Set([...n.types, 'null']) } : n));
  const plain = (n: Node): n is Typed => n.kind === 'typed' && !n.enum && !n.props && !n.additional && !n.items && !n.prefixItems && Object.keys(n.bounds).length === 0;
  if (rest.length > 1 && rest.every(plain)) return { kind: 'typed', types: new Set(rest.flatMap((n) => [...(n as Typed).types])), bounds: {} };
  if (rest.length === 0) return { kind: 'typed', types: new Set(['null']), bounds: {} };
  return rest.length === 1 ? rest[0]! : { kind: 'alts', alts: rest };
}

/** allOf: both constraints at once; alternatives distribute over the other part. */
export function merge(a: Node, b: Node): Node {
  if (a.kind === 'any') return b;
  if (b.kind === 'any') return a;
  if (a.kind === 'not-extracted') return a;
  if (b.kind === 'not-extracted') return b;
  if (a.kind === 'alts') return { kind: 'alts', alts: a.alts.map((x) => merge(x, b)) };
  if (b.kind === 'alts') return { kind: 'alts', alts: b.alts.map((x) => merge(a, x)) };
  const types = a.types.size === 0 ? b.types : b.types.size === 0 ? a.types : new Set([...a.types].filter((t) => b.types.has(t)));
  const out: Typed = { kind: 'typed', types: new Set(types), bounds: { ...a.bounds, ...b.bounds } };
  const en = a.enum ?? b.enum;
  if (en) out.enum = en;
  if (a.props || b.props) out.props = new Map([...(a.props ?? []), ...(b.props ?? [])]);
  if (a.required || b.required) out.required = new Set([...(a.required ?? []), ...(b.required ?? [])]);
  const add = a.additional === 'closed' || b.additional === 'closed' ? 'closed' : (b.additional ?? a.additional);
  if (add) out.additional = add;
  const items = a.items ?? b.items;
  if (items) out.items = items;
  const prefix = a.prefixItems ?? b.prefixItems;
  if (prefix) out.prefixItems = prefix;
  return out;
}
