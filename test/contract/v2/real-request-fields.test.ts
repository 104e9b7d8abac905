// Real version-2 bodies that carry fields version 1's strict schemas lack are accepted at version 2 (and reach the
// backend), while version 1 keeps refusing them: the additions of src/contract/v2/real-request-fields.ts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, startStack, type Stack } from '../../helpers/stack.js';
import { FIXTURES } from '../../replay/fixtures/index.js';
import { setupThrough } from '../../replay/http.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** The replay suite's real-shaped body for `method` at version 2, with `extra` fields. */
const bodyOf = async (method: string, extra: Record<string, unknown>) => ({ ...((await FIXTURES[method]!.body(setupThrough(stack.url)(2))) as object), ...extra });
const lastSeen = (method: string) => JSON.parse(stack.backend!.requests.filter((r) => r.url === `/rpc/${method}`).at(-1)!.body);

describe('real v2 request fields', () => {
  it('updateDashboard takes lockToken: the lock holder writes a locked dashboard at v2; v1 refuses the field', async () => {
    const body = await bodyOf('updateDashboard', {});
    const entryId = (body as { entry: { entryId: string } }).entry.entryId;
    const lock = await rpc(stack.url, 'createEntryLock', { entryId, duration: 60_000 });
    expect(lock.status).toBe(200);
    expect((await rpc(stack.url, 'updateDashboard', body)).status).toBe(423);
    const written = await rpc(stack.url, 'updateDashboard', { ...body, lockToken: lock.body.lockToken });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const v1 = await rpc(stack.url, 'updateDashboard', { ...body, lockToken: lock.body.lockToken }, '1');
    expect(v1.status).toBe(400);
    expect(v1.body.details).toContainEqual(expect.objectContaining({ code: 'unrecognized_keys', keys: ['lockToken'], path: [] }));
  });

  it('updateDataset takes workbookId, validateDataset bindedDatasetId', async () => {
    const update = await bodyOf('updateDataset', { workbookId: 'wb_demo_sandbox' });
    expect((await rpc(stack.url, 'updateDataset', update)).status).toBe(200);
    expect(lastSeen('updateDataset').workbookId).toBe('wb_demo_sandbox');
    const validate = await bodyOf('validateDataset', { bindedDatasetId: null });
    expect((await rpc(stack.url, 'validateDataset', validate)).status).toBe(200);
    expect((await rpc(stack.url, 'updateDataset', update, '1')).status).toBe(400);
  });

  it('getCollectionContent takes mode "onlyEntries", getEntriesRelations scope "report", getEditorChart branch "published"', async () => {
    const content = await rpc(stack.url, 'getCollectionContent', { collectionId: 'col_demo_analytics', mode: 'onlyEntries' });
    expect(content.status).toBe(200);
    expect(content.body.items).toEqual([]);
    expect((await rpc(stack.url, 'getEntriesRelations', { entryIds: ['ent_demo_01'], scope: 'report' })).status).toBe(200);
    expect((await rpc(stack.url, 'getEntriesRelations', { entryIds: ['ent_demo_01'], scope: 'report' }, '1')).status).toBe(400);
    expect((await rpc(stack.url, 'getEditorChart', { chartId: 'ent_demo_12', branch: 'published' })).status).toBe(200);
  });
});
