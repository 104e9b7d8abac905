// Small builders for changes, so a contract reads as a list of facts. Each requires a description.

import type {
  BodyMigration,
  Json,
  CustomChange,
  FieldAdded,
  FieldRemoved,
  FieldRenamed,
  FieldToArray,
  MethodAdded,
  MethodRemoved,
  Target,
  ValueConversion,
} from './types.js';

export const request = (method: string): Target => ({ request: method });
export const response = (method: string): Target => ({ response: method });
export const object = (type: string): Target => ({ object: type });

export const fieldAdded = (target: Target, path: string, defaultValue: unknown, description: string): FieldAdded => ({
  kind: 'fieldAdded',
  target,
  path,
  default: defaultValue,
  description,
});

export const fieldRemoved = (
  target: Target,
  path: string,
  description: string,
  options: { downDefault?: unknown } = {},
): FieldRemoved => ({ kind: 'fieldRemoved', target, path, description, ...options });

export const fieldRenamed = (target: Target, from: string, to: string, description: string): FieldRenamed => ({
  kind: 'fieldRenamed',
  target,
  from,
  to,
  description,
});

/** A rename whose value changes form on the way (one colour → a themed pair): `convert` says how, each way. */
export const fieldConverted = (target: Target, from: string, to: string, convert: ValueConversion, description: string): FieldRenamed => ({
  kind: 'fieldRenamed',
  target,
  from,
  to,
  convert,
  description,
});

/** A rename to another depth of the body: the same migration as a rename. */
export const fieldMoved = fieldRenamed;

export const fieldToArray = (target: Target, path: string, description: string): FieldToArray => ({
  kind: 'fieldToArray',
  target,
  path,
  description,
});

export const methodAdded = (method: string, description: string): MethodAdded => ({ kind: 'methodAdded', method, description });

/** `'kept-by-backend'`: no replacement; the backend keeps serving the method to the older versions' clients. */
export const methodRemoved = (
  method: string,
  description: string,
  replacedBy?: { method: string; request?: BodyMigration; response?: BodyMigration } | 'kept-by-backend',
): MethodRemoved => ({
  kind: 'methodRemoved',
  method,
  description,
  ...(replacedBy === 'kept-by-backend' ? { keptByBackend: true } : replacedBy && { replacedBy }),
});

export const custom = (change: Omit<CustomChange, 'kind'>): CustomChange => ({ kind: 'custom', ...change });

/** A copy of a body without some top-level fields; a loop, as object-rest destructuring is slow in V8 (BENCHMARKS.md). */
export function omit(body: Json, ...fields: string[]): Json {
  const out: Json = {};
  for (const key of Object.keys(body)) {
    if (fields.includes(key)) continue;
    // JSON.parse keeps "__proto__" as an own key: copy it as one, never as the copy's prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: body[key], enumerable: true, writable: true, configurable: true });
    else out[key] = body[key];
  }
  return out;
}
