// The shipped contract's object locations: every DataLens method answering an object names it, listing rows are
// references unless they carry content, and a compatible addition reaches objects saved before it.

import { describe, expect, it } from 'vitest';
import { shippedContract } from '../../src/contract/index.js';
import { DATALENS_OBJECTS } from '../../src/contract/datalens/objects.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { MigrationContext } from '../../src/core/contract-model/types.js';
import { GatewayError } from '../../src/core/errors.js';
import { translateResponse } from '../../src/core/translate/engine.js';
import { buildPlans, requirePlan } from '../../src/core/translate/plan.js';
import { memoryServices } from '../helpers/services.js';

const loaded = loadContract(shippedContract);
const plans = buildPlans(loaded);
const plan = (version: number, method: string) => requirePlan(plans, loaded, version, method);
const ctx: MigrationContext = { clientVersion: 1, principal: 'p', state: new Map(), services: memoryServices(), callBackend: () => Promise.reject(new Error('no backend here')) };

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (e) {
    return e instanceof GatewayError ? e : undefined;
  }
  return undefined;
};

describe('object locations of the shipped contract', () => {
  it('name only methods of the contract', () => {
    const head = loaded.contract.versions.at(-1)!.methods;
    const unknown = Object.keys(DATALENS_OBJECTS).filter((m) => !Object.hasOwn(head, m));
    expect(unknown).toEqual([]);
  });

  it('are guarded at version 1 for every object-answering DataLens method', () => {
    for (const method of ['getDashboard', 'getQLChart', 'getWizardChart', 'getDataset', 'getConnection', 'getWorkbook', 'getCollection', 'getCollectionBreadcrumbs']) {
      expect(plan(1, method).guarded.length, method).toBeGreaterThan(0);
    }
  });

  it('refuse a whole answer at version 1 when a named object is newer (strict rule), serve it when its kind did not change (lossless rule)', async () => {
    const answer = () => [{ collectionId: 'a', version: 1 }, { collectionId: 'b', version: 2 }];
    const strict = { olderClients: 'refuse-newer', releasedThrough: 2 } as const;
    const e = await refusal(translateResponse(plan(1, 'getCollectionBreadcrumbs'), answer(), ctx, strict));
    expect(e?.code).toBe('UNSUPPORTED_OBJECT_VERSION');
    expect(e?.details).toMatchObject({ objectType: 'collection', objectId: 'b', objectVersion: 2, requestedVersion: 1, rule: 'refuse-newer' });
    await expect(translateResponse(plan(1, 'getCollectionBreadcrumbs'), answer(), ctx)).resolves.toEqual(answer());
  });

  it('serve a newer getEntries row at version 1 as a reference, but refuse it when it carries the content', async () => {
    const row = { entryId: 'e1', key: 'k', scope: 'dash', version: 2 };
    await expect(translateResponse(plan(1, 'getEntries'), { entries: [row] }, ctx)).resolves.toMatchObject({ entries: [row] });
    const e = await refusal(translateResponse(plan(1, 'getEntries'), { entries: [{ ...row, data: {} }] }, ctx));
    expect(e?.details).toMatchObject({ objectType: 'entry', objectId: 'e1', objectVersion: 2 });
  });

  it('still require every listing row to say which version it was saved under (never fail open)', async () => {
    const e = await refusal(translateResponse(plan(1, 'getWorkbooksList'), { workbooks: [{ workbookId: 'w' }] }, ctx));
    expect(e?.code).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('give a dataset saved before dataset.description its default "" at version 1', async () => {
    const answer = { id: 'd1', dataset: { sources: [] }, options: {}, version: 1 };
    await expect(translateResponse(plan(1, 'getDataset'), answer, ctx)).resolves.toMatchObject({ dataset: { description: '', sources: [] } });
    const described = { ...answer, dataset: { description: 'kept' } };
    await expect(translateResponse(plan(1, 'getDataset'), described, ctx)).resolves.toMatchObject({ dataset: { description: 'kept' } });
  });
});
