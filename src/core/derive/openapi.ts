// OpenAPI 3.1 for one API version, derived from the contract: every method as POST /rpc/<method>.

import { ERROR_CATALOGUE } from '../errors.js';
import type { LoadedContract } from '../contract-model/load.js';
import { withoutFilters } from '../contract-model/field-path.js';
import type { Deprecation, MethodSpec } from '../contract-model/types.js';
import { deprecationsFor } from '../impact/deprecations.js';
import { type Family, familyOf } from './method-family.js';
import { jsonSchemaOf, type JsonSchema } from '../schema/diff.js';
import { withStatedUnknownFields } from './unknown-fields.js';

export type OpenApiDocument = Record<string, unknown>;

/** Moves a schema's $defs into components.schemas, rewriting its local refs (in OpenAPI `#` is the document). */
function hoist(schema: JsonSchema, prefix: string, components: Record<string, unknown>): JsonSchema {
  const { $schema: _ignored, $defs, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const rename = (name: string) => `${prefix}_${name}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  let selfReferenced = false;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        if (v === '#') selfReferenced = true;
        out[k] = v === '#' ? `#/components/schemas/${prefix}` : v.replace(/^#\/\$defs\/(.+)$/, (_m, name: string) => `#/components/schemas/${rename(name)}`);
      } else out[k] = rewrite(v);
    }
    return out;
  };
  for (const [name, def] of Object.entries($defs ?? {})) components[rename(name)] = rewrite(def);
  const hoisted = rewrite(rest) as JsonSchema;
  // A recursive schema refers to itself as `#`: it becomes a component so that the rewritten ref resolves.
  if (!selfReferenced) return hoisted;
  components[prefix] = hoisted;
  return { $ref: `#/components/schemas/${prefix}` };
}

/** One issue of a VALIDATION_ERROR: zod 4's issue object, which real DataLens answers as it is. */
const VALIDATION_ISSUE_SCHEMA = {
  type: 'object',
  description:
    "Why the body was refused, as zod 4 reports it: `code` (invalid_type, unrecognized_keys, too_small, invalid_union, custom, …), `path` from the body's root (`[]` for the root itself), `message`, and the code's own fields (`expected`, `keys`, `minimum`, …).",
  required: ['code', 'path', 'message'],
  properties: {
    code: { type: 'string' },
    path: { type: 'array', items: { type: ['string', 'integer'] } },
    message: { type: 'string' },
  },
};

const PROBLEM_SCHEMA = {
  type: 'object',
  description: "The gateway's error body (RFC 9457 problem details plus the DataLens fields); `code` is stable, match on it.",
  required: ['type', 'title', 'status', 'detail', 'code', 'message', 'details'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
    message: { type: 'string', description: "Real DataLens's fixed sentence for the code where it has one (`Validation error`, …); otherwise equals `detail`." },
    requestId: { type: ['string', 'null'], description: 'Equals the x-request-id header of the answer.' },
    details: {
      type: ['object', 'array'],
      description: 'An object of facts about the refusal; for VALIDATION_ERROR, the array of issues, as real DataLens answers it.',
      items: { $ref: '#/components/schemas/ValidationIssue' },
    },
  },
  // Which of the two `details` shapes a code has.
  if: { properties: { code: { const: 'VALIDATION_ERROR' } } },
  then: { properties: { details: { type: 'array' } } },
  else: { properties: { details: { type: 'object' } } },
};

/** The backend's own refusals pass through with its body: DataLens clients read code, message and details. */
const BACKEND_ERROR_SCHEMA = {
  type: 'object',
  description: "The backend's own error body, passed through as the backend sent it.",
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    details: {},
  },
};

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
const problemOrBackend = {
  'application/problem+json': { schema: { anyOf: [{ $ref: '#/components/schemas/Problem' }, { $ref: '#/components/schemas/BackendError' }] } },
  'application/json': { schema: { $ref: '#/components/schemas/BackendError' } },
};

