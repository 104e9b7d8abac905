// The family (OpenAPI tag) of each method, found from its name, and the tags of a version's document.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadContract } from '../../src/core/contract-model/load.js';
import { familyOf, OTHER_FAMILY } from '../../src/core/derive/method-family.js';
import { openApiFor } from '../../src/core/derive/openapi.js';
import { ERROR_CATALOGUE } from '../../src/core/errors.js';

describe('familyOf', () => {
  it.each([
    ['startWorkbookExport', 'Export and import'],
    ['startWorkbookImport', 'Export and import'],
    ['getQLChart', 'QL charts'],
    ['createWizardChart', 'Wizard charts'],
    ['updateEditorChart', 'Editor charts'],
    ['getCollection', 'Collections'],
    ['getWorkbookEntries', 'Workbooks'],
    ['getConnection', 'Connections'],
    ['createDataset', 'Datasets'],
    ['getDashboard', 'Dashboards'],
    ['createReport', 'Reports'],
    ['getEntry', 'Entries'],
    ['getEntries', 'Entries'],
    ['createHtmlPage', 'HTML pages'],
    ['getPermissions', 'Folders and access'],
    ['deleteFolder', 'Folders and access'],
    ['createEntryLock', 'Entries'],
    ['getLicensesLimit', 'Licensing'],
    ['listEmbeddingSecrets', 'Embedding'],
    ['getAuditEntriesUpdates', 'Audit'],
    ['listDirectory', 'Folders and access'],
    ['getEntriesPermissions', 'Folders and access'],
  ])('puts %s under %s, the first family whose name it holds', (method, family) => {
    expect(familyOf(method).name).toBe(family);
    expect(familyOf(method).description.length).toBeGreaterThan(3);
  });

  it('describes each family in a sentence of its own', () => {
    const families = ['createHtmlPage', 'getPermissions', 'getQLChart', 'createReport'].map((m) => familyOf(m));
    expect(families.map((f) => f.description)).toEqual([
      'HTML pages and their revisions.',
      'Folders, and permissions on what they hold.',
      'Charts built from SQL queries.',
      'Reports.',
    ]);
  });

  it('puts a method of no family under Other', () => {
    expect(familyOf('ping')).toBe(OTHER_FAMILY);
    expect(familyOf('getEntr')).toBe(OTHER_FAMILY);
    expect(OTHER_FAMILY).toEqual({ name: 'Other', description: 'Methods of no family above.' });
  });

  it('tags each operation with its family and lists the families used, by name', () => {
    const method = { request: z.object({}), response: z.object({}) };
    const loaded = loadContract({ versions: [{ version: 1, methods: { ping: method, getReport: method, getDashboard: method }, changes: [] }] });
    const doc = openApiFor(loaded, 1) as { tags: { name: string }[]; paths: Record<string, { post: { tags: string[] } }> };
    expect(doc.tags.map((t) => t.name)).toEqual(['Dashboards', 'Other', 'Reports']);
    expect(doc.paths['/rpc/getReport']?.post.tags).toEqual(['Reports']);
    expect(doc.paths['/rpc/ping']?.post.tags).toEqual(['Other']);
  });
});

