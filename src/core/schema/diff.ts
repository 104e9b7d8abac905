// Structural diff of a method's JSON Schema at two API versions, classifying each difference as compatible or not.
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;
export type Direction = 'request' | 'response';
export type DifferenceKind =
  | 'fieldAdded'
  | 'fieldRemoved'
  | 'typeChanged'
  | 'becameRequired'
  | 'becameOptional'
  | 'enumValueAdded'
  | 'enumValueRemoved';

export interface SchemaDifference {
  readonly path: string;
  readonly kind: DifferenceKind;
  readonly compatible: boolean;
  readonly detail: string;
}

export function jsonSchemaOf(schema: z.ZodType, direction: Direction): JsonSchema {
  return z.toJSONSchema(schema, {
    io: direction === 'request' ? 'input' : 'output',
    unrepresentable: 'any',
  }) as JsonSchema;
}

// Shared stand-in for `true`/`{}`/unresolvable refs so the cycle guard sees a stable identity.
const ANY: JsonSchema = Object.freeze({}) as JsonSchema;

interface Ctx {
  readonly direction: Direction;
  readonly roots: readonly [JsonSchema, JsonSchema];
  readonly out: SchemaDifference[];
  readonly ids: Map<object, number>;
  readonly stack: Set<string>;
}

/** A union of schema branches, merged so that branches of one side can be compared as a whole. */
interface View {
  readonly leaves: JsonSchema[];
  readonly types: Set<string>;
  readonly values: unknown[] | undefined; // closed set from enum/const; undefined when any value of the types is allowed
  readonly props: Map<string, unknown[]>;
  readonly required: Set<string>;
  readonly items: unknown[];
  readonly extra: unknown[]; // additionalProperties schemas (record values)
}

const isObj = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
const join = (path: string, seg: string): string => (path === '' ? seg : `${path}.${seg}`);
const label = (path: string): string => (path === '' ? '(root)' : path);
const keyOf = (v: unknown): string => JSON.stringify(v) ?? 'undefined';

function resolveRef(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#')) return ANY; // external documents are out of scope; accept anything
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const seg = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObj(node) || Array.isArray(node) ? (node as Record<string, unknown>)[seg] : undefined;
  }
  return node ?? ANY;
}

/** Resolves $ref and expands anyOf/oneOf into the original leaf objects (identity matters for the cycle guard). */
function flatten(node: unknown, root: JsonSchema, out: JsonSchema[], seen: Set<unknown>): void {
  if (node === false) return;
  if (!isObj(node) || Object.keys(node).length === 0) {
    if (!out.includes(ANY)) out.push(ANY);
    return;
  }
  if (seen.has(node)) return; // a ref/union loop with no structure in between adds nothing
  seen.add(node);
  if (typeof node.$ref === 'string') return flatten(resolveRef(root, node.$ref), root, out, seen);
  const branches = node.anyOf ?? node.oneOf;
  if (Array.isArray(branches)) {
    for (const b of branches) flatten(b, root, out, seen);
    return;
  }
  out.push(node);
}

function closedValues(s: JsonSchema): unknown[] | undefined {
  if ('const' in s) return [s.const];
  return Array.isArray(s.enum) ? s.enum : undefined;
}

const valueType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function leafTypes(s: JsonSchema): string[] {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string');
  const vals = closedValues(s);
  if (vals) return vals.map(valueType);
  if (isObj(s.properties)) return ['object'];
  if ('items' in s || 'prefixItems' in s) return ['array'];
  return ['any'];
}

function view(nodes: unknown[], root: JsonSchema, direction: Direction): View {
  const leaves: JsonSchema[] = [];
  const seen = new Set<unknown>();
  for (const n of nodes) flatten(n, root, leaves, seen);
  const types = new Set<string>();
  const values = new Map<string, unknown>();
  let closed = true;
  const props = new Map<string, unknown[]>();
  let required: Set<string> | undefined;
  const items: unknown[] = [];
  const extra: unknown[] = [];
  for (const leaf of leaves) {
    const ts = leafTypes(leaf);
    for (const t of ts) types.add(t);
    const vs = closedValues(leaf);
    if (vs === undefined) closed = false;
    else for (const v of vs) values.set(keyOf(v), v);
    if (ts.includes('object')) {
      const ps = isObj(leaf.properties) ? leaf.properties : {};
      for (const [k, p] of Object.entries(ps)) props.set(k, [...(props.get(k) ?? []), p]);
      // A request field with a default may be omitted by the client, whatever `required` says.
      const req = (Array.isArray(leaf.required) ? leaf.required : []).filter(
        (k): k is string => typeof k === 'string' && !(direction === 'request' && isObj(ps[k]) && 'default' in ps[k]),
      );
      required = required === undefined ? new Set(req) : new Set(req.filter((k) => required?.has(k)));
      if (isObj(leaf.additionalProperties) && Object.keys(leaf.additionalProperties).length > 0) {
        extra.push(leaf.additionalProperties);
      }
    }
    if (ts.includes('array')) {
      if (Array.isArray(leaf.prefixItems)) items.push(...(leaf.prefixItems as unknown[]));
      if (leaf.items !== undefined && leaf.items !== false) items.push(leaf.items);
      else if (leaf.items === undefined && !Array.isArray(leaf.prefixItems)) items.push(ANY);
    }
  }
  return {
    leaves, types, props, items, extra,
    values: closed ? [...values.values()] : undefined,
    required: required ?? new Set(),
  };
}

