import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shippedContract } from '../../src/contract/index.js';
import {
  custom,
  fieldAdded,
  fieldRemoved,
  fieldRenamed,
  methodAdded,
  methodRemoved,
  object,
  request,
} from '../../src/core/contract-model/builders.js';
import { checkContract } from '../../src/core/contract-model/check.js';
import type { Change, Contract, MethodSpec } from '../../src/core/contract-model/types.js';

const widget = (fields: Record<string, z.ZodType>): MethodSpec => ({
  request: z.looseObject(fields),
  response: z.looseObject({ id: z.string(), version: z.number() }),
});
const widgetWithObject = (objectFields: Record<string, z.ZodType>): MethodSpec => ({
  request: z.looseObject({ id: z.string() }),
  response: z.object({ id: z.string(), version: z.number(), ...objectFields }),
  objects: [{ type: 'widget', path: '' }],
});

/** Two versions of one method; v2 has the given schema and changes. */
const twoVersions = (v1: Record<string, MethodSpec>, v2: Record<string, MethodSpec>, changes: Change[]): Contract => ({
  versions: [
    { version: 1, methods: v1, changes: [] },
    { version: 2, methods: v2, changes },
  ],
});
const rules = (contract: Contract) => checkContract(contract).map((p) => p.rule);

describe('check-contract', () => {
  it('passes the shipped contract', () => {
    expect(checkContract(shippedContract)).toEqual([]);
  });

  it('passes a rename declared with its version bump', () => {
    const contract = twoVersions(
      { make: widget({ name: z.string() }) },
      { make: widget({ title: z.string() }) },
      [fieldRenamed(request('make'), 'name', 'title', 'make: `name` is renamed `title`.')],
    );
    expect(checkContract(contract)).toEqual([]);
  });

  it('fails a removed field that no change declares', () => {
    const contract = twoVersions(
      { make: widget({ name: z.string(), color: z.string() }) },
      { make: widget({ name: z.string() }) },
      [methodAdded('other', 'other is added')],
    );
    const problems = checkContract({
      versions: [contract.versions[0]!, { ...contract.versions[1]!, methods: { ...contract.versions[1]!.methods, other: widget({}) } }],
    });
    expect(problems.map((p) => p.rule)).toContain('undeclared-difference');
    expect(problems.find((p) => p.rule === 'undeclared-difference')?.message).toMatch(/make request: .*color/);
  });

  it('fails an incompatible schema change declared only as a compatible change (no bump for it)', () => {
    const contract = twoVersions(
      { make: widget({ name: z.string() }), gone: widget({}) },
      { make: widget({ name: z.string(), color: z.string() }) },
      [
        fieldAdded(request('make'), 'color', 'red', 'make takes `color`.'),
        methodRemoved('gone', 'gone is removed', { method: 'make' }),
      ],
    );
    // `color` is required in the request: adding a required request field breaks old clients.
    expect(rules(contract)).toContain('incompatible-change-without-bump');
  });

  it('fails a bump that carries only compatible changes', () => {
    const contract = twoVersions(
      { make: widget({ name: z.string() }) },
      { make: widget({ name: z.string(), note: z.string().optional() }) },
      [fieldAdded(request('make'), 'note', '', 'make takes an optional `note`.')],
    );
    expect(rules(contract)).toEqual(['bump-without-incompatible-change']);
  });

  it('fails a bump of more than one', () => {
    const contract: Contract = {
      versions: [
        { version: 1, methods: { make: widget({}) }, changes: [] },
        { version: 3, methods: { make: widget({}) }, changes: [] },
      ],
    };
    const problems = checkContract(contract);
    expect(problems.map((p) => p.rule)).toEqual(['structure']);
    expect(problems[0]?.message).toMatch(/consecutive/);
  });

  it('fails a removed method without its replacement migration', () => {
    const contract = twoVersions({ make: widget({}), gone: widget({}) }, { make: widget({}) }, [
      methodRemoved('gone', 'gone is removed'),
    ]);
    expect(rules(contract)).toEqual(['missing-migration']);
  });

  it('fails a field removed from objects without what old clients read instead', () => {
    const contract = twoVersions(
      { getWidget: widgetWithObject({ color: z.string() }) },
      { getWidget: widgetWithObject({}) },
      [fieldRemoved(object('widget'), 'color', 'widgets lose `color`.')],
    );
    expect(rules(contract)).toEqual(['missing-migration']);
    const fixed = twoVersions(
      { getWidget: widgetWithObject({ color: z.string() }) },
      { getWidget: widgetWithObject({}) },
      [fieldRemoved(object('widget'), 'color', 'widgets lose `color`.', { downDefault: 'black' })],
    );
    expect(checkContract(fixed)).toEqual([]);
  });

  it('fails an incompatible custom change that carries no migration', () => {
    const contract = twoVersions(
      { make: widget({ name: z.string() }) },
      { make: widget({ name: z.number() }) },
      [custom({ description: 'make: `name` becomes a number.', compatible: false, covers: [{ target: request('make'), path: 'name' }] })],
    );
    expect(rules(contract)).toEqual(['missing-migration']);
  });

  it('fails a method removed or added without a declared change', () => {
    const contract = twoVersions({ make: widget({}), gone: widget({}) }, { make: widget({}), fresh: widget({}) }, [
      fieldRenamed(request('make'), 'a', 'b', 'make: `a` is renamed `b`.'),
    ]);
    const messages = checkContract(contract).map((p) => p.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/gone is removed without a methodRemoved/),
        expect.stringMatching(/fresh is added without a methodAdded/),
        expect.stringMatching(/matches no difference/),
      ]),
    );
  });

  it('fails a change without a description at load time', () => {
    const contract = twoVersions({ make: widget({ a: z.string() }) }, { make: widget({ b: z.string() }) }, [
      fieldRenamed(request('make'), 'a', 'b', '  '),
    ]);
    expect(rules(contract)).toEqual(['structure']);
  });
});