describe('the error answers and security of the OpenAPI document', () => {
  const doc = () => {
    const method = { request: z.object({}), response: z.object({}) };
    return openApiFor(loadContract({ versions: [{ version: 1, methods: { ping: method }, changes: [] }] }), 1) as {
      servers: { url: string }[];
      paths: Record<string, { post: { security: unknown; responses: Record<string, unknown> } }>;
      components: { securitySchemes: Record<string, Record<string, unknown>>; responses: Record<string, { description: string; content: Record<string, unknown> }> };
    };
  };

  it('names, for each error status, the gateway codes answered with it from the catalogue', () => {
    const { components } = doc();
    expect(components.responses.BadRequest?.description).toMatch(
      / Codes: `INVALID_API_VERSION_HEADER`, `VALIDATION_ERROR`, `INVALID_JSON`, `MALFORMED_REQUEST`\.$/,
    );
    expect(components.responses.Gone?.description).toMatch(/ Codes: `API_VERSION_SUNSET`\.$/);
    expect(components.responses.Unauthorized?.description).not.toContain('Codes:');
    expect(components.responses.Unauthorized?.description).toMatch(/when it had none\.$/);
    expect(Object.keys(components.responses.NotFound?.content ?? {})).toEqual(['application/problem+json', 'application/json']);
    expect(Object.keys(components.responses.Gone?.content ?? {})).toEqual(['application/problem+json']);
  });

  it('refers every operation to the error answers by status', () => {
    const responses = doc().paths['/rpc/ping']?.post.responses ?? {};
    expect(Object.keys(responses)).toEqual(['200', '400', '401', '403', '404', '409', '410', '413', '415', '422', '502', '504']);
  });

  it('asks for the bearer token and the organisation on every operation, served from the gateway itself', () => {
    const d = doc();
    expect(d.paths['/rpc/ping']?.post.security).toEqual([{ bearerAuth: [], orgId: [] }]);
    expect(d.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(d.components.securitySchemes.orgId).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-dl-org-id' });
    expect(d.servers.map((s) => s.url)).toEqual(['/']);
  });

  it('says what each error answer means, and which bodies it carries: the problem, or the backend\'s own error too', () => {
    const { components } = doc() as unknown as {
      components: { responses: Record<string, { description: string; content: unknown }>; schemas: Record<string, unknown> };
    };
    const meaning: Record<string, RegExp> = {
      BadRequest: /^The version header, the JSON or the body is wrong\./,
      Unauthorized: /^The backend did not accept the credentials/,
      Forbidden: /^The backend refused access/,
      NotFound: /^The method does not exist at this version/,
      Conflict: /^The object was saved under a newer schema version/,
      Gone: /^This API version is past its sunset, or in a brownout\./,
      PayloadTooLarge: /^The body is over the gateway's limit\./,
      UnsupportedMediaType: /^The body is not `application\/json`\./,
      TranslationFailed: /^A valid request of this version that cannot be expressed in the latest one\./,
      UpstreamUnavailable: /^The backend could not be reached or answered with a broken response\./,
      UpstreamTimeout: /^The backend did not answer in time\./,
    };
    expect(Object.keys(components.responses)).toEqual(Object.keys(meaning));
    const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
    const problemOrBackend = {
      'application/problem+json': { schema: { anyOf: [{ $ref: '#/components/schemas/Problem' }, { $ref: '#/components/schemas/BackendError' }] } },
      'application/json': { schema: { $ref: '#/components/schemas/BackendError' } },
    };
    for (const [name, pattern] of Object.entries(meaning)) {
      expect(components.responses[name]?.description, name).toMatch(pattern);
      const backendSpeaks = ['Unauthorized', 'Forbidden', 'NotFound', 'Conflict'].includes(name);
      expect(components.responses[name]?.content, name).toEqual(backendSpeaks ? problemOrBackend : problem);
    }
    expect(components.schemas.Problem).toEqual({
      type: 'object',
      description: expect.stringMatching(/RFC 9457 problem details.*`code` is stable, match on it\./),
      required: ['type', 'title', 'status', 'detail', 'code', 'message', 'details'],
      properties: {
        type: { type: 'string' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
        message: { type: 'string', description: expect.stringMatching(/fixed sentence .*otherwise equals `detail`/) },
        requestId: { type: ['string', 'null'], description: expect.stringMatching(/x-request-id/) },
        details: { type: ['object', 'array'], description: expect.stringMatching(/VALIDATION_ERROR, the array of issues/), items: { $ref: '#/components/schemas/ValidationIssue' } },
      },
      if: { properties: { code: { const: 'VALIDATION_ERROR' } } },
      then: { properties: { details: { type: 'array' } } },
      else: { properties: { details: { type: 'object' } } },
    });
    expect(components.schemas.BackendError).toEqual({
      type: 'object',
      description: expect.stringMatching(/backend's own error body/),
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
    });
  });

  it('explains its credentials and its server to a reader', () => {
    const d = doc() as unknown as { servers: unknown[]; components: { securitySchemes: Record<string, { description: string }> } };
    expect(d.components.securitySchemes.bearerAuth?.description).toMatch(/Authorization: Bearer <token>/);
    expect(d.components.securitySchemes.orgId?.description).toMatch(/organisation/);
    expect(d.servers).toEqual([{ url: '/', description: 'The gateway that serves this document' }]);
  });

  it('states the license, the version parameter, and an optional body only for methods that take none', () => {
    type Tree = { readonly kids: readonly Tree[] };
    const tree: z.ZodType<Tree> = z.lazy(() => z.looseObject({ kids: z.array(tree) }));
    const loaded = loadContract({
      versions: [
        {
          version: 1,
          methods: {
            ping: { request: z.looseObject({}), response: tree },
            list: { request: z.looseObject({}), response: z.looseObject({}), emptyBody: true },
          },
          changes: [],
        },
      ],
    });
    const d = openApiFor(loaded, 1) as any;
    expect(d.info.license).toEqual({ name: 'Apache-2.0', identifier: 'Apache-2.0' });
    expect(d.info.description).not.toContain('deprecated');
    expect(d.paths['/rpc/ping'].post.deprecated).toBeUndefined();
    expect(d.components.parameters.ApiVersion.description).toMatch(/^The API version this document describes\. \(`latest` selects/);
    expect(d.paths['/rpc/ping'].post.requestBody.required).toBe(true);
    expect(d.paths['/rpc/list'].post.requestBody.required).toBe(false);
    // A recursive answer becomes a component named after its method.
    expect(d.paths['/rpc/ping'].post.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/pingResponse' });
    expect(d.components.schemas.pingResponse).toMatchObject({ type: 'object' });
  });
});
