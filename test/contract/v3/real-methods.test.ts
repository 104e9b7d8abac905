// Version 3 against the real version-3 spec (datalens-tech/datalens-sdk spec/yacloud.json @ 021501bb, 88 paths):
// exactly its methods, the seven version-2 methods it drops removed by a declared change and still served to
// version 2 through the gateway, and the spec's `🚧 [Experimental]` and `x-mcp-disabled` marks in /3/json/.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedContract } from '../../../src/contract/index.js';
import { loadContract } from '../../../src/core/contract-model/load.js';
import { openApiFor } from '../../../src/core/derive/openapi.js';
import { EXCLUDED, SCENARIO } from '../../conformance/v3-spec/index.js';
import { type Stack, rpc, startStack } from '../../helpers/stack.js';

/** The real v3 method names: the conformance scenario's steps and the methods it leaves out on purpose. */
const REAL_V3 = [...new Set([...SCENARIO.map((s) => s.method), ...Object.keys(EXCLUDED)])].sort();
/** Real version 2 has them (datalens-api-v2-methods.json), the real version-3 paths do not. */
const REMOVED = ['createHtmlPage', 'getHtmlPage', 'updateHtmlPage', 'deleteHtmlPage', 'createEntryLock', 'extendEntryLock', 'deleteEntryLock'];
/** The same spec's marks: nine summaries `🚧 [Experimental] …`, four operations `x-mcp-disabled: true`. */
const EXPERIMENTAL = ['createEditorChart', 'getEditorChart', 'updateEditorChart', 'createQLChart', 'getQLChart', 'updateQLChart', 'createWizardChart', 'getWizardChart', 'updateWizardChart'];
const MCP_DISABLED = ['createQLChart', 'updateQLChart', 'createWizardChart', 'updateWizardChart'];
/** The index of the spec's paths with their marks, beside the repository root; absent in a clean clone. */
const PATH_INDEX = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/reference/datalens-api-v3-paths.json');

const loaded = loadContract(shippedContract);
const v3 = loaded.byVersion.get(3)!;

describe('version 3 against the real method list', () => {
  it('has exactly the 88 real methods', () => {
    expect(REAL_V3).toHaveLength(88);
    expect(Object.keys(v3.methods).sort()).toEqual(REAL_V3);
  });

  it('removes the HTML page and entry lock methods with a declared change the backend serves them under, version 2 keeping them', () => {
    const removed = v3.changes.filter((c) => c.kind === 'methodRemoved');
    expect(removed.map((c) => c.method).sort()).toEqual([...REMOVED].sort());
    for (const change of removed) expect(change, change.method).toMatchObject({ keptByBackend: true });
    for (const method of REMOVED) expect(loaded.availableIn.get(method), method).toEqual([2]);
  });
});

describe("version 3's OpenAPI document carries the real spec's marks", () => {
  const doc = openApiFor(loaded, 3) as { paths: Record<string, { post: Record<string, unknown> }> };
  const operations = Object.entries(doc.paths).map(([path, item]) => [path.replace('/rpc/', ''), item.post] as const);
  const marked = (has: (op: Record<string, unknown>) => boolean) => operations.filter(([, op]) => has(op)).map(([name]) => name).sort();

  it('prefixes the nine experimental summaries, and marks the four chart writes x-mcp-disabled', () => {
    expect(marked((op) => String(op.summary).startsWith('🚧 [Experimental] '))).toEqual([...EXPERIMENTAL].sort());
    expect(marked((op) => op['x-mcp-disabled'] === true)).toEqual([...MCP_DISABLED].sort());
    expect(marked((op) => 'x-mcp-disabled' in op && op['x-mcp-disabled'] !== true)).toEqual([]);
  });

  it.skipIf(!existsSync(PATH_INDEX))('agrees with the path index of the real spec, mark for mark', () => {
    const index = JSON.parse(readFileSync(PATH_INDEX, 'utf8')) as { methods: { method: string; experimental: boolean; x_mcp_disabled: boolean }[] };
    expect(index.methods.map((m) => m.method).sort()).toEqual(REAL_V3);
    expect(marked((op) => String(op.summary).startsWith('🚧 [Experimental] '))).toEqual(index.methods.filter((m) => m.experimental).map((m) => m.method).sort());
    expect(marked((op) => op['x-mcp-disabled'] === true)).toEqual(index.methods.filter((m) => m.x_mcp_disabled).map((m) => m.method).sort());
  });
});

describe('a removed method through the gateway', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('is 404 ENDPOINT_NOT_FOUND at version 3, naming version 2 as the one that has it', async () => {
    for (const method of REMOVED) {
      const res = await rpc(stack.url, method, {}, '3');
      expect(res.status, method).toBe(404);
      expect(res.body, method).toMatchObject({ code: 'ENDPOINT_NOT_FOUND', details: { method, requestedVersion: 3, availableIn: [2] } });
    }
  });

  it('still reaches the backend at version 2, under its own name', async () => {
    const before = stack.backend!.requests.length;
    const lock = await rpc(stack.url, 'createEntryLock', { entryId: 'ent_demo_04' }, '2');
    expect(lock.status, JSON.stringify(lock.body)).toBe(200);
    expect(lock.body.lockToken).toEqual(expect.any(String));
    const released = await rpc(stack.url, 'deleteEntryLock', { entryId: 'ent_demo_04', lockToken: lock.body.lockToken }, '2');
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    const forwarded = stack.backend!.requests.slice(before).map((r) => [r.url, r.headers['x-dl-client-api-version']]);
    expect(forwarded).toEqual([['/rpc/createEntryLock', '2'], ['/rpc/deleteEntryLock', '2']]);
  });
});
