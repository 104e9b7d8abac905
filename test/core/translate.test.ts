// The translation engine on hand-made plans: dotted paths, request validation, migrations and the object-version guard.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Json, MigrationContext } from '../../src/core/contract-model/types.js';
import { BackendCallError, GatewayError, type ValidationIssue } from '../../src/core/errors.js';
import { guardObjects, translateRequest, translateResponse, validateRequest } from '../../src/core/translate/engine.js';
import { collect, deleteAt, getAt, isJsonObject, setAt, splitPath } from '../../src/core/translate/paths.js';
import type { MethodPlan } from '../../src/core/translate/plan.js';
import { NO_SERVICES } from '../helpers/no-services.js';

describe('paths', () => {
  it('splits a dotted path, the empty path being the body itself', () => {
    expect(splitPath('')).toEqual([]);
    expect(splitPath('a')).toEqual(['a']);
    expect(splitPath('a.*.b')).toEqual(['a', '*', 'b']);
  });

  it.each(['__proto__', 'a.prototype', 'constructor.x'])('refuses the path %j, which could reach a prototype', (path) => {
    expect(() => splitPath(path)).toThrow(/^forbidden path segment "(__proto__|prototype|constructor)" in "/);
  });

  it('names the forbidden segment and the path', () => {
    expect(() => splitPath('a.__proto__.b')).toThrow('forbidden path segment "__proto__" in "a.__proto__.b"');
  });

  it('collects every value a path reaches, stepping into each array element at `*`', () => {
    const body = { a: { b: 1 }, list: [{ x: 1 }, { y: 2 }, { x: 3 }], n: null };
    expect(collect(body, '')).toEqual([body]);
    expect(collect(body, 'a.b')).toEqual([1]);
    expect(collect(body, 'list.*.x')).toEqual([1, 3]);
    expect(collect(body, 'list.*')).toEqual(body.list);
    expect(collect(body, 'n')).toEqual([null]);
  });

  it('collects nothing along a missing, inherited or mistyped step', () => {
    const body = { a: { b: 1 }, list: [1, 2] };
    expect(collect(body, 'a.c')).toEqual([]);
    expect(collect(body, 'toString')).toEqual([]);
    expect(collect(body, 'a.*')).toEqual([]);
    expect(collect(body, 'list.0')).toEqual([]);
    expect(collect(body, 'a.b.c')).toEqual([]);
    expect(collect([{ x: 1 }], '*.x')).toEqual([1]);
  });

  it('gets a value by path, telling an absent field from one holding undefined', () => {
    const body: Json = { a: { b: 2, u: undefined }, s: 'text' };
    expect(getAt(body, 'a.b')).toEqual({ found: true, value: 2 });
    expect(getAt(body, 'a.u')).toEqual({ found: true, value: undefined });
    expect(getAt(body, '')).toEqual({ found: true, value: body });
    expect(getAt(body, 'a.c')).toEqual({ found: false });
    expect(getAt(body, 's.length')).toEqual({ found: false });
    expect(getAt(body, 'hasOwnProperty')).toEqual({ found: false });
  });

  it('sets a value by path, creating or replacing the containers on its way', () => {
    const body: Json = { keep: 1, s: 'text', list: [1] };
    setAt(body, 'a.b.c', 3);
    setAt(body, 's.x', 4);
    setAt(body, 'list.y', 5);
    setAt(body, 'keep', 6);
    setAt(body, 'a.b.d', 7);
    expect(body).toEqual({ keep: 6, s: { x: 4 }, list: { y: 5 }, a: { b: { c: 3, d: 7 } } });
  });

  it('sets nothing at the empty path', () => {
    const body: Json = { a: 1 };
    setAt(body, '', 2);
    expect(body).toEqual({ a: 1 });
  });

  it('deletes a value by path and returns it', () => {
    const body: Json = { a: { b: 1, c: 2 }, d: 3 };
    expect(deleteAt(body, 'a.b')).toEqual({ found: true, value: 1 });
    expect(deleteAt(body, 'd')).toEqual({ found: true, value: 3 });
    expect(body).toEqual({ a: { c: 2 } });
    expect(deleteAt(body, 'a.x')).toEqual({ found: false });
    expect(deleteAt(body, 'q.r')).toEqual({ found: false });
    expect(body).toEqual({ a: { c: 2 } });
  });

  it('counts plain objects, not arrays or null, as JSON objects', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject([])).toBe(false);
    expect(isJsonObject(null)).toBe(false);
    expect(isJsonObject('x')).toBe(false);
  });
});

const ctx: MigrationContext = {
  clientVersion: 1,
  callBackend: async () => ({}),
  principal: 'p',
  state: new Map(),
  services: NO_SERVICES,
};

