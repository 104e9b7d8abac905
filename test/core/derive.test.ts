// The documents derived from a contract: OpenAPI 3.1 per version, and the changelog.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldAdded, fieldRenamed, methodAdded, object, request } from '../../src/core/contract-model/builders.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { Contract, MethodSpec, VersionSpec } from '../../src/core/contract-model/types.js';
import { renderChangelog } from '../../src/core/derive/changelog.js';
import { UNKNOWN_FIELDS_RULE, openApiFor } from '../../src/core/derive/openapi.js';
import { ERROR_CATALOGUE } from '../../src/core/errors.js';
import { buildCalendar } from '../../src/core/lifecycle/calendar.js';

const Tag = z.object({ label: z.string() }).meta({ id: 'Tag item' });
const makeV1: MethodSpec = {
  description: 'Creates a widget.',
  request: z.object({ name: z.string(), size: z.number().default(1) }),
  response: z.object({ id: z.string(), tags: z.array(Tag), more: z.array(Tag) }),
};
const makeV2: MethodSpec = { ...makeV1, request: z.object({ title: z.string(), size: z.number().default(1) }) };
const ping: MethodSpec = { request: z.object({}), response: z.object({ ok: z.boolean() }) };

// Built inside each test: code run while tests are collected would make every mutant in it a static one.
const contract = (): Contract => ({
  versions: [
    { version: 1, methods: { ping, make: makeV1 }, changes: [], additions: [fieldAdded(object('widget'), 'size', 1, 'Widgets have a `size`.')] },
    {
      version: 2,
      methods: { ping, make: makeV2, zap: ping },
      changes: [methodAdded('zap', 'New method `zap`.'), fieldRenamed(request('make'), 'name', 'title', 'make: `name` is now `title`.')],
    },
    { version: 3, methods: { ping, make: makeV2, zap: ping }, changes: [] },
  ],
});
const loaded = () => loadContract(contract());

type Doc = {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, { post: Record<string, unknown> }>;
  components: { parameters: Record<string, unknown>; schemas: Record<string, Record<string, unknown>> };
};

