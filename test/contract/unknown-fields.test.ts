// The shipped contract states the unknown-field rule on every request object of every version, in each OpenAPI
// document: refused (false) exactly where the real DataLens schema is strict and for the seed's report methods.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shippedContract } from '../../src/contract/index.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import { openApiFor } from '../../src/core/derive/openapi.js';
import { jsonSchemaOf } from '../../src/core/schema/diff.js';
import { withStatedUnknownFields } from '../../src/core/derive/unknown-fields.js';

const loaded = loadContract(shippedContract);

/**
 * Strict in datalens-ui (z.strictObject), plus the report methods (the seed's rule), plus the version-2 methods whose
 * real spec component says additionalProperties: false; each version is checked against those it has.
 */
const STRICT = [
  'createReport', 'deleteConnection', 'deleteDashboard', 'deleteDataset', 'deleteQLChart', 'deleteReport', 'deleteWizardChart',
  'getConnection', 'getDataset', 'getEntriesRelations', 'getQLChart', 'getReport', 'getWizardChart', 'updateConnection',
  'updateDashboard', 'updateDataset', 'updateReport', 'validateDataset',
  'getLicenses', 'getAuditEntriesUpdates', 'getAuditEntryPermissionsForUser', 'listCollectionAccessBindings',
  'listWorkbookAccessBindings', 'listSharedEntryAccessBindings', 'createFolder', 'getEntriesPermissions', 'getPermissionsBulk',
].sort();
/** From version 3 getWizardChart takes GetWizardChartV1Args, which is not closed (datalens-sdk spec/yacloud.json, 021501bb). */
const strictAt = (version: number) => (version >= 3 ? STRICT.filter((m) => m !== 'getWizardChart') : STRICT);

type Node = Record<string, unknown>;
/** Every object schema with named fields in a document's request schemas, with where it is. */
function requestObjects(doc: Node): { where: string; node: Node }[] {
  const out: { where: string; node: Node }[] = [];
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`));
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    if (n.properties && typeof n.properties === 'object') out.push({ where, node: n });
    for (const [k, v] of Object.entries(n)) walk(v, `${where}.${k}`);
  };
  const components = (doc.components as { schemas: Record<string, unknown> }).schemas;
  for (const [path, item] of Object.entries(doc.paths as Record<string, { post: Node }>)) {
    walk((item.post.requestBody as Node).content, path);
  }
  // Hoisted definitions of request schemas.
  for (const [name, schema] of Object.entries(components)) if (name.includes('Request')) walk(schema, name);
  return out;
}

describe('the unknown-field rule in the OpenAPI documents', () => {
  for (const version of loaded.versions) {
    it(`version ${version}: every request object says true or false, and false exactly for the strict methods`, () => {
      const doc = openApiFor(loaded, version) as Node;
      const objects = requestObjects(doc);
      expect(objects.length).toBeGreaterThan(50);
      for (const { where, node } of objects) expect([true, false], where).toContain(node.additionalProperties);
      const paths = doc.paths as Record<string, { post: { requestBody: { content: { 'application/json': { schema: Node } } } } }>;
      const strictRoots = Object.entries(paths)
        .filter(([, item]) => item.post.requestBody.content['application/json'].schema.additionalProperties === false)
        .map(([path]) => path.replace('/rpc/', ''))
        .sort();
      const methods = loaded.contract.versions.find((v) => v.version === version)!.methods;
      expect(strictRoots).toEqual(strictAt(version).filter((m) => Object.hasOwn(methods, m)));
    });
  }
});

describe('the shipped request schemas', () => {
  it('declare every object open (z.looseObject) or strict (z.strictObject), never z.object, which would drop fields', () => {
    const plain: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`));
      if (!node || typeof node !== 'object') return;
      const n = node as Node;
      if (n.properties && typeof n.properties === 'object' && n.additionalProperties === undefined) plain.push(where);
      for (const [k, v] of Object.entries(n)) walk(v, `${where}.${k}`);
    };
    for (const version of loaded.contract.versions) {
      for (const [name, spec] of Object.entries(version.methods)) walk(jsonSchemaOf(spec.request, 'request'), `v${version.version} ${name}`);
    }
    expect(plain).toEqual([]);
  });
});

describe('withStatedUnknownFields', () => {
  const stated = (schema: z.ZodType) => withStatedUnknownFields(z.toJSONSchema(schema, { io: 'input' }) as Node);
  it('turns "any" and absent into true, keeps false, leaves records and non-objects alone', () => {
    const schema = z.object({
      loose: z.looseObject({ a: z.string() }),
      strict: z.strictObject({ b: z.number() }),
      record: z.record(z.string(), z.number()),
      list: z.array(z.object({ c: z.boolean() })),
    });
    const out = stated(schema) as any;
    expect(out.additionalProperties).toBe(true);
    expect(out.properties.loose.additionalProperties).toBe(true);
    expect(out.properties.strict.additionalProperties).toBe(false);
    expect(out.properties.record.additionalProperties).toEqual({ type: 'number' });
    expect(out.properties.list.items.additionalProperties).toBe(true);
  });

  it('does not take a field named "properties" for a schema map entry', () => {
    const out = stated(z.strictObject({ properties: z.string() })) as any;
    expect(out.properties.properties).toEqual({ type: 'string' });
    expect(out.additionalProperties).toBe(false);
  });
});
