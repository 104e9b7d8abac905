// The real version-3 request schemas (v3-request-schemas.json) and the gateway's own, both normalised per method.

import { existsSync, readFileSync } from 'node:fs';
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

/** ../shared/reference beside the repository root; absent in a clean clone (CI). */
const V2_INDEX = new URL('../../../../shared/reference/datalens-api-v2-operation-schema-index.json', import.meta.url);

/**
 * The methods whose real version-2 request names the same component as version 3's in the real v2 operation schema
 * index (an inline body or none counts as the same where both are): the v3 facts are taken to hold for them at
 * version 2 too, as far as the index can tell. Undefined when the index is not beside the repository.
 */
export function sameAtVersion2(): readonly string[] | undefined {
  if (!existsSync(V2_INDEX)) return undefined;
  const index: Record<string, { request_schema_kind?: string; request_schema_ref?: string }> = JSON.parse(readFileSync(V2_INDEX, 'utf8'));
  return Object.keys(REAL.methods)
    .sort()
    .filter((m) => {
      const v2 = index[m];
      const v3 = REAL.methods[m]!.component;
      const v2name = v2?.request_schema_kind === 'ref' ? v2.request_schema_ref : v2?.request_schema_kind;
      return v2name !== undefined && v2name === v3;
    });
}
