// Where a request schema would silently drop what a client sent: objects that strip unknown keys (zod's plain
// `z.object`). Request objects must say what they do with an unknown key: keep it (loose) or refuse it (strict).

import type { z } from 'zod';

interface Def {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly items?: readonly z.ZodType[];
  readonly rest?: z.ZodType | null;
  readonly in?: z.ZodType;
  readonly getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const join = (base: string, key: string) => (base === '' ? key : `${base}.${key}`);

/** The dotted paths ("" for the body itself, `*` for array items) of objects in `schema` that strip unknown keys. */
export function strippingObjects(schema: z.ZodType): string[] {
  const found: string[] = [];
  const expanded = new Set<z.ZodType>(); // lazy schemas, once each: they may refer to themselves
  const visit = (s: z.ZodType | null | undefined, path: string): void => {
    if (!s) return;
    const def = defOf(s);
    switch (def.type) {
      case 'object':
        if (!def.catchall) found.push(path);
        for (const [key, value] of Object.entries(def.shape ?? {})) visit(value, join(path, key));
        visit(def.catchall, join(path, '*'));
        return;
      case 'array':
        return visit(def.element, join(path, '*'));
      case 'record':
        return visit(def.valueType, join(path, '*'));
      case 'tuple':
        def.items?.forEach((item, i) => visit(item, join(path, String(i))));
        return visit(def.rest, join(path, '*'));
      case 'union':
        return def.options?.forEach((option) => visit(option, path));
      case 'intersection':
        visit(def.left, path);
        return visit(def.right, path);
      case 'pipe':
        return visit(def.in, path);
      case 'lazy':
        if (expanded.has(s)) return;
        expanded.add(s);
        return visit(def.getter?.(), path);
      default:
        // optional, nullable, default, prefault, nonoptional, readonly, catch: the wrapped schema.
        return visit(def.innerType, path);
    }
  };
  visit(schema, '');
  return [...new Set(found)];
}
