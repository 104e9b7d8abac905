// The gateway's OpenAPI document for version 1 (GET /1/json/ on a real gateway) covers the real one that the
// DataLens public-API controller serves (../shared/reference/datalens-oss-v1-openapi.json, read at run time): every
// path, parameter and schema property with the same types and required lists, but the gaps listed with a reason in
// recorded-v1/openapi-gaps.ts.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { documentGaps } from './recorded-v1/openapi-cover.js';
import { KNOWN_GAPS } from './recorded-v1/openapi-gaps.js';

const REAL = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/reference/datalens-oss-v1-openapi.json');
const present = existsSync(REAL);
if (!present) console.warn(`recorded-v1-openapi: skipped, ${REAL} is absent (the real document lives outside the repository)`);

let stack: Stack;

describe.skipIf(!present)('the gateway’s /1/json/ against the real version-1 OpenAPI document', () => {
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it('has every real path, parameter and schema property, with the same types and required lists, but the listed gaps', async () => {
    const real = JSON.parse(readFileSync(REAL, 'utf8'));
    const res = await fetch(`${stack.url}/1/json/`);
    expect(res.status).toBe(200);
    const gaps = documentGaps(real, (await res.json()) as Record<string, any>);
    const unlisted = gaps.filter((g) => !KNOWN_GAPS.some((k) => g.startsWith(k.prefix)));
    expect(unlisted, `gaps not in recorded-v1/openapi-gaps.ts:\n${unlisted.join('\n')}`).toEqual([]);
    const stale = KNOWN_GAPS.filter((k) => !gaps.some((g) => g.startsWith(k.prefix))).map((k) => k.prefix);
    expect(stale, 'listed gaps that no longer occur (remove them)').toEqual([]);
  });

  it('finds no gap between the real document and itself, and the one made by removing a property or a required key', () => {
    const real = JSON.parse(readFileSync(REAL, 'utf8'));
    expect(documentGaps(real, real)).toEqual([]);
    const changed = structuredClone(real);
    const answer = changed.paths['/rpc/getCollection'].post.responses['200'].content['application/json'].schema;
    delete answer.properties.tenantId;
    answer.required = answer.required.filter((k: string) => k !== 'tenantId');
    expect(documentGaps(real, changed)).toEqual([
      '/rpc/getCollection answer.tenantId: missing',
      expect.stringMatching(/^\/rpc\/getCollection answer: required \[/),
    ]);
  });

  it('names every real path (44 methods) among its own', async () => {
    const real = JSON.parse(readFileSync(REAL, 'utf8'));
    const ours = (await (await fetch(`${stack.url}/1/json/`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(real.paths).filter((p) => !(p in ours.paths))).toEqual([]);
  });
});
