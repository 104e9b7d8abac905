// Request bodies made from a real schema: the required-only body, then one variation each (every optional field
// alone, every enum value, every variant of a oneOf/anyOf, null where a field is nullable), each changing one place.

import type { Node, Typed } from './normalise.js';

export interface Body {
  /** What the body exercises: `required only`, or the path it varies and how. */
  readonly label: string;
  readonly value: unknown;
}

/** Lets a caller narrow a node at a path before bodies are made from it (a listed, stricter gateway rule). */
export type Adjust = (path: string, node: Typed) => Typed;

/** A part of the schema the data file does not extract: no body can be made through it. */
export class NotExtracted extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`${path || '(body)'}: ${why}`);
  }
}

interface Made {
  /** Where the variation sits and what it is; undefined for a node's minimal value. */
  readonly label: string | undefined;
  readonly value: unknown;
}

interface Context {
  readonly adjust: Adjust;
  /** Variations left out because they go through a part that is not extracted: `path: why`. */
  readonly skipped: string[];
}

const DATE_TIME = '2026-09-08T00:00:00Z';
const at = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** The bodies of a request schema, required-only first; throws NotExtracted when not even that can be made. */
export function bodiesOf(node: Node, adjust: Adjust = (_, n) => n): { bodies: Body[]; skipped: string[] } {
  const ctx: Context = { adjust, skipped: [] };
  const made = valuesOf(node, '', ctx);
  return { bodies: made.map((m) => ({ label: m.label ?? 'required only', value: m.value })), skipped: ctx.skipped };
}

/** A node's values: its minimal value first, then one per variation inside it. */
function valuesOf(node: Node, path: string, ctx: Context): Made[] {
  switch (node.kind) {
    case 'any':
      return [{ label: undefined, value: 'x' }];
    case 'not-extracted':
      throw new NotExtracted(path, node.why);
    case 'alts':
      return alternatives(node.alts, path, ctx);
    default:
      return typedValues(ctx.adjust(path, node), path, ctx);
  }
}

function alternatives(alts: readonly Node[], path: string, ctx: Context): Made[] {
  const out: Made[] = [];
  let firstMissing: NotExtracted | undefined;
  alts.forEach((alt, i) => {
    try {
      const [minimal, ...rest] = valuesOf(alt, path, ctx);
      out.push({ label: `${path || '(body)'} variant ${i + 1}`, value: minimal!.value }, ...rest);
    } catch (error) {
      if (!(error instanceof NotExtracted)) throw error;
      firstMissing ??= error;
      ctx.skipped.push(`${error.path || '(body)'}: ${error.why}`);
    }
  });
  if (out.length === 0) throw firstMissing ?? new NotExtracted(path, 'no variant');
  // The first variant that could be made is the minimal value.
  return [{ label: undefined, value: out[0]!.value }, ...out.slice(1)];
}

function typedValues(node: Typed, path: string, ctx: Context): Made[] {
  const nullable = node.types.has('null');
  const withNull = (made: Made[]): Made[] => (nullable ? [...made, { label: `${path} = null`, value: null }] : made);
  if (node.enum && node.enum.length > 0) {
    return withNull(node.enum.map((v, i) => ({ label: i === 0 ? undefined : `${path} = ${JSON.stringify(v)}`, value: v })));
  }
  const types = [...node.types].filter((t) => t !== 'null');
  const type = types[0] ?? (node.props || node.additional ? 'object' : node.items || node.prefixItems ? 'array' : nullable ? 'null' : 'string');
  switch (type) {
    case 'object':
      return withNull(objectValues(node, path, ctx));
    case 'array':
      return withNull(arrayValues(node, path, ctx));
    case 'null':
      return [{ label: undefined, value: null }];
    default:
      return withNull([{ label: undefined, value: scalar(type, node) }]);
  }
}

function scalar(type: string, node: Typed): unknown {
  const b = node.bounds;
  if (type === 'boolean') return true;
  if (type === 'number' || type === 'integer') {
    const min = typeof b.minimum === 'number' ? b.minimum : 1;
    return typeof b.maximum === 'number' ? Math.min(min, b.maximum) : min;
  }
  if (b.format === 'date-time') return DATE_TIME;
  return 'x'.repeat(Math.max(1, typeof b.minLength === 'number' ? b.minLength : 1));
}

function objectValues(node: Typed, path: string, ctx: Context): Made[] {
  const props = [...(node.props ?? new Map<string, Node>())];
  const required = node.required ?? new Set<string>();
  const minimal: Record<string, unknown> = {};
  const variations: Made[] = [];
  for (const [key, child] of props.filter(([k]) => required.has(k))) {
    const [first, ...rest] = valuesOf(child, at(path, key), ctx);
    minimal[key] = first!.value;
    variations.push(...rest.map((m) => ({ label: m.label, value: { [key]: m.value } })));
  }
  for (const [key, child] of props.filter(([k]) => !required.has(k))) {
    const made = tryValues(child, at(path, key), ctx);
    variations.push(...made.map((m) => ({ label: m.label ?? `${at(path, key)} alone`, value: { [key]: m.value } })));
  }
  if (typeof node.additional === 'object') {
    const made = tryValues(node.additional, `${path}{*}`, ctx);
    variations.push(...made.map((m) => ({ label: m.label ?? `${path}{*} one key`, value: { key1: m.value } })));
  }
  return [{ label: undefined, value: minimal }, ...variations.map((v) => ({ label: v.label, value: { ...minimal, ...(v.value as object) } }))];
}

function arrayValues(node: Typed, path: string, ctx: Context): Made[] {
  if (node.prefixItems) {
    const parts = node.prefixItems.map((p, i) => valuesOf(p, `${path}[${i}]`, ctx));
    const minimal = parts.map((p) => p[0]!.value);
    const variations = parts.flatMap((p, i) => p.slice(1).map((m) => ({ label: m.label, value: minimal.map((v, j) => (j === i ? m.value : v)) })));
    return [{ label: undefined, value: minimal }, ...variations];
  }
  const count = typeof node.bounds.minItems === 'number' ? node.bounds.minItems : 0;
  const items = node.items === undefined ? [{ label: undefined, value: 'x' }] : tryValues(node.items, `${path}[]`, ctx);
  if (items.length === 0) {
    if (count > 0) throw new NotExtracted(`${path}[]`, 'the items of a non-empty list are not extracted');
    return [{ label: undefined, value: [] }];
  }
  const filled = (first: unknown) => [first, ...Array.from({ length: Math.max(0, count - 1) }, () => items[0]!.value)];
  const minimal = count === 0 ? [] : filled(items[0]!.value);
  const variations = items.map((m) => ({ label: m.label ?? `${path}[] one item`, value: filled(m.value) }));
  return [{ label: undefined, value: minimal }, ...(count === 0 ? variations : variations.slice(1))];
}

/** A node's values, or none (noted in `skipped`) where it goes through a part that is not extracted. */
function tryValues(node: Node, path: string, ctx: Context): Made[] {
  try {
    return valuesOf(node, path, ctx);
  } catch (error) {
    if (!(error instanceof NotExtracted)) throw error;
    ctx.skipped.push(`${error.path}: ${error.why}`);
    return [];
  }
}
