// OpenAPI 3.1 for one API version, derived from the contract: every method as POST /rpc/<method>.

import { ERROR_CATALOGUE } from '../errors.js';
import type { LoadedContract } from '../contract/load.js';
import { jsonSchemaOf, type JsonSchema } from './schema-diff.js';

export type OpenApiDocument = Record<string, unknown>;

/** Moves a schema's $defs into components.schemas, rewriting its local refs (in OpenAPI `#` is the document). */
function hoist(schema: JsonSchema, prefix: string, components: Record<string, unknown>): JsonSchema {
  const { $schema: _ignored, $defs, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const rename = (name: string) => `${prefix}_${name}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        out[k] = v === '#' ? `#/components/schemas/${prefix}` : v.replace(/^#\/\$defs\/(.+)$/, (_m, name: string) => `#/components/schemas/${rename(name)}`);
      } else out[k] = rewrite(v);
    }
    return out;
  };
  for (const [name, def] of Object.entries($defs ?? {})) components[rename(name)] = rewrite(def);
  return rewrite(rest) as JsonSchema;
}

const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code', 'message', 'details'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
    message: { type: 'string' },
    requestId: { type: ['string', 'null'] },
    details: { type: 'object' },
  },
};

export interface DocumentLifecycle {
  /** The version is deprecated now: every operation is marked, and info says until when it is served. */
  readonly deprecated: boolean;
  readonly sunset?: Date | undefined;
}

export function openApiFor(
  contract: LoadedContract,
  version: number,
  lifecycle: DocumentLifecycle = { deprecated: false },
): OpenApiDocument {
  const spec = contract.byVersion.get(version);
  if (!spec) throw new Error(`no API version ${version}`);
  const schemas: Record<string, unknown> = { Problem: PROBLEM_SCHEMA };
  const paths: Record<string, unknown> = {};
  for (const name of Object.keys(spec.methods).sort()) {
    const method = spec.methods[name];
    if (!method) continue;
    const requestSchema = hoist(jsonSchemaOf(method.request, 'request'), `${name}Request`, schemas);
    const responseSchema = hoist(jsonSchemaOf(method.response, 'response'), `${name}Response`, schemas);
    paths[`/rpc/${name}`] = {
      post: {
        operationId: name,
        // Clients such as @datalens-tech/mcp show "summary — description": one sentence, once.
        summary: method.description ?? name,
        ...(lifecycle.deprecated && { deprecated: true }),
        parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
        requestBody: { required: true, content: { 'application/json': { schema: requestSchema } } },
        responses: {
          '200': { description: 'Success', content: { 'application/json': { schema: responseSchema } } },
          default: {
            description: 'An error (see the error catalogue)',
            content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
          },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'DataLens public API',
      version: String(version),
      description:
        `API version ${version}, served by dl-version-gateway. Send \`x-dl-api-version: ${version}\` with every call.` +
        (lifecycle.deprecated
          ? ` This version is deprecated${lifecycle.sunset ? ` and served until ${lifecycle.sunset.toISOString()}` : ''}; see /changelog.`
          : ''),
    },
    paths,
    components: {
      parameters: {
        ApiVersion: {
          name: 'x-dl-api-version',
          in: 'header',
          required: true,
          description: 'The API version: an integer, or `latest` for the newest released version.',
          schema: { type: 'string', examples: [String(version), 'latest'] },
        },
      },
      schemas,
    },
  };
}