describe('openApiFor', () => {
  const v2doc = () => openApiFor(loaded(), 2) as Doc;

  it('describes every method of the version as POST /rpc/<method>, in name order', () => {
    const doc = v2doc();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(['/rpc/make', '/rpc/ping', '/rpc/zap']);
    const make = doc.paths['/rpc/make']?.post;
    expect(make).toMatchObject({
      operationId: 'make',
      summary: 'Creates a widget.',
      parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
      requestBody: { required: true },
    });
    expect(make).not.toHaveProperty('deprecated');
    expect(doc.paths['/rpc/ping']?.post.summary).toBe('ping');
  });

  it("carries the real spec's marks: an experimental method's summary prefix, x-mcp-disabled on the operation", () => {
    const [v1, v2, v3] = contract().versions as [VersionSpec, VersionSpec, VersionSpec];
    const marks = { make: { ...makeV2, experimental: true, mcpDisabled: true }, zap: { ...ping, experimental: true } };
    const doc = openApiFor(loadContract({ versions: [v1, v2, { ...v3, methods: { ...v3.methods, ...marks } }] }), 3) as Doc;
    expect(doc.paths['/rpc/make']?.post).toMatchObject({ summary: '🚧 [Experimental] Creates a widget.', 'x-mcp-disabled': true });
    expect(doc.paths['/rpc/zap']?.post.summary).toBe('🚧 [Experimental] zap');
    expect(doc.paths['/rpc/zap']?.post).not.toHaveProperty('x-mcp-disabled');
    expect(doc.paths['/rpc/ping']?.post).toMatchObject({ summary: 'ping' });
    expect(doc.paths['/rpc/ping']?.post).not.toHaveProperty('x-mcp-disabled');
  });

  it('gives each operation its request and response schemas at that version, and the problem answer', () => {
    const doc = v2doc();
    const make = doc.paths['/rpc/make']?.post as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown>; required?: string[] } }> };
      responses: Record<string, { description?: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
    };
    const req = make.requestBody.content['application/json']?.schema;
    expect(Object.keys(req?.properties ?? {})).toEqual(['title', 'size']);
    expect(req?.required).toEqual(['title']);
    expect(req).not.toHaveProperty('$schema');
    expect(make.responses['200']?.description).toBe('Success');
    expect(make.responses['200']?.content?.['application/json']?.schema).toMatchObject({ required: ['id', 'tags', 'more'] });
    const components = (doc.components as unknown as { responses: Record<string, { description: string; content: Record<string, unknown> }> }).responses;
    for (const [status, answer] of Object.entries(make.responses)) {
      if (status === '200') continue;
      const name = (answer as unknown as { $ref: string }).$ref.replace('#/components/responses/', '');
      expect(components[name], `${status} → ${name}`).toBeDefined();
    }
    expect(make.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(components.NotFound?.description).toContain('`ENDPOINT_NOT_FOUND`');
  });

  it('hoists shared definitions into components, renamed per method and direction, with refs rewritten', () => {
    const doc = v2doc();
    const response = (doc.paths['/rpc/make']?.post as { responses: { '200': { content: { 'application/json': { schema: { properties: Record<string, { items: unknown }> } } } } } })
      .responses['200'].content['application/json'].schema;
    expect(response.properties.tags?.items).toEqual({ $ref: '#/components/schemas/makeResponse_Tag_item' });
    expect(response.properties.more?.items).toEqual({ $ref: '#/components/schemas/makeResponse_Tag_item' });
    expect(doc.components.schemas.makeResponse_Tag_item).toMatchObject({ type: 'object', required: ['label'] });
    expect(response).not.toHaveProperty('$defs');
  });

  it('describes the problem answer with every catalogue code, and the version header', () => {
    const doc = v2doc();
    const problem = doc.components.schemas.Problem as { type: string; required: string[]; properties: Record<string, { type: unknown; enum?: unknown }> };
    expect(problem.type).toBe('object');
    expect(problem.required).toEqual(['type', 'title', 'status', 'detail', 'code', 'message', 'details']);
    expect(Object.fromEntries(Object.entries(problem.properties).map(([k, v]) => [k, v.type]))).toEqual({
      type: 'string',
      title: 'string',
      status: 'integer',
      detail: 'string',
      code: 'string',
      message: 'string',
      requestId: ['string', 'null'],
      details: ['object', 'array'],
    });
    expect(problem.properties.code?.enum).toEqual(Object.keys(ERROR_CATALOGUE));
    // VALIDATION_ERROR's details are the array of issues (as real DataLens answers), every other code's an object.
    expect(problem).toMatchObject({
      if: { properties: { code: { const: 'VALIDATION_ERROR' } } },
      then: { properties: { details: { type: 'array' } } },
      else: { properties: { details: { type: 'object' } } },
    });
    expect(problem.properties.details).toMatchObject({ items: { $ref: '#/components/schemas/ValidationIssue' } });
    expect(doc.components.schemas.ValidationIssue).toMatchObject({
      type: 'object',
      required: ['code', 'path', 'message'],
      properties: { code: { type: 'string' }, path: { type: 'array', items: { type: ['string', 'integer'] } }, message: { type: 'string' } },
    });
    expect(doc.components.parameters.ApiVersion).toMatchObject({
      name: 'x-dl-api-version',
      in: 'header',
      required: true,
      schema: { type: 'string', enum: ['2'] },
    });
  });

  it('names the version in info, and says nothing of deprecation by default', () => {
    const doc = v2doc();
    expect(doc.info).toMatchObject({
      title: 'DataLens public API',
      version: '2',
      description: `API version 2, served by dl-version-gateway. Send \`x-dl-api-version: 2\` with every call. ${UNKNOWN_FIELDS_RULE}`,
    });
  });

  it('marks every operation of a deprecated version and says until when it is served', () => {
    const old = openApiFor(loaded(), 1, { deprecated: true, sunset: new Date('2026-03-01T00:00:00Z') }) as Doc;
    expect(Object.values(old.paths).map((p) => p.post.deprecated)).toEqual([true, true]);
    expect(old.info.description).toBe(
      `API version 1, served by dl-version-gateway. Send \`x-dl-api-version: 1\` with every call. ${UNKNOWN_FIELDS_RULE} This version is deprecated and served until 2026-03-01T00:00:00.000Z; see /changelog.`,
    );
    const noSunset = openApiFor(loaded(), 1, { deprecated: true }) as Doc;
    expect(noSunset.info.description).toMatch(/ refuses them with VALIDATION_ERROR; elsewhere they pass to the backend unchanged\. This version is deprecated; see \/changelog\.$/);
  });

  it('refuses a version the contract does not have', () => {
    expect(() => openApiFor(loaded(), 9)).toThrow('no API version 9');
  });

  it('makes a recursive schema a component of its own, referred to by the operation and by itself', () => {
    const Tree: z.ZodType = z.object({ name: z.string(), children: z.array(z.lazy(() => Tree)) });
    const out = openApiFor(loadContract({ versions: [{ version: 1, methods: { grow: { request: Tree, response: z.object({}) } }, changes: [] }] }), 1) as Doc;
    const grow = out.paths['/rpc/grow']?.post as { requestBody: { content: { 'application/json': { schema: unknown } } } };
    expect(grow.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/growRequest' });
    expect(out.components.schemas.growRequest).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/growRequest' } } },
    });
  });

  it('keeps a field named $ref as a field', () => {
    const method = { request: z.object({ $ref: z.string() }), response: z.object({}) };
    const out = openApiFor(loadContract({ versions: [{ version: 1, methods: { m: method }, changes: [] }] }), 1) as Doc;
    const m = out.paths['/rpc/m']?.post as { requestBody: { content: { 'application/json': { schema: { properties: unknown } } } } };
    expect(m.requestBody.content['application/json'].schema.properties).toEqual({ $ref: { type: 'string' } });
  });

  it('leaves text that merely looks like a ref alone', () => {
    const method = { request: z.object({ path: z.string().default('#/$defs/Thing') }), response: z.object({}) };
    const out = openApiFor(loadContract({ versions: [{ version: 1, methods: { m: method }, changes: [] }] }), 1) as Doc;
    expect(JSON.stringify(out.paths['/rpc/m'])).toContain('"default":"#/$defs/Thing"');
  });

  it('keeps a recursive request schema resolvable: every local ref names a component', () => {
    const Tree: z.ZodType = z.object({ name: z.string(), children: z.array(z.lazy(() => Tree)) });
    const tree = loadContract({ versions: [{ version: 1, methods: { grow: { request: Tree, response: Tree } }, changes: [] }] });
    const out = openApiFor(tree, 1) as Doc;
    const refs = [...JSON.stringify(out).matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)].map((m) => [m[1], m[2]] as const);
    expect(refs.length).toBeGreaterThan(2);
    for (const [kind, name] of refs) {
      expect(Object.keys((out.components as Record<string, Record<string, unknown>>)[kind as string] ?? {}), `${kind}/${name}`).toContain(name);
    }
  });
});

