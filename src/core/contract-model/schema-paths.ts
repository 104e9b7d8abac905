// Whether a zod schema has a place a contract path names: check-contract refuses a declared change that would do
// nothing at run time (a path no schema of its target has, a union member no schema tags).

import type { z } from 'zod';
import { type Segment, parsePath } from './field-path.js';

interface Def {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly getter?: () => z.ZodType;
  readonly values?: readonly unknown[];
  readonly entries?: Readonly<Record<string, unknown>>;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The alternatives a schema stands for once wrappers, pipes, lazies and unions are opened (intersections: both sides). */
function alternatives(s: z.ZodType, depth = 0): z.ZodType[] {
  if (depth > 32) return [];
  const def = defOf(s);
  switch (def.type) {
    case 'union':
      return (def.options ?? []).flatMap((o) => alternatives(o, depth + 1));
    case 'intersection':
      return [...(def.left ? alternatives(def.left, depth + 1) : []), ...(def.right ? alternatives(def.right, depth + 1) : [])];
    case 'pipe':
      return def.in ? alternatives(def.in, depth + 1) : [];
    case 'lazy':
      return def.getter ? alternatives(def.getter(), depth + 1) : [];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType ? alternatives(def.innerType, depth + 1) : [];
    default:
      return [s];
  }
}

/** The values a tag field allows (a literal or an enum); undefined when it allows any. */
function tagValues(s: z.ZodType | undefined): unknown[] | undefined {
  if (!s) return [];
  const out: unknown[] = [];
  for (const alt of alternatives(s)) {
    const def = defOf(alt);
    if (def.type === 'literal') out.push(...(def.values ?? []));
    else if (def.type === 'enum') out.push(...Object.values(def.entries ?? {}));
    else return undefined;
  }
  return out;
}

const OPEN = new Set(['unknown', 'any']);

/** A value whose members the schema does not name (a record, `unknown`). */
const isOpen = (s: z.ZodType): boolean => alternatives(s).some((a) => OPEN.has(defOf(a).type) || defOf(a).type === 'record');

/** The members of a union whose tag field allows one of `values` (a member with a free tag does not count). */
const tagged = (s: z.ZodType, tag: string, values: readonly string[]): z.ZodType[] =>
  alternatives(s).filter((member) => {
    const shape = defOf(member).shape;
    const allowed = shape ? tagValues(shape[tag]) : undefined;
    return !!allowed && allowed.some((v) => values.includes(String(v)));
  });

/**
 * Whether `schema` has the place `path` names: named keys (a record's keys, anything under `unknown`), array steps,
 * tagged members. With `openTags`, a union filter over an open value (a record, `unknown`) counts as met.
 */
export function schemaHas(schema: z.ZodType, path: string, openTags = false): boolean {
  const segments = parsePath(path);
  const walk = (s: z.ZodType, i: number): boolean => {
    if (i === segments.length) return true;
    const seg = segments[i] as Segment;
    return alternatives(s).some((alt) => {
      const def = defOf(alt);
      if (OPEN.has(def.type)) return openTags || seg.tag === undefined;
      if ('each' in seg) {
        if (def.type !== 'array' || !def.element) return false;
        if (seg.tag === undefined) return walk(def.element, i + 1);
        return tagged(def.element, seg.tag, seg.values ?? []).some((m) => walk(m, i + 1)) || (openTags && isOpen(def.element) && walk(def.element, i + 1));
      }
      if (def.type === 'object') {
        if (!def.shape || !Object.hasOwn(def.shape, seg.key)) return false;
        const next = def.shape[seg.key] as z.ZodType;
        if (seg.tag === undefined) return walk(next, i + 1);
        return tagged(next, seg.tag, seg.values ?? []).some((m) => walk(m, i + 1)) || (openTags && isOpen(next) && walk(next, i + 1));
      }
      if (def.type === 'record') return !!def.valueType && (seg.tag === undefined || openTags) && walk(def.valueType, i + 1);
      return false;
    });
  };
  return walk(schema, 0);
}
