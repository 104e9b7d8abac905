import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, rpc, startStack } from '../helpers/stack.js';

describe('a v1 client against the latest-only backend', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('creates a report by key and reads it back by id with its key', async () => {
    const created = await rpc(stack.url, 'createReport', { key: 'reports/marketing/q3', config: { a: 1 } }, '1');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ key: 'reports/marketing/q3', config: { a: 1 }, description: '', version: 1 });
    expect(created.body).not.toHaveProperty('workbookId');
    const read = await rpc(stack.url, 'getReport', { reportId: created.body.id }, '1');
    expect(read.body).toMatchObject({ id: created.body.id, key: 'reports/marketing/q3' });
    const readV2 = await rpc(stack.url, 'getReport', { reportId: created.body.id }, '2');
    expect(readV2.body).toMatchObject({ id: created.body.id, workbookId: 'wb_demo_marketing' });
  });
});