describe('renderChangelog', () => {
  it('lists the versions newest first, breaking changes before compatible ones, additions with the version they shipped in', () => {
    expect(renderChangelog(loaded())).toBe(
      [
        '# API changelog',
        '',
        '## Version 3',
        '',
        '## Version 2',
        '',
        '### Breaking changes',
        '',
        '- make: `name` is now `title`.',
        '',
        '### Compatible changes',
        '',
        '- New method `zap`.',
        '',
        '## Version 1',
        '',
        'The first version: 2 methods.',
        '',
        '### Compatible changes',
        '',
        '- Widgets have a `size`.',
        '',
      ].join('\n'),
    );
  });

  it('gives each version its release, deprecation and sunset days from a calendar', () => {
    const calendar = buildCalendar(
      [
        { version: 1, releasedAt: new Date('2025-01-01T10:00:00Z') },
        { version: 2, releasedAt: new Date('2025-02-01T10:00:00Z'), sunsetAt: new Date('2025-12-31T23:00:00Z') },
        { version: 3, releasedAt: new Date('2025-03-01T10:00:00Z') },
      ],
      30,
    );
    const text = renderChangelog(loaded(), calendar);
    expect(text).toContain('\n## Version 3 (released 2025-03-01)\n');
    expect(text).toContain('\n## Version 2 (released 2025-02-01, deprecated 2025-03-01, sunset 2025-12-31)\n');
    expect(text).toContain('\n## Version 1 (released 2025-01-01, deprecated 2025-02-01, sunset 2025-03-03)\n');
  });

  it('leaves out dates of a version the calendar does not list', () => {
    const calendar = buildCalendar([{ version: 1, releasedAt: new Date('2025-01-01T00:00:00Z') }], 30);
    const text = renderChangelog(loaded(), calendar);
    expect(text).toContain('\n## Version 2\n');
    expect(text).toContain('\n## Version 1 (released 2025-01-01)\n');
  });

  it('ends with exactly one newline', () => {
    const single = loadContract({ versions: [{ version: 1, methods: { ping }, changes: [] }] });
    expect(renderChangelog(single)).toBe('# API changelog\n\n## Version 1\n\nThe first version: 1 methods.\n');
  });
});