/** The error answers every operation may get, by status: [component name, what it means, content]. */
const ERROR_RESPONSES: readonly (readonly [string, string, string, Record<string, unknown>])[] = [
  ['400', 'BadRequest', 'The version header, the JSON or the body is wrong.', problem],
  ['401', 'Unauthorized', 'The backend did not accept the credentials: its JSON answer as it sent it, or `UPSTREAM_ERROR` when it had none.', problemOrBackend],
  ['403', 'Forbidden', 'The backend refused access: its JSON answer as it sent it, or `UPSTREAM_ERROR` when it had none.', problemOrBackend],
  ['404', 'NotFound', 'The method does not exist at this version (with the versions where it does), or the backend knows no such object (its own answer).', problemOrBackend],
  ['409', 'Conflict', 'The object was saved under a newer schema version than this one, e.g. edited in the web UI.', problemOrBackend],
  ['410', 'Gone', 'This API version is past its sunset, or in a brownout.', problem],
  ['413', 'PayloadTooLarge', "The body is over the gateway's limit.", problem],
  ['415', 'UnsupportedMediaType', 'The body is not `application/json`.', problem],
  ['422', 'TranslationFailed', 'A valid request of this version that cannot be expressed in the latest one.', problem],
  ['502', 'UpstreamUnavailable', 'The backend could not be reached or answered with a broken response.', problem],
  ['504', 'UpstreamTimeout', 'The backend did not answer in time.', problem],
];

/** Every operation's error answers, as references to the components above (the same for each method). */
const ERROR_REFS: Readonly<Record<string, unknown>> = Object.freeze(
  Object.fromEntries(ERROR_RESPONSES.map(([status, response]) => [status, Object.freeze({ $ref: `#/components/responses/${response}` })])),
);

/** The gateway's codes answered with `status`, from the catalogue. */
function codesAt(status: number): string {
  const codes = Object.entries(ERROR_CATALOGUE)
    .filter(([, entry]) => entry.status === status)
    .map(([code]) => `\`${code}\``);
  return codes.length ? ` Codes: ${codes.join(', ')}.` : '';
}

/** The sentence a deprecated method or field carries in the documents. */
const deprecationNote = (d: Deprecation) => `Deprecated from ${d.since.slice(0, 10)}: ${d.description} Use instead: ${d.replacement}.`;

/** Marks the request schema's property at `path` deprecated (`*` steps into items; $refs into components are followed). */
function markDeprecatedField(schema: JsonSchema, path: string, components: Record<string, unknown>, note: string): void {
  const resolve = (s: unknown): Record<string, unknown> | undefined => {
    let node = s as Record<string, unknown> | undefined;
    for (let i = 0; i < 8 && node && typeof node.$ref === 'string'; i++) node = components[node.$ref.replace('#/components/schemas/', '')] as Record<string, unknown> | undefined;
    return node && typeof node === 'object' ? node : undefined;
  };
  let node = resolve(schema);
  const parts = withoutFilters(path).split('.');
  for (const [i, part] of parts.entries()) {
    if (!node) return;
    if (part === '*') {
      node = resolve(node.items);
      continue;
    }
    const props = node.properties as Record<string, Record<string, unknown>> | undefined;
    if (!props || !props[part]) return;
    if (i === parts.length - 1) {
      props[part] = { ...props[part], deprecated: true, description: [props[part].description, note].filter(Boolean).join(' ') };
      return;
    }
    node = resolve(props[part]);
  }
}

export interface DocumentLifecycle {
  /** The version is deprecated now: every operation is marked, and info says until when it is served. */
  readonly deprecated: boolean;
  readonly sunset?: Date | undefined;
  /** Methods this deployment's backend does not serve (a backend below the version): left out of the document. */
  readonly notServed?: ReadonlySet<string>;
}

/** The one rule for fields a request object does not name, at every version (docs/reference/catalogue.md). */
export const UNKNOWN_FIELDS_RULE =
  'Fields a request object does not name: where its schema says `additionalProperties: false` (the methods whose real DataLens schema is strict, and the report methods) the gateway refuses them with VALIDATION_ERROR; elsewhere they pass to the backend unchanged.';

const SECURITY = [{ bearerAuth: [], orgId: [] }];

/** An experimental method's summary prefix, as the real spec writes it (datalens-tech/datalens-sdk spec/yacloud.json @ 021501bb). */
export const EXPERIMENTAL_PREFIX = '🚧 [Experimental] ';

