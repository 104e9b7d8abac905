// The check-contract rules over small inline contracts: each rule, its message, and what it must not flag.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  custom,
  fieldAdded,
  fieldRemoved,
  fieldRenamed,
  fieldToArray,
  methodAdded,
  methodRemoved,
  object,
  request,
} from '../../src/core/contract-model/builders.js';
import { checkContract, isIncompatible } from '../../src/core/contract-model/check.js';
import type { Change, Contract, FieldAdded, MethodSpec } from '../../src/core/contract-model/types.js';

const ok = z.object({ ok: z.boolean() });
/** A method whose request has `fields` and whose response is fixed. */
const takes = (fields: Record<string, z.ZodType>): MethodSpec => ({ request: z.looseObject(fields), response: ok });
/** A method whose response has `fields` and whose request is fixed. */
const gives = (fields: Record<string, z.ZodType>): MethodSpec => ({ request: z.looseObject({ id: z.string() }), response: z.object(fields) });
/** A method answering a list of widget objects under `entries`. */
const lists = (widget: Record<string, z.ZodType>): MethodSpec => ({
  request: z.looseObject({}),
  response: z.object({ entries: z.array(z.object({ id: z.string(), version: z.number(), ...widget })) }),
  objects: [{ type: 'widget', path: 'entries.*' }],
});

const two = (
  v1: Record<string, MethodSpec>,
  v2: Record<string, MethodSpec>,
  changes: Change[],
  additions?: { v1?: FieldAdded[]; v2?: FieldAdded[] },
): Contract => ({
  versions: [
    { version: 1, methods: v1, changes: [], ...(additions?.v1 && { additions: additions.v1 }) },
    { version: 2, methods: v2, changes, ...(additions?.v2 && { additions: additions.v2 }) },
  ],
});
const check = (c: Contract) => checkContract(c).map(({ version, rule, message }) => ({ version, rule, message }));

describe('isIncompatible', () => {
  it('counts added fields and methods and compatible custom changes as compatible, all else as incompatible', () => {
    expect(isIncompatible(fieldAdded(request('m'), 'p', 1, 'd'))).toBe(false);
    expect(isIncompatible(methodAdded('m', 'd'))).toBe(false);
    expect(isIncompatible(custom({ description: 'd', compatible: true, covers: [] }))).toBe(false);
    expect(isIncompatible(custom({ description: 'd', compatible: false, covers: [] }))).toBe(true);
    expect(isIncompatible(fieldRemoved(request('m'), 'p', 'd'))).toBe(true);
    expect(isIncompatible(fieldRenamed(request('m'), 'p', 'q', 'd'))).toBe(true);
    expect(isIncompatible(fieldToArray(request('m'), 'p', 'd'))).toBe(true);
    expect(isIncompatible(methodRemoved('m', 'd'))).toBe(true);
  });
});