const plan = (over: Partial<MethodPlan> = {}): MethodPlan => ({
  method: 'make',
  version: 2,
  head: 3,
  spec: { request: z.object({ name: z.string(), size: z.number().default(1), tags: z.array(z.string()).optional() }), response: z.object({}) },
  upstreamMethod: 'make',
  passThrough: false,
  up: [],
  down: [],
  guarded: [],
  checksResponse: false,
  ...over,
});

const refusal = async (fn: () => unknown): Promise<GatewayError> => {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    return e as GatewayError;
  }
  throw new Error('expected a refusal');
};

describe('validateRequest', () => {
  it('returns the parsed body, defaults filled', () => {
    expect(validateRequest(plan(), { name: 'n' })).toEqual({ name: 'n', size: 1 });
  });

  it.each([
    [[], 'array'],
    [null, 'null'],
    ['text', 'string'],
    [3, 'number'],
  ])('refuses the body %j, which is not an object, with one issue at the root', async (body, received) => {
    const e = await refusal(() => validateRequest(plan(), body));
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.message).toBe('the request body must be a JSON object');
    expect(e.details).toEqual([
      { expected: 'object', code: 'invalid_type', path: [], message: `Invalid input: expected object, received ${received}` },
    ]);
  });

  it('refuses a non-object that a loose request schema lets through, so no migration is handed one', async () => {
    const loose = plan({ spec: { request: z.unknown(), response: z.object({}) } });
    const e = await refusal(() => validateRequest(loose, [1]));
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.message).toBe('the request body must be a JSON object');
    expect(e.details).toEqual([{ expected: 'object', code: 'invalid_type', path: [], message: 'Invalid input: expected object' }]);
  });

  it('refuses invalid arguments with the array of zod 4 issues, each `path` an array of keys and indexes', async () => {
    const e = await refusal(() => validateRequest(plan(), { size: 'big', tags: ['a', 2] }));
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.message).toBe('invalid arguments for make at API version 2');
    expect(e.details).toEqual([
      { expected: 'string', code: 'invalid_type', path: ['name'], message: 'Invalid input: expected string, received undefined' },
      { expected: 'number', code: 'invalid_type', path: ['size'], message: 'Invalid input: expected number, received string' },
      { expected: 'string', code: 'invalid_type', path: ['tags', 1], message: 'Invalid input: expected string, received number' },
    ]);
  });

  it('reports at most 50 issues', async () => {
    const tags = Array.from({ length: 60 }, (_, i) => i);
    const e = await refusal(() => validateRequest(plan(), { name: 'n', tags }));
    const issues = e.details as readonly ValidationIssue[];
    expect(issues).toHaveLength(50);
    expect(issues[0]?.path).toEqual(['tags', 0]);
    expect(issues[49]?.path).toEqual(['tags', 49]);
  });
});

describe('translateRequest and translateResponse', () => {
  const append = (mark: string) => (b: Json) => ({ ...b, trail: [...((b.trail as string[]) ?? []), mark] });

  it('passes the body itself through when there is nothing to migrate', async () => {
    const body = { a: 1 };
    expect(await translateRequest(plan(), body, ctx)).toBe(body);
    expect(await translateResponse(plan(), body, ctx)).toBe(body);
  });

  it('runs the up-migrations in order, and the down-migrations in order', async () => {
    const p = plan({ up: [append('1'), async (b) => append('2')(b)], down: [append('a'), append('b')] });
    expect(await translateRequest(p, {}, ctx)).toEqual({ trail: ['1', '2'] });
    expect(await translateResponse(p, {}, ctx)).toEqual({ trail: ['a', 'b'] });
  });

  it('hands each migration the request’s context', async () => {
    const seen: MigrationContext[] = [];
    const p = plan({ up: [(b, c) => (seen.push(c), b)], down: [(b, c) => (seen.push(c), b)] });
    await translateRequest(p, {}, ctx);
    await translateResponse(p, {}, ctx);
    expect(seen).toEqual([ctx, ctx]);
  });

  it('leaves a response that is not an object to the guard alone', async () => {
    const p = plan({ down: [append('a')] });
    expect(await translateResponse(p, [1], ctx)).toEqual([1]);
    expect(await translateResponse(p, 'text', ctx)).toBe('text');
  });

  it('migrates an answer that is a list of the method\'s objects (located at `*`, as getWorkbooksByIds answers)', async () => {
    const renamed = (b: Json) => (b as unknown as Json[]).map(({ summary, ...rest }) => ({ ...rest, description: summary })) as unknown as Json;
    const p = plan({ down: [renamed], guarded: [{ type: 'workbook', path: '*', idField: 'workbookId' }] });
    expect(await translateResponse(p, [{ workbookId: 'w', version: 2, summary: 's' }], ctx)).toEqual([{ workbookId: 'w', version: 2, description: 's' }]);
    // Rows listed under a key are not the answer itself: an array answer of such a method stays as it came.
    expect(await translateResponse(plan({ down: [renamed], guarded: [{ type: 'workbook', path: 'workbooks.*', idField: 'workbookId' }] }), [1], ctx)).toEqual([1]);
  });

  it('turns an unexpected migration failure into an internal error naming the method', async () => {
    const p = plan({ up: [() => { throw new TypeError('boom'); }], down: [async () => { throw new Error('boom'); }] });
    for (const run of [() => translateRequest(p, {}, ctx), () => translateResponse(p, {}, ctx)]) {
      const e = await refusal(run);
      expect(e.code).toBe('INTERNAL_ERROR');
      expect(e.message).toBe('a version migration failed unexpectedly');
      expect(e.details).toEqual({ method: 'make' });
    }
  });

  it('passes on a refusal or a backend error raised by a migration unchanged', async () => {
    const refused = new GatewayError('VALIDATION_ERROR', 'no');
    const backend = new BackendCallError(404, { code: 'NOT_FOUND' });
    await expect(translateRequest(plan({ up: [() => { throw refused; }] }), {}, ctx)).rejects.toBe(refused);
    await expect(translateResponse(plan({ down: [() => { throw backend; }] }), {}, ctx)).rejects.toBe(backend);
  });

  it('stops at the first failing migration', async () => {
    let later = false;
    const p = plan({ up: [() => { throw new Error('x'); }, (b) => ((later = true), b)] });
    await expect(translateRequest(p, {}, ctx)).rejects.toBeInstanceOf(GatewayError);
    expect(later).toBe(false);
  });
});