/** Whether every type in `sub` is accepted by `sup` (integer counts as a number). */
function typesWithin(sub: Set<string>, sup: Set<string>): boolean {
  if (sup.has('any')) return true;
  return [...sub].every((t) => sup.has(t) || (t === 'integer' && sup.has('number')));
}

function valuesWithin(sub: unknown[] | undefined, sup: unknown[] | undefined): boolean {
  if (sup === undefined) return true;
  if (sub === undefined) return false;
  const keys = new Set(sup.map(keyOf));
  return sub.every((v) => keys.has(keyOf(v)));
}

const typeText = (types: Set<string>): string => (types.size === 0 ? 'never' : [...types].sort().join(' | '));

function idsOf(leaves: JsonSchema[], ctx: Ctx): string {
  const ids = leaves.map((l) => {
    if (!ctx.ids.has(l)) ctx.ids.set(l, ctx.ids.size);
    return ctx.ids.get(l) ?? 0;
  });
  return ids.sort((x, y) => x - y).join(',');
}

function diffNode(before: unknown[], after: unknown[], path: string, ctx: Ctx): void {
  const b = view(before, ctx.roots[0], ctx.direction);
  const a = view(after, ctx.roots[1], ctx.direction);
  const key = `${idsOf(b.leaves, ctx)}|${idsOf(a.leaves, ctx)}`;
  if (ctx.stack.has(key)) return; // recursive schema: this pair is already being compared further up
  ctx.stack.add(key);
  const request = ctx.direction === 'request';
  const push = (p: string, kind: DifferenceKind, compatible: boolean, detail: string): void => {
    ctx.out.push({ path: p, kind, compatible, detail });
  };

  const typesDiffer = !(typesWithin(b.types, a.types) && typesWithin(a.types, b.types));
  if (typesDiffer || (b.values === undefined) !== (a.values === undefined)) {
    const widened = typesWithin(b.types, a.types) && valuesWithin(b.values, a.values);
    const narrowed = typesWithin(a.types, b.types) && valuesWithin(a.values, b.values);
    const detail = typesDiffer
      ? `type of \`${label(path)}\` changed from ${typeText(b.types)} to ${typeText(a.types)}`
      : `\`${label(path)}\` is ${a.values === undefined ? 'no longer' : 'now'} restricted to a fixed set of values`;
    push(path, 'typeChanged', request ? widened : narrowed, detail);
  }
  if (b.values !== undefined && a.values !== undefined) {
    for (const v of a.values) {
      if (!valuesWithin([v], b.values)) push(path, 'enumValueAdded', request, `enum value ${keyOf(v)} added to \`${label(path)}\``);
    }
    for (const v of b.values) {
      if (!valuesWithin([v], a.values)) push(path, 'enumValueRemoved', !request, `enum value ${keyOf(v)} removed from \`${label(path)}\``);
    }
  }

  if (b.types.has('object') && a.types.has('object')) {
    for (const k of [...new Set([...b.props.keys(), ...a.props.keys()])].sort()) {
      const p = join(path, k);
      const bp = b.props.get(k);
      const ap = a.props.get(k);
      const br = b.required.has(k);
      const ar = a.required.has(k);
      if (ap === undefined) push(p, 'fieldRemoved', false, `field \`${p}\` removed`);
      else if (bp === undefined) push(p, 'fieldAdded', !request || !ar, `${ar ? 'required' : 'optional'} field \`${p}\` added`);
      else {
        if (br && !ar) push(p, 'becameOptional', request, `field \`${p}\` became optional`);
        if (!br && ar) push(p, 'becameRequired', !request, `field \`${p}\` became required`);
        diffNode(bp, ap, p, ctx);
      }
    }
    if (b.extra.length > 0 && a.extra.length > 0) diffNode(b.extra, a.extra, join(path, '*'), ctx);
  }
  if (b.types.has('array') && a.types.has('array')) diffNode(b.items, a.items, join(path, '*'), ctx);
  ctx.stack.delete(key);
}

const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

export function diffSchemas(before: JsonSchema, after: JsonSchema, direction: Direction): SchemaDifference[] {
  const ctx: Ctx = { direction, roots: [before, after], out: [], ids: new Map(), stack: new Set() };
  diffNode([before], [after], '', ctx);
  return ctx.out.sort((x, y) => cmp(x.path, y.path) || cmp(x.kind, y.kind) || cmp(x.detail, y.detail));
}