describe('checkContract', () => {
  it('passes a single version, and a version that only adds fields while current', () => {
    expect(checkContract({ versions: [{ version: 1, methods: { make: takes({}) }, changes: [] }] })).toEqual([]);
    const contract = two(
      { make: takes({ name: z.string(), note: z.string().optional() }) },
      { make: takes({ title: z.string(), note: z.string().optional() }) },
      [fieldRenamed(request('make'), 'name', 'title', 'make: name is title')],
      { v1: [fieldAdded(request('make'), 'note', '', 'make takes note')] },
    );
    expect(check(contract)).toEqual([]);
  });

  it('passes a version mixing a compatible and an incompatible change, each covering its own difference', () => {
    const contract = two(
      { make: takes({ name: z.string() }) },
      { make: takes({ title: z.string(), note: z.string().optional() }) },
      [
        fieldAdded(request('make'), 'note', '', 'make takes an optional note'),
        fieldRenamed(request('make'), 'name', 'title', 'make: name is title'),
      ],
    );
    expect(check(contract)).toEqual([]);
  });

  it('flags, in a mixed version, the incompatible difference covered only by the compatible change', () => {
    const contract = two(
      { make: takes({ name: z.string() }) },
      { make: takes({ title: z.string(), color: z.string() }) },
      [
        fieldAdded(request('make'), 'color', 'red', 'make takes color'),
        fieldRenamed(request('make'), 'name', 'title', 'make: name is title'),
      ],
    );
    expect(check(contract)).toEqual([
      {
        version: 2,
        rule: 'incompatible-change-without-bump',
        message: 'make request: required field `color` added is incompatible but is declared only as a compatible change',
      },
    ]);
  });

  it('flags a bump carrying only compatible changes', () => {
    const contract = two({ make: takes({}) }, { make: takes({}), fresh: takes({}) }, [methodAdded('fresh', 'fresh is new')]);
    expect(check(contract)).toEqual([
      {
        version: 2,
        rule: 'bump-without-incompatible-change',
        message: 'version 2 carries no incompatible change; compatible changes do not raise the version',
      },
    ]);
  });

  it('flags a change declared in the other direction: the difference stays undeclared and the change matches nothing', () => {
    const contract = two({ make: takes({ name: z.string() }) }, { make: takes({ title: z.string() }) }, [
      fieldRenamed({ response: 'make' }, 'name', 'title', 'make answers title for name'),
    ]);
    expect(check(contract)).toEqual([
      {
        version: 2,
        rule: 'change-without-effect',
        message: '"make answers title for name" (fieldRenamed on make response): no schema of versions 1 or 2 has name or title (or the union member it names)',
      },
      {
        version: 2,
        rule: 'undeclared-difference',
        message: 'make request: field `name` removed (fieldRemoved), but no change of version 2 declares it',
      },
      {
        version: 2,
        rule: 'undeclared-difference',
        message: 'make request: required field `title` added (fieldAdded), but no change of version 2 declares it',
      },
      {
        version: 2,
        rule: 'declared-change-without-difference',
        message: '"make answers title for name" (fieldRenamed) matches no difference between the schemas of versions 1 and 2',
      },
    ]);
  });

  it('flags a change declared for another method', () => {
    const contract = two(
      { make: gives({ name: z.string() }), other: gives({ name: z.string() }) },
      { make: gives({ title: z.string() }), other: gives({ name: z.string() }) },
      [fieldRenamed({ response: 'other' }, 'name', 'title', 'other answers title')],
    );
    expect(check(contract).map((p) => p.rule)).toEqual([
      'undeclared-difference',
      'undeclared-difference',
      'declared-change-without-difference',
    ]);
    expect(check(contract)[0]?.message).toMatch(/^make response: field `name` removed/);
  });

  it('flags a request change declared for another method’s request', () => {
    const contract = two(
      { make: takes({ name: z.string() }), other: takes({ name: z.string() }) },
      { make: takes({ title: z.string() }), other: takes({ name: z.string() }) },
      [fieldRenamed(request('other'), 'name', 'title', 'other: name is title')],
    );
    expect(check(contract).map((p) => p.rule)).toEqual(['undeclared-difference', 'undeclared-difference', 'declared-change-without-difference']);
  });

  it('lets an object change cover only its own fields under the object’s location', () => {
    const contract = two({ list: lists({ name: z.string(), size: z.number() }) }, { list: lists({ title: z.string(), size: z.string() }) }, [
      fieldRenamed(object('widget'), 'name', 'title', 'widgets: name is title'),
    ]);
    expect(check(contract)).toEqual([
      {
        version: 2,
        rule: 'undeclared-difference',
        message: 'list response: type of `entries.*.size` changed from number to string (typeChanged), but no change of version 2 declares it',
      },
    ]);
  });

  it('accepts an incompatible difference covered by a compatible and an incompatible change together', () => {
    const migrate = (b: Record<string, unknown>) => b;
    const contract = two({ make: takes({}) }, { make: takes({ color: z.string() }) }, [
      fieldAdded(request('make'), 'color', 'red', 'make takes color'),
      custom({ description: 'make requires color', compatible: false, covers: [{ target: request('make'), path: 'color' }], request: { make: migrate }, requestDown: { make: migrate } }),
    ]);
    expect(check(contract)).toEqual([]);
  });

  it('flags a response change declared on the request side', () => {
    const contract = two({ make: gives({ name: z.string() }) }, { make: gives({ title: z.string() }) }, [
      fieldRenamed(request('make'), 'name', 'title', 'make: name is title'),
    ]);
    expect(check(contract).map((p) => p.rule)).toEqual(['change-without-effect', 'undeclared-difference', 'undeclared-difference', 'declared-change-without-difference']);
    const fixed = two({ make: gives({ name: z.string() }) }, { make: gives({ title: z.string() }) }, [
      fieldRenamed({ response: 'make' }, 'name', 'title', 'make answers title for name'),
    ]);
    expect(check(fixed)).toEqual([]);
  });

  it('lets a declared path cover the fields under it, but not a field that merely starts with its name', () => {
    const nested = two(
      { make: takes({ style: z.looseObject({ color: z.string() }) }) },
      { make: takes({ style: z.looseObject({ colour: z.string() }) }) },
      [fieldToArray(request('make'), 'style', 'make: style changes')],
    );
    expect(check(nested)).toEqual([]);
    const prefix = two({ make: takes({ names: z.string() }) }, { make: takes({ names: z.number() }) }, [
      fieldToArray(request('make'), 'name', 'make: name becomes a list'),
    ]);
    expect(check(prefix).map((p) => p.rule)).toEqual(['change-without-effect', 'undeclared-difference', 'declared-change-without-difference']);
  });

  it('locates an object change through the method’s object locations, in responses only', () => {
    const contract = two({ list: lists({ name: z.string() }) }, { list: lists({ title: z.string() }) }, [
      fieldRenamed(object('widget'), 'name', 'title', 'widgets: name is title'),
    ]);
    expect(check(contract)).toEqual([]);
    const wrongType = two({ list: lists({ name: z.string() }) }, { list: lists({ title: z.string() }) }, [
      fieldRenamed(object('gadget'), 'name', 'title', 'gadgets: name is title'),
    ]);
    expect(check(wrongType).map((p) => p.rule)).toEqual(['change-without-effect', 'undeclared-difference', 'undeclared-difference', 'declared-change-without-difference']);
    const inRequest = two(
      { make: { ...takes({ name: z.string() }), objects: [{ type: 'widget', path: '' }] } },
      { make: { ...takes({ title: z.string() }), objects: [{ type: 'widget', path: '' }] } },
      [fieldRenamed(object('widget'), 'name', 'title', 'widgets: name is title')],
    );
    expect(check(inRequest).map((p) => p.rule)).toEqual(['change-without-effect', 'undeclared-difference', 'undeclared-difference', 'declared-change-without-difference']);
  });

  it('locates an object at the body itself', () => {
    const widget = (fields: Record<string, z.ZodType>): MethodSpec => ({ ...gives(fields), objects: [{ type: 'widget', path: '' }] });
    const contract = two({ get: widget({ name: z.string() }) }, { get: widget({ title: z.string() }) }, [
      fieldRenamed(object('widget'), 'name', 'title', 'widgets: name is title'),
    ]);
    expect(check(contract)).toEqual([]);
  });

  it('finds an object located only in the newer version', () => {
    const contract = two(
      { get: gives({ name: z.string() }) },
      { get: { ...gives({ title: z.string() }), objects: [{ type: 'widget', path: '' }] } },
      [fieldRenamed(object('widget'), 'name', 'title', 'widgets: name is title')],
    );
    expect(check(contract)).toEqual([]);
  });

  it('lets a custom change cover the paths it names, a whole object included', () => {
    const migrate = (b: Record<string, unknown>) => b;
    const contract = two({ list: lists({ size: z.number() }) }, { list: lists({ size: z.string() }) }, [
      custom({ description: 'widget sizes are text', compatible: false, covers: [{ target: object('widget'), path: '' }], object: { widget: migrate }, objectUp: { widget: migrate } }),
    ]);
    expect(check(contract)).toEqual([]);
  });

  it('flags a removed response field without what old clients read, and not a removed request field', () => {
    const responseSide = two({ get: gives({ id: z.string(), color: z.string() }) }, { get: gives({ id: z.string() }) }, [
      fieldRemoved({ response: 'get' }, 'color', 'get loses color'),
    ]);
    expect(check(responseSide)).toEqual([
      { version: 2, rule: 'missing-migration', message: 'fieldRemoved color on get response needs a downDefault: old clients still read the field' },
    ]);
    const withDefault = two({ get: gives({ id: z.string(), color: z.string() }) }, { get: gives({ id: z.string() }) }, [
      fieldRemoved({ response: 'get' }, 'color', 'get loses color', { downDefault: 'black' }),
    ]);
    expect(check(withDefault)).toEqual([]);
    const requestSide = two({ make: takes({ color: z.string() }) }, { make: takes({}) }, [fieldRemoved(request('make'), 'color', 'make drops color')]);
    expect(check(requestSide)).toEqual([]);
  });

  it('flags a removed method without a replacement, with its message, and passes one with a replacement', () => {
    const gone = two({ a: takes({}), b: takes({}) }, { a: takes({}) }, [methodRemoved('b', 'b is gone')]);
    expect(check(gone)).toEqual([{ version: 2, rule: 'missing-migration', message: 'methodRemoved b needs replacedBy (or kept-by-backend): old clients still call it' }]);
    const replaced = two({ a: takes({}), b: takes({}) }, { a: takes({}) }, [methodRemoved('b', 'b is gone', { method: 'a' })]);
    expect(check(replaced)).toEqual([]);
    const kept = two({ a: takes({}), b: takes({}) }, { a: takes({}) }, [methodRemoved('b', 'b is gone', 'kept-by-backend')]);
    expect(check(kept)).toEqual([]);
  });

  it('refuses a method kept by the backend that answers versioned objects, or that is also replaced', () => {
    const guarded = two({ a: takes({}), b: lists({}) }, { a: takes({}) }, [methodRemoved('b', 'b is gone', 'kept-by-backend')]);
    expect(check(guarded)).toEqual([
      { version: 0, rule: 'structure', message: 'version 2: b answers versioned objects, which a method kept by the backend would pass unguarded' },
    ]);
    const both = two({ a: takes({}), b: takes({}) }, { a: takes({}) }, [{ ...methodRemoved('b', 'b is gone', { method: 'a' }), keptByBackend: true }]);
    expect(check(both)).toEqual([{ version: 0, rule: 'structure', message: 'version 2: b is both replaced and kept by the backend' }]);
  });

  it('flags an incompatible custom change without migrations, and accepts any one migration', () => {
    const migrate = (b: Record<string, unknown>) => b;
    const base = { description: 'make: name is a number', compatible: false, covers: [{ target: request('make'), path: 'name' }] };
    const withChange = (c: Change) => two({ make: takes({ name: z.string() }) }, { make: takes({ name: z.number() }) }, [c]);
    expect(check(withChange(custom(base)))).toEqual([
      { version: 2, rule: 'missing-migration', message: 'the custom change "make: name is a number" is incompatible but carries no migration' },
    ]);
    expect(check(withChange(custom({ ...base, request: { make: migrate }, requestDown: { make: migrate } })))).toEqual([]);
    expect(check(withChange(custom({ ...base, response: { make: migrate }, responseUp: { make: migrate } })))).toEqual([]);
    expect(check(withChange(custom({ ...base, object: { widget: migrate }, objectUp: { widget: migrate } })))).toEqual([]);
  });

  it('flags a custom change without its way back for a backend below it, naming what is missing, unless it says why (oneWay)', () => {
    const migrate = (b: Record<string, unknown>) => b;
    const base = { description: 'make: name is a number', compatible: false, covers: [{ target: request('make'), path: 'name' }] };
    const withChange = (c: Change) => two({ make: takes({ name: z.string() }) }, { make: takes({ name: z.number() }) }, [c]);
    expect(check(withChange(custom({ ...base, request: { make: migrate }, response: { make: migrate }, object: { widget: migrate } })))).toEqual([
      {
        version: 2,
        rule: 'missing-way-back',
        message:
          'the custom change "make: name is a number" has no way back for a backend below its version (requestDown for make, responseUp for make, objectUp for widget): write it, or declare oneWay with the reason',
      },
    ]);
    expect(check(withChange(custom({ ...base, request: { make: migrate }, oneWay: 'names cannot become text again' })))).toEqual([]);
  });

  it('flags an incompatible difference covered only by a compatible custom change', () => {
    const contract = two({ make: takes({ name: z.string() }) }, { make: takes({ name: z.number() }) }, [
      custom({ description: 'make: name is a number', compatible: true, covers: [{ target: request('make'), path: 'name' }] }),
    ]);
    expect(check(contract).map((p) => p.rule)).toEqual(['bump-without-incompatible-change', 'incompatible-change-without-bump']);
  });

  it('accepts a compatible difference covered only by a compatible change', () => {
    const contract = two(
      { make: takes({ name: z.string() }), gone: takes({}) },
      { make: takes({ name: z.string(), note: z.string().optional() }) },
      [fieldAdded(request('make'), 'note', '', 'make takes note'), methodRemoved('gone', 'gone is gone', { method: 'make' })],
    );
    expect(check(contract)).toEqual([]);
  });

  it('flags methods added or removed without a change, in method order', () => {
    const contract = two({ keep: takes({ a: z.string() }), zeta: takes({}) }, { keep: takes({ b: z.string() }), alpha: takes({}) }, [
      fieldRenamed(request('keep'), 'a', 'b', 'keep: a is b'),
    ]);
    expect(check(contract)).toEqual([
      { version: 2, rule: 'undeclared-difference', message: 'method alpha is added without a methodAdded change' },
      { version: 2, rule: 'undeclared-difference', message: 'method zeta is removed without a methodRemoved change' },
    ]);
  });

  it('matches a methodAdded or methodRemoved to its own method only', () => {
    const contract = two(
      { keep: takes({ a: z.string() }), old1: takes({}), old2: takes({}) },
      { keep: takes({ b: z.string() }), fresh1: takes({}), fresh2: takes({}) },
      [
        fieldRenamed(request('keep'), 'a', 'b', 'keep: a is b'),
        methodAdded('fresh2', 'fresh2 is added'),
        methodRemoved('old2', 'old2 is removed', { method: 'keep' }),
      ],
    );
    expect(check(contract)).toEqual([
      { version: 2, rule: 'undeclared-difference', message: 'method fresh1 is added without a methodAdded change' },
      { version: 2, rule: 'undeclared-difference', message: 'method old1 is removed without a methodRemoved change' },
    ]);
  });

  it('checks each pair of consecutive versions and reports the newer one', () => {
    const contract: Contract = {
      versions: [
        { version: 1, methods: { make: takes({ a: z.string() }) }, changes: [] },
        { version: 2, methods: { make: takes({ b: z.string() }) }, changes: [fieldRenamed(request('make'), 'a', 'b', 'a is b')] },
        { version: 3, methods: { make: takes({ b: z.string() }) }, changes: [fieldRenamed(request('make'), 'b', 'c', 'b is c')] },
      ],
    };
    expect(check(contract)).toEqual([
      { version: 3, rule: 'declared-change-without-difference', message: '"b is c" (fieldRenamed) matches no difference between the schemas of versions 2 and 3' },
    ]);
  });

  it('flags every request object that would drop unknown fields, wherever it sits, and never loose or strict ones', () => {
    type Node = { readonly child?: Node };
    const tree: z.ZodType<Node> = z.lazy(() => z.object({ child: tree.optional() }));
    const request = z.looseObject({
      plain: z.object({ a: z.string() }).optional(),
      list: z.array(z.object({})).nullable(),
      either: z.union([z.string(), z.strictObject({}), z.object({ b: z.number() })]),
      map: z.record(z.string(), z.object({})).default({}),
      tree,
      fine: z.looseObject({ deep: z.strictObject({ x: z.string() }) }),
    });
    const contract: Contract = { versions: [{ version: 1, methods: { make: { request, response: ok } }, changes: [] }] };
    expect(check(contract).map((p) => p.message)).toEqual(
      ['plain', 'list.*', 'either', 'map.*', 'tree'].map(
        (path) => `make request at ${path} drops unknown fields: declare it loose (keep them) or strict (refuse them)`,
      ),
    );
    expect(new Set(check(contract).map((p) => `${p.version} ${p.rule}`))).toEqual(new Set(['1 request-drops-fields']));
    const whole: Contract = { versions: [{ version: 1, methods: { make: { request: z.object({}), response: z.object({}) } }, changes: [] }] };
    expect(check(whole).map((p) => p.message)).toEqual(['make request drops unknown fields: declare it loose (keep them) or strict (refuse them)']);
  });

  it('stops at structural problems, reported as version 0', () => {
    expect(checkContract({ versions: [] })).toEqual([{ version: 0, rule: 'structure', message: 'the contract has no versions' }]);
  });
});
