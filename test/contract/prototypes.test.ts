// Translation never pollutes prototypes (the generic part; the shipped contract's own case is in v2/properties):
// the paths helpers refuse forbidden segments, and a synthetic contract that moves, fills and wraps fields
// translates bodies with own `__proto__`, `constructor` and `prototype` keys without touching a prototype.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldAdded, fieldMoved, fieldRenamed, fieldToArray, object, request } from '../../src/core/contract-model/builders.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { Json, MigrationContext } from '../../src/core/contract-model/types.js';
import { translateRequest, translateResponse, validateRequest } from '../../src/core/translate/engine.js';
import { collect, deleteAt, getAt, setAt, splitPath } from '../../src/core/translate/paths.js';
import { buildPlan } from '../../src/core/translate/plan.js';
import { NO_SERVICES } from '../helpers/no-services.js';
import { expectNoPollution, expectOrdinaryPrototypes, mix, pollutingBody, snapshot } from '../helpers/pollution.js';

/** A small contract whose migrations walk paths through every kind of paths helper (move, fill, toArray, objects). */
const pathsContract = loadContract({
  versions: [
    {
      version: 1,
      methods: {
        put: { request: z.looseObject({}), response: z.looseObject({}), objects: [{ type: 'thing', path: '' }, { type: 'thing', path: 'items.*' }] },
      },
      changes: [],
      additions: [fieldAdded(object('thing'), 'meta.flag', false, 'Things carry `meta.flag`.')],
    },
    {
      version: 2,
      methods: {
        put: { request: z.looseObject({}), response: z.looseObject({}), objects: [{ type: 'thing', path: '' }, { type: 'thing', path: 'items.*' }] },
      },
      changes: [
        fieldMoved(request('put'), 'name', 'data.name', 'put: `name` moves into `data.name`.'),
        fieldMoved(object('thing'), 'name', 'data.name', 'Things: `name` moves into `data.name`.'),
        fieldRenamed(request('put'), 'config.key', 'config.toString', 'put: `config.key` is renamed.'),
        fieldToArray(request('put'), 'data.isAdmin', 'put: `data.isAdmin` takes an array.'),
        fieldToArray(object('thing'), 'data.polluted', 'Things: `data.polluted` is an array.'),
      ],
    },
  ],
});

describe('translation never pollutes prototypes', () => {
  // The synthetic migrations call no backend and use no service.
  const ctx = (): MigrationContext => ({
    clientVersion: 1,
    principal: 'proto',
    state: new Map(),
    services: NO_SERVICES,
    callBackend: () => Promise.reject(new Error('the synthetic contract calls no backend')),
  });

  it('the paths helpers refuse forbidden segments in contract paths', () => {
    for (const bad of ['__proto__', 'a.__proto__', 'constructor.prototype', 'a.prototype.b']) {
      expect(() => splitPath(bad)).toThrow(/forbidden path segment/);
      expect(() => setAt({}, bad, 1)).toThrow(/forbidden path segment/);
      expect(() => getAt({}, bad)).toThrow(/forbidden path segment/);
    }
  });

  it('paths helpers over bodies with own __proto__/constructor keys', () => {
    const before = snapshot();
    const segment = fc.constantFrom('polluted', 'toString', 'hasOwnProperty', 'valueOf', 'isAdmin', 'key', 'data', 'name', '*');
    const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('.'));
    fc.assert(
      fc.property(pollutingBody, pathArb, fc.jsonValue({ maxDepth: 1 }), (body, path, value) => {
        getAt(body, path);
        collect(body, path);
        if (!path.split('.').includes('*')) {
          setAt(body, path, value);
          expect(getAt(body, path)).toEqual({ found: true, value });
          deleteAt(body, path);
          expect(getAt(body, path).found).toBe(false);
        }
        expectNoPollution(before);
      }),
      { numRuns: 200 },
    );
  });

  it('a synthetic contract that moves, fills and wraps fields: requests and responses with dangerous keys', async () => {
    const before = snapshot();
    await fc.assert(
      fc.asyncProperty(pollutingBody, pollutingBody, async (a, b) => {
        const p = buildPlan(pathsContract, 1, 'put')!;
        // The raw parsed JSON goes into the migrations (as a backend answer does; requests are validated first).
        const reqBody = mix({ name: 'n', config: { key: 'k' }, data: { isAdmin: true } }, a, 'config');
        const upBody = await translateRequest(p, reqBody, ctx());
        expect(upBody.data).toMatchObject({ name: 'n', isAdmin: [true] });
        expectOrdinaryPrototypes(upBody);
        const valid = await translateRequest(p, validateRequest(p, reqBody), ctx());
        expectOrdinaryPrototypes(valid);
        const resBody = mix({ id: 't', data: { name: 'n', polluted: [1] }, items: [{ id: 'i', version: 1, data: { name: 'm' } }], version: 1 }, b, 'data');
        const downBody = (await translateResponse(p, resBody, ctx())) as Json;
        expect(downBody).toMatchObject({ name: 'n', meta: { flag: false } });
        expectOrdinaryPrototypes(downBody);
        expectNoPollution(before);
      }),
      { numRuns: 200 },
    );
  });
});
