// One rule for fields a request does not name, at every version: methods whose real DataLens schema is strict (and
// the seed's report methods) refuse them with the gateway's own VALIDATION_ERROR, forwarding nothing; every other
// method passes them to the backend unchanged, translated or not.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, rpc, startStack } from '../helpers/stack.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** What the backend received for `method` during `call`. */
async function forwarded(method: string, call: () => Promise<unknown>): Promise<unknown[]> {
  const before = stack.backend!.requests.length;
  await call();
  return stack.backend!.requests
    .slice(before)
    .filter((r) => r.url === `/rpc/${method}`)
    .map((r) => JSON.parse(r.body));
}

/** A 400 whose issues name the unknown `field` (a dotted path from the root) as zod 4 does: its key, its object's path. */
const refusedBy = (res: { status: number; headers: Headers; body: any }, field: string) => {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body.code).toBe('VALIDATION_ERROR');
  const steps = field.split('.');
  const key = steps.pop();
  expect(res.body.details).toContainEqual(expect.objectContaining({ code: 'unrecognized_keys', path: steps, keys: expect.arrayContaining([key]) }));
};

describe('strict methods refuse unknown fields with the gateway\'s own problem, forwarding nothing', () => {
  it('createReport with the v1 `key` at v2 (the issue\'s case)', async () => {
    let res: Awaited<ReturnType<typeof rpc>> | undefined;
    const seen = await forwarded('createReport', async () => {
      res = await rpc(stack.url, 'createReport', { workbookId: 'wb_demo_sales', key: 'reports/sales/q1', config: {} }, '2');
    });
    refusedBy(res!, 'key');
    expect(seen).toEqual([]);
  });

  for (const version of ['1', '2', 'latest']) {
    it(`createReport with an unknown field at ${version}`, async () => {
      const body = version === '1' ? { key: 'reports/sales/q1', config: {}, colour: 'red' } : { workbookId: 'wb_demo_sales', config: {}, colour: 'red' };
      let res: Awaited<ReturnType<typeof rpc>> | undefined;
      const seen = await forwarded('createReport', async () => {
        res = await rpc(stack.url, 'createReport', body, version);
      });
      refusedBy(res!, 'colour');
      expect(seen).toEqual([]);
    });

    it(`getDataset (strict in datalens-ui) with \`version\` at ${version}`, async () => {
      let res: Awaited<ReturnType<typeof rpc>> | undefined;
      const seen = await forwarded('getDataset', async () => {
        res = await rpc(stack.url, 'getDataset', { datasetId: 'ds_1', version: 'draft' }, version);
      });
      refusedBy(res!, 'version');
      expect(seen).toEqual([]);
    });

    it(`updateDashboard (strict, and so is its entry) with an unknown field inside entry at ${version}`, async () => {
      const entry = { entryId: 'd1', data: {}, meta: null, colour: 'red' };
      const res = await rpc(stack.url, 'updateDashboard', { entry, mode: 'save' }, version);
      refusedBy(res, 'entry.colour');
    });
  }
});

describe('other methods pass unknown fields to the backend unchanged', () => {
  for (const version of ['1', '2']) {
    it(`createWorkbook with an unknown field at ${version}`, async () => {
      const body = { title: 'With extras', collectionId: null, extra: { nested: [1, 'two'] } };
      const seen = await forwarded('createWorkbook', () => rpc(stack.url, 'createWorkbook', body, version));
      expect(seen).toEqual([expect.objectContaining(body)]);
    });
  }

  it('v1 getEntries, translated to v2: real arguments and unknown fields all arrive', async () => {
    const body = { scope: 'dash', filters: { name: 'no-such-name' }, orderBy: { field: 'name', direction: 'asc' }, includeLinks: true, colour: 'red' };
    const seen = await forwarded('getEntries', () => rpc(stack.url, 'getEntries', body, '1'));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject(body);
  });
});