export function openApiFor(
  contract: LoadedContract,
  version: number,
  lifecycle: DocumentLifecycle = { deprecated: false },
): OpenApiDocument {
  const spec = contract.byVersion.get(version);
  if (!spec) throw new Error(`no API version ${version}`);
  const schemas: Record<string, unknown> = { Problem: PROBLEM_SCHEMA, ValidationIssue: VALIDATION_ISSUE_SCHEMA, BackendError: BACKEND_ERROR_SCHEMA };
  const paths: Record<string, unknown> = {};
  const families = new Map<string, Family>();
  for (const name of Object.keys(spec.methods).sort()) {
    const method = spec.methods[name];
    if (!method || lifecycle.notServed?.has(name)) continue;
    const family = familyOf(name);
    families.set(family.name, family);
    paths[`/rpc/${name}`] = { post: operationOf(contract, version, name, method, family, lifecycle, schemas) };
  }
  return {
    openapi: '3.1.0',
    info: infoOf(version, lifecycle),
    // Relative: the methods are served by the gateway that serves this document, at its root.
    servers: [{ url: '/', description: 'The gateway that serves this document' }],
    tags: [...families.values()].sort((a, b) => a.name.localeCompare(b.name)).map((f) => ({ name: f.name, description: f.description })),
    paths,
    components: componentsOf(version, schemas),
  };
}

/** One method's operation: its request and answer schemas hoisted into `schemas`, its deprecations marked. */
function operationOf(
  contract: LoadedContract,
  version: number,
  name: string,
  method: MethodSpec,
  family: Family,
  lifecycle: DocumentLifecycle,
  schemas: Record<string, unknown>,
): Record<string, unknown> {
  const requestSchema = hoist(withStatedUnknownFields(jsonSchemaOf(method.request, 'request')), `${name}Request`, schemas);
  const responseSchema = hoist(jsonSchemaOf(method.response, 'response'), `${name}Response`, schemas);
  const deprecations = deprecationsFor(contract, version, name);
  const methodDeprecation = deprecations.find((d) => d.path === undefined);
  for (const d of deprecations) if (d.path !== undefined) markDeprecatedField(requestSchema, d.path, schemas, deprecationNote(d));
  return {
    operationId: name,
    // Clients such as @datalens-tech/mcp show "summary — description": one sentence, once.
    summary: `${method.experimental ? EXPERIMENTAL_PREFIX : ''}${method.description ?? name}`,
    tags: [family.name],
    ...((lifecycle.deprecated || methodDeprecation) && { deprecated: true }),
    ...(methodDeprecation && { description: deprecationNote(methodDeprecation) }),
    ...(method.mcpDisabled && { 'x-mcp-disabled': true }),
    security: SECURITY,
    parameters: [
      { $ref: '#/components/parameters/ApiVersion' },
      ...(method.headers ?? []).map((h) => ({ name: h.name, in: 'header', required: false, description: h.description, schema: { type: 'string', enum: [...h.values] } })),
    ],
    requestBody: { required: method.emptyBody !== true, content: { 'application/json': { schema: requestSchema } } },
    responses: {
      '200': { description: 'Success', content: { 'application/json': { schema: responseSchema } } },
      ...ERROR_REFS,
    },
  };
}

function infoOf(version: number, lifecycle: DocumentLifecycle): Record<string, unknown> {
  return {
    title: 'DataLens public API',
    version: String(version),
    description:
      `API version ${version}, served by dl-version-gateway. Send \`x-dl-api-version: ${version}\` with every call. ` +
      UNKNOWN_FIELDS_RULE +
      (lifecycle.deprecated
        ? ` This version is deprecated${lifecycle.sunset ? ` and served until ${lifecycle.sunset.toISOString()}` : ''}; see /changelog.`
        : ''),
    license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
  };
}

/** Security schemes, the version header, the error answers and the hoisted schemas. */
function componentsOf(version: number, schemas: Record<string, unknown>): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, name, description, content] of ERROR_RESPONSES) {
    responses[name] = { description: description + codesAt(Number(status)), content };
  }
  return {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'The user\'s token, sent as `Authorization: Bearer <token>`; the gateway passes it to the backend.' },
      orgId: { type: 'apiKey', in: 'header', name: 'x-dl-org-id', description: 'The organisation the call acts in; the gateway passes it to the backend.' },
    },
    parameters: {
      ApiVersion: {
        name: 'x-dl-api-version',
        in: 'header',
        required: true,
        description: `The API version this document describes. (\`latest\` selects the newest released version, whose document is at /json/.)`,
        schema: { type: 'string', enum: [String(version)], default: String(version) },
      },
    },
    responses,
    schemas,
  };
}
