// x-dl-audit-mode at version 2: the OpenAPI document declares it on the 13 getters the real spec names (and nowhere
// else, nor at version 1), and the gateway passes it to the backend on those calls.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedContract } from '../../../src/contract/index.js';
import { AUDIT_MODE_METHODS } from '../../../src/contract/v2/audit-mode.js';
import { loadContract } from '../../../src/core/contract-model/load.js';
import { openApiFor } from '../../../src/core/derive/openapi.js';
import { rpc, startStack, type Stack } from '../../helpers/stack.js';

const loaded = loadContract(shippedContract);
type Doc = { paths: Record<string, { post: { parameters: { name?: string; in?: string; required?: boolean; schema?: unknown }[] } }> };
const declaring = (version: number) =>
  Object.entries((openApiFor(loaded, version) as Doc).paths)
    .filter(([, item]) => item.post.parameters.some((p) => p.name === 'x-dl-audit-mode'))
    .map(([path]) => path.replace('/rpc/', ''))
    .sort();

describe('x-dl-audit-mode in the OpenAPI documents', () => {
  it('is declared, optional and "true" only, on exactly the 13 getters at version 2', () => {
    expect(declaring(2)).toEqual([...AUDIT_MODE_METHODS].sort());
    expect(AUDIT_MODE_METHODS).toHaveLength(13);
    const param = (openApiFor(loaded, 2) as Doc).paths['/rpc/getDashboard']!.post.parameters.find((p) => p.name === 'x-dl-audit-mode');
    expect(param).toMatchObject({ in: 'header', required: false, schema: { type: 'string', enum: ['true'] } });
  });

  it('is not declared at version 1', () => {
    expect(declaring(1)).toEqual([]);
  });
});

describe('x-dl-audit-mode through the gateway', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('reaches the backend on an audit-mode getter at version 2', async () => {
    // A workbook a version-2 client saved (the seed's are the web UI's, saved under the head).
    const created = await rpc(stack.url, 'createWorkbook', { title: 'Audited' }, '2');
    const res = await rpc(stack.url, 'getWorkbook', { workbookId: created.body.workbookId }, '2', { 'x-dl-audit-mode': 'true' });
    expect(res.status).toBe(200);
    const seen = stack.backend!.requests.filter((r) => r.url === '/rpc/getWorkbook').at(-1)!;
    expect(seen.headers['x-dl-audit-mode']).toBe('true');
  });
});