describe('guardObjects', () => {
  const guarded = plan({ guarded: [{ type: 'widget', path: 'entries.*' }, { type: 'owner', path: 'owner', idField: 'key' }] });

  it('passes objects saved at or before the client’s version, and absent optional objects', () => {
    expect(() => guardObjects(guarded, { entries: [{ id: 'a', version: 1 }, { id: 'b', version: 2 }], owner: null })).not.toThrow();
    expect(() => guardObjects(guarded, { entries: [] })).not.toThrow();
  });

  it('refuses an object saved under a newer version with 409, naming it by its id field', async () => {
    const e = await refusal(() => guardObjects(guarded, { entries: [{ id: 'a', version: 2 }, { id: 'b', version: 3 }] }));
    expect(e.code).toBe('UNSUPPORTED_OBJECT_VERSION');
    expect(e.status).toBe(409);
    expect(e.message).toBe('this widget was saved under API version 3; API version 2 cannot serve it');
    expect(e.details).toEqual({ objectType: 'widget', objectId: 'b', objectVersion: 3, requestedVersion: 2, minVersion: 3, rule: 'lossless' });
    const owner = await refusal(() => guardObjects(guarded, { owner: { key: 'k1', id: 'not-this', version: 9 } }));
    expect(owner.details).toMatchObject({ objectType: 'owner', objectId: 'k1' });
    const anonymous = await refusal(() => guardObjects(guarded, { owner: { version: 9 } }));
    expect(anonymous.details).toMatchObject({ objectId: null });
  });

  it.each([{ id: 'a' }, { id: 'a', version: '1' }, { id: 'a', version: 1.5 }, { id: 'a', version: null }, 'text', [1]])(
    'fails closed with 502 on %j, which does not carry an integer version',
    async (item) => {
      const e = await refusal(() => guardObjects(guarded, { entries: [item] }));
      expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(e.message).toBe('the backend answered with a widget that does not carry the schema version it was saved under');
      expect(e.details).toEqual({ reason: 'widget without an integer version' });
    },
  );

  it('reads the stamp from versionField where `version` means something else, and never from `version` there', async () => {
    const p = plan({ guarded: [{ type: 'dashboard', path: 'entry', idField: 'entryId', versionField: 'apiVersion' }] });
    expect(() => guardObjects(p, { entry: { entryId: 'd', version: 9, apiVersion: 2 } })).not.toThrow();
    const newer = await refusal(() => guardObjects(p, { entry: { entryId: 'd', version: 1, apiVersion: 3 } }));
    expect(newer.details).toEqual({ objectType: 'dashboard', objectId: 'd', objectVersion: 3, requestedVersion: 2, minVersion: 3, rule: 'lossless' });
    const unstamped = await refusal(() => guardObjects(p, { entry: { entryId: 'd', version: 1 } }));
    expect(unstamped.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(unstamped.details).toEqual({ reason: 'dashboard without an integer apiVersion' });
  });

  it('guards before translating a response down', async () => {
    let migrated = false;
    const p = plan({ guarded: [{ type: 'widget', path: '' }], down: [(b) => ((migrated = true), b)] });
    await expect(translateResponse(p, { id: 'w', version: 3 }, ctx)).rejects.toBeInstanceOf(GatewayError);
    expect(migrated).toBe(false);
  });
});
