// The real version-3 request schemas (v3-request-schemas.json) and the gateway's own, both normalised per method.

import { readFileSync } from 'node:fs';
import { shippedContract } from '../../../src/contract/index.js';
import { loadContract } from '../../../src/core/contract-model/load.js';
import { openApiFor } from '../../../src/core/derive/openapi.js';
import { type Node, normalise } from './normalise.js';

type Json = Record<string, any>;

export interface RealMethod {
  readonly component: string;
  readonly schema: Json;
}

export interface RealSchemas {
  readonly source: Json;
  readonly coverage: Json;
  readonly methods: Readonly<Record<string, RealMethod>>;
  readonly definitions: Readonly<Record<string, Json>>;
}

export const REAL: RealSchemas = JSON.parse(readFileSync(new URL('../v3-request-schemas.json', import.meta.url), 'utf8'));

const realRef = (ref: string) => REAL.definitions[ref];

/** The real request schema of a method, normalised; a method without a body takes an empty object. */
export function realRequest(method: string): Node {
  const schema = REAL.methods[method]?.schema;
  if (!schema) throw new Error(`no real schema for ${method}`);
  return schema['x-no-request-body'] ? { kind: 'typed', types: new Set(['object']), props: new Map(), bounds: {} } : normalise(schema, realRef);
}

/** The real schema of a method with its named definitions, for body generators that walk it themselves. */
export const realSchemaOf = (method: string): Json => REAL.methods[method]!.schema;
export const realDefinition = (name: string): Json | undefined => REAL.definitions[name];

/** The gateway's `/<version>/json/` document, derived in-process from the shipped contract. */
export function gatewayDocument(version: number): Json {
  return openApiFor(loadContract(shippedContract), version) as Json;
}

/** A method's request schema in a gateway document, normalised, or undefined when the document has no such path. */
export function gatewayRequest(doc: Json, method: string): Node | undefined {
  const op = doc.paths?.[`/rpc/${method}`]?.post;
  if (!op) return undefined;
  const schema = op.requestBody?.content?.['application/json']?.schema;
  const resolve = (ref: string) => doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
  return normalise(schema ?? {}, resolve);
}
