// The object-version guard on a listing's rows: a row of a newer object is served as a reference, unless it
// carries the object's content, which an older client cannot be given.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayError } from '../../src/core/errors.js';
import { guardObjects, translateResponse, validateRequest } from '../../src/core/translate/engine.js';
import type { MethodPlan } from '../../src/core/translate/plan.js';

const listing = (content?: string): MethodPlan => ({
  method: 'list',
  version: 1,
  head: 2,
  spec: { request: z.looseObject({}), response: z.looseObject({}) },
  upstreamMethod: 'list',
  passThrough: false,
  up: [],
  down: [],
  guarded: [{ type: 'entry', path: 'entries.*', idField: 'entryId', listing: content === undefined ? {} : { content } }],
  checksResponse: true,
});

const caught = (fn: () => void): unknown => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('guardObjects on listing rows', () => {
  it('serves rows of newer objects as references when the listing carries no content', () => {
    expect(caught(() => guardObjects(listing(), { entries: [{ entryId: 'a', version: 1 }, { entryId: 'b', version: 2 }] }))).toBeUndefined();
    // Even if a row happens to hold a field of the content's name, the location says there is none to look for.
    expect(caught(() => guardObjects(listing(), { entries: [{ entryId: 'b', version: 2, data: {} }] }))).toBeUndefined();
  });

  it('serves rows without their content, and refuses a newer row that carries it, naming it', () => {
    const plan = listing('data');
    expect(caught(() => guardObjects(plan, { entries: [{ entryId: 'b', version: 2 }] }))).toBeUndefined();
    expect(caught(() => guardObjects(plan, { entries: [{ entryId: 'a', version: 1, data: { x: 1 } }] }))).toBeUndefined();
    const e = caught(() => guardObjects(plan, { entries: [{ entryId: 'a', version: 1, data: {} }, { entryId: 'b', version: 2, data: null }] }));
    expect(e).toBeInstanceOf(GatewayError);
    expect((e as GatewayError).code).toBe('UNSUPPORTED_OBJECT_VERSION');
    expect((e as GatewayError).details).toMatchObject({ objectType: 'entry', objectId: 'b', objectVersion: 2, requestedVersion: 1 });
  });

  it('still refuses a row that does not say which version it was saved under (the guard never fails open)', () => {
    const e = caught(() => guardObjects(listing(), { entries: [{ entryId: 'a' }] }));
    expect((e as GatewayError).code).toBe('UPSTREAM_UNAVAILABLE');
  });
});

describe('validateRequest on a strict request', () => {
  it('names the unknown fields as zod 4 and real DataLens do: one issue per object, its keys listed, `path` the object', () => {
    const plan = { ...listing(), spec: { request: z.strictObject({ a: z.strictObject({ b: z.string() }) }), response: z.looseObject({}) } };
    const e = caught(() => validateRequest(plan, { a: { b: 'x', c: 1 }, d: 2, e: 3 }));
    expect((e as GatewayError).details).toEqual([
      { code: 'unrecognized_keys', keys: ['c'], path: ['a'], message: 'Unrecognized key: "c"' },
      { code: 'unrecognized_keys', keys: ['d', 'e'], path: [], message: 'Unrecognized keys: "d", "e"' },
    ]);
  });
});

describe('translateResponse', () => {
  it('hands a response that is not an object back as it came, even with migrations to run', async () => {
    const plan = { ...listing(), guarded: [], down: [async () => ({ migrated: true })] };
    const ctx = { clientVersion: 1, principal: 'p', state: new Map(), callBackend: async () => ({}), services: undefined as never };
    expect(await translateResponse(plan, [1, 2], ctx)).toEqual([1, 2]);
    expect(await translateResponse(plan, { a: 1 }, ctx)).toEqual({ migrated: true });
  });
});
