// check-contract rules on places the other tests do not reach: a difference on a whole field explained by a change
// inside it, object kinds located in requests, and the change-without-effect rule's targets and open union members.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { custom, fieldAdded, fieldRemoved, fieldRenamed, object, request, response } from '../../src/core/contract-model/builders.js';
import { checkContract, missingWayBack } from '../../src/core/contract-model/check.js';
import type { Change, Contract, MethodSpec } from '../../src/core/contract-model/types.js';

const two = (v1: Record<string, MethodSpec>, v2: Record<string, MethodSpec>, changes: Change[]): Contract => ({
  versions: [
    { version: 1, methods: v1, changes: [] },
    { version: 2, methods: v2, changes },
  ],
});
const check = (c: Contract) => checkContract(c).map(({ rule, message }) => `${rule}: ${message}`);
const answers = (fields: Record<string, z.ZodType>): MethodSpec => ({ request: z.looseObject({}), response: z.object(fields) });

describe('a change inside a field explains the field added or removed as a whole', () => {
  it('covers a whole field added by a change on a field inside it', () => {
    const contract = two(
      { get: answers({ id: z.string() }) },
      { get: answers({ id: z.string(), background: z.object({ color: z.string() }) }) },
      [fieldAdded(response('get'), 'background.color', 'white', 'get answers a background colour')],
    );
    // Only compatible, hence no bump: the difference itself is declared.
    expect(check(contract)).toEqual([
      'bump-without-incompatible-change: version 2 carries no incompatible change; compatible changes do not raise the version',
    ]);
  });

  it('covers a whole field removed by a change on a field inside it', () => {
    const contract = two(
      { get: answers({ id: z.string(), background: z.object({ color: z.string() }) }) },
      { get: answers({ id: z.string() }) },
      [fieldRemoved(response('get'), 'background.color', 'get no longer answers a background colour', { downDefault: 'white' })],
    );
    expect(check(contract)).toEqual([]);
  });

  it('does not cover a field whose type changed by a change on a field inside it', () => {
    const contract = two(
      { get: answers({ id: z.string(), background: z.object({ color: z.string() }) }) },
      { get: answers({ id: z.string(), background: z.string() }) },
      [fieldRemoved(response('get'), 'background.color', 'background is a colour', { downDefault: 'white' })],
    );
    expect(check(contract).filter((p) => p.startsWith('undeclared-difference'))).toHaveLength(1);
  });
});

describe('object kinds located in requests', () => {
  const saves = (entry: Record<string, z.ZodType>, extra: Record<string, z.ZodType>): MethodSpec => ({
    request: z.looseObject({ entry: z.looseObject(entry), extra: z.looseObject(extra) }),
    response: z.object({ ok: z.boolean() }),
    requestObjects: [
      { type: 'widget', path: 'entry' },
      { type: 'gadget', path: 'extra' },
    ],
  });

  it('lets a change of the kind cover the request differences at its location, and only those', () => {
    const renamed = fieldRenamed(object('widget'), 'title', 'name', 'widgets: title is name');
    const fine = two({ save: saves({ title: z.string() }, { a: z.string() }) }, { save: saves({ name: z.string() }, { a: z.string() }) }, [renamed]);
    expect(check(fine)).toEqual([]);
    // The other kind's location is not the widget's: its difference stays undeclared.
    const other = two({ save: saves({ title: z.string() }, { title: z.string() }) }, { save: saves({ name: z.string() }, { name: z.string() }) }, [renamed]);
    expect(check(other).map((p) => p.split(':')[0])).toEqual(['undeclared-difference', 'undeclared-difference']);
    expect(check(other).join('\n')).toContain('extra.title');
    expect(check(other).join('\n')).toContain('extra.name');
  });

  it('counts a kind located only in requests as located, and a kind located under another type as not', () => {
    const only = (type: string): MethodSpec => ({
      request: z.looseObject({ entry: z.looseObject({ title: z.string() }) }),
      response: z.object({ ok: z.boolean() }),
      requestObjects: [{ type, path: 'entry' }],
    });
    const change = fieldRemoved(object('widget'), 'title', 'widgets lose their title');
    const idle = (type: string) => checkContract(two({ save: only(type) }, { save: only(type) }, [change])).filter((p) => p.rule === 'change-without-effect');
    expect(idle('widget')).toEqual([]);
    expect(idle('gadget').map((p) => p.message)).toEqual([
      '"widgets lose their title" (fieldRemoved on widget objects): no method of versions 1 or 2 locates widget objects (objects or requestObjects)',
    ]);
  });
});

describe('change-without-effect', () => {
  const idle = (v1: Record<string, MethodSpec>, v2: Record<string, MethodSpec>, change: Change) =>
    checkContract(two(v1, v2, [change]))
      .filter((p) => p.rule === 'change-without-effect')
      .map((p) => p.message);

  it('flags a field added at a path no schema has', () => {
    const methods = { get: answers({ id: z.string() }) };
    expect(idle(methods, methods, fieldAdded(response('get'), 'nowhere', 0, 'get answers nowhere'))).toEqual([
      '"get answers nowhere" (fieldAdded on get response): no schema of versions 1 or 2 has nowhere (or the union member it names)',
    ]);
  });

  it('looks for a response path in the named method’s answer only', () => {
    const methods = { get: answers({ id: z.string() }), list: answers({ total: z.number() }) };
    expect(idle(methods, methods, fieldRemoved(response('get'), 'total', 'get drops total', { downDefault: 0 }))).toEqual([
      '"get drops total" (fieldRemoved on get response): no schema of versions 1 or 2 has total (or the union member it names)',
    ]);
    expect(idle(methods, methods, fieldRemoved(response('list'), 'total', 'list drops total', { downDefault: 0 }))).toEqual([]);
  });

  it('accepts a field of a union member an older open schema left undescribed, when a schema names the member', () => {
    const v1 = { get: answers({ items: z.array(z.record(z.string(), z.unknown())) }) };
    const v2 = { get: answers({ items: z.array(z.object({ type: z.literal('chart'), id: z.string() })) }) };
    const removed = fieldRemoved(response('get'), 'items.*[type=chart].color', 'charts lose their colour', { downDefault: 'red' });
    expect(idle(v1, v2, removed)).toEqual([]);
    // A member no schema names is still flagged, even where an open schema would let any member through.
    const unnamed = fieldRemoved(response('get'), 'items.*[type=map].color', 'maps lose their colour', { downDefault: 'red' });
    expect(idle(v1, v2, unnamed)).toEqual([
      '"maps lose their colour" (fieldRemoved on get response): no schema of versions 1 or 2 has items.*[type=map].color (or the union member it names)',
    ]);
  });
});

describe('missingWayBack', () => {
  it('asks nothing of a change that is not custom, nor of a custom change declared one-way', () => {
    const migrate = (b: Record<string, unknown>) => b;
    expect(missingWayBack(fieldRemoved(request('m'), 'a', 'd'))).toBeUndefined();
    const base = { description: 'd', compatible: false, covers: [], request: { m: migrate } };
    expect(missingWayBack(custom({ ...base, oneWay: 'why' }))).toBeUndefined();
    expect(missingWayBack(custom(base))).toContain('requestDown for m');
  });
});
