// The write grant of a plan (x-dl-client-writes-through): per kind any method answers, the newest version a client may
// write without a round trip. Which changes count as touching a kind anywhere in the contract (its object changes, an
// incompatible custom change covering it, any change to the answer of a method that locates it, before or after the
// change, a removed method's kinds), and how the backend's version bounds the grant.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { custom, fieldAdded, fieldRenamed, methodAdded, methodRemoved, object, request, response } from '../../src/core/contract-model/builders.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { Change, Json, MethodSpec, ObjectLocation, VersionSpec } from '../../src/core/contract-model/types.js';
import { buildPlan, buildPlans, type MethodPlan } from '../../src/core/translate/plan.js';

const spec = (objects?: ObjectLocation[]): MethodSpec => ({ request: z.looseObject({}), response: z.looseObject({}), ...(objects && { objects }) });
const version = (n: number, methods: Record<string, MethodSpec>, changes: Change[] = []): VersionSpec => ({ version: n, methods, changes });
const same = (b: Json) => b;
const grantOf = (versions: VersionSpec[], at: number, method: string, backend?: number): string | undefined => {
  const plan: MethodPlan | undefined = buildPlan(loadContract({ versions }), at, method, backend);
  if (!plan) throw new Error(`no plan for ${method} at ${at}`);
  if ('writeGrant' in plan && plan.writeGrant === undefined) throw new Error('writeGrant present but undefined');
  return plan.writeGrant;
};

describe('kinds never changed, and kinds changed on themselves', () => {
  // zeta is met first (method a), alpha second; zeta changes at version 2.
  const versions = (): VersionSpec[] => {
    const methods = { a: spec([{ type: 'zeta', path: '' }]), b: spec([{ type: 'alpha', path: '' }]), save: spec() };
    return [version(1, methods), version(2, methods, [fieldAdded(object('zeta'), 'x', 1, 'zetas have x')]), version(3, methods)];
  };

  it('grants the head for a kind no change touches, and nothing for one changed right above the client', () => {
    expect(grantOf(versions(), 1, 'save')).toBe('alpha=3');
  });

  it('lists every kind granted, sorted by name, comma-separated', () => {
    expect(grantOf(versions(), 2, 'save')).toBe('alpha=3,zeta=3');
    expect(grantOf(versions(), 1, 'a')).toBe('alpha=3');
  });

  it('grants nothing at the backend’s own version', () => {
    const plan = buildPlan(loadContract({ versions: versions() }), 3, 'save');
    expect(plan).toBeDefined();
    expect(plan && 'writeGrant' in plan).toBe(false);
    const below = buildPlan(loadContract({ versions: versions() }), 1, 'save', 1);
    expect(below && 'writeGrant' in below).toBe(false);
  });

  it('grants up to the version before the next change', () => {
    const longer = (): VersionSpec[] => {
      const methods = { a: spec([{ type: 'zeta', path: '' }]), save: spec() };
      return [
        version(1, methods),
        version(2, methods),
        version(3, methods, [fieldAdded(object('zeta'), 'x', 1, 'zetas have x')]),
        version(4, methods),
        version(5, methods, [fieldAdded(object('zeta'), 'y', 1, 'zetas have y')]),
      ];
    };
    expect(grantOf(longer(), 1, 'save')).toBe('zeta=2');
    expect(grantOf(longer(), 2, 'save')).toBeUndefined();
    expect(grantOf(longer(), 3, 'save')).toBe('zeta=4');
    expect(grantOf(longer(), 4, 'save')).toBeUndefined();
    expect(grantOf(longer(), 3, 'a')).toBe('zeta=4');
  });
});

describe('answer changes and removed methods', () => {
  // widget: get's answer changes at 2. gadget: old, which locates it, is removed at 3. fresh, added at 3, changes its
  // answer right away.
  const versions = (): VersionSpec[] => [
    version(1, { get: spec([{ type: 'widget', path: '' }]), old: spec([{ type: 'gadget', path: '' }]), save: spec() }),
    version(2, { get: spec([{ type: 'widget', path: '' }]), old: spec([{ type: 'gadget', path: '' }]), save: spec() }, [
      fieldRenamed(response('get'), 'name', 'title', 'get: name is title'),
      fieldRenamed(request('save'), 'name', 'title', 'save takes title'),
    ]),
    version(3, { get: spec([{ type: 'widget', path: '' }]), save: spec(), fresh: spec() }, [
      methodRemoved('old', 'old is gone'),
      methodAdded('fresh', 'fresh is new'),
      fieldAdded(response('fresh'), 'x', 1, 'fresh answers x'),
    ]),
    version(4, { get: spec([{ type: 'widget', path: '' }]), save: spec(), fresh: spec() }),
  ];

  it('counts a change to the answer of a method locating the kind, and the removal of such a method', () => {
    expect(grantOf(versions(), 1, 'save')).toBe('gadget=2');
    expect(grantOf(versions(), 2, 'save')).toBe('widget=4');
    // A kind no method answers any more is still granted (the head): it has no change left to wait for.
    expect(grantOf(versions(), 3, 'fresh')).toBe('gadget=4,widget=4');
  });

  it('keeps every plan of the contract consistent with it', () => {
    const plans = buildPlans(loadContract({ versions: versions() }));
    expect([...plans].map(([key, p]) => `${key} ${p.writeGrant ?? '-'}`)).toEqual([
      '1:get gadget=2',
      '1:old gadget=2',
      '1:save gadget=2',
      '2:get widget=4',
      '2:old widget=4',
      '2:save widget=4',
      '3:get gadget=4,widget=4',
      '3:save gadget=4,widget=4',
      '3:fresh gadget=4,widget=4',
      '4:get -',
      '4:save -',
      '4:fresh -',
    ]);
  });
});

describe('custom changes', () => {
  const versions = (): VersionSpec[] => {
    const methods = {
      get: spec([
        { type: 'widget', path: '' },
        { type: 'gadget', path: 'g' },
        { type: 'thing', path: 't' },
        { type: 'part', path: 'p' },
      ]),
      other: spec([{ type: 'owner', path: '' }]),
      save: spec(),
    };
    return [
      version(1, methods),
      version(2, methods, [custom({ description: 'compatible: parts gain z', compatible: true, covers: [{ target: object('part'), path: 'z' }], response: { other: same } })]),
      version(3, methods, [
        custom({
          description: 'widgets migrate, things change without a migration',
          compatible: false,
          covers: [
            { target: object('thing'), path: 'x' },
            { target: request('save'), path: 'q' },
          ],
          object: { widget: same },
          objectUp: { widget: same },
        }),
        fieldAdded(response('other'), 'y', 1, 'other answers y'),
      ]),
      version(4, methods),
    ];
  };

  it('counts object migrations, incompatible covers of a kind and answer migrations, never a compatible change’s covers', () => {
    expect(grantOf(versions(), 1, 'save')).toBe('gadget=4,part=4,thing=2,widget=2');
    expect(grantOf(versions(), 2, 'save')).toBe('gadget=4,part=4');
  });
});

describe('a backend below the head', () => {
  // widget changes at 4, gizmo at 2, plain never.
  const versions = (): VersionSpec[] => {
    const methods = {
      get: spec([
        { type: 'widget', path: '' },
        { type: 'gizmo', path: 'g' },
        { type: 'plain', path: 'p' },
      ]),
      save: spec(),
    };
    return [
      version(1, methods),
      version(2, methods, [fieldAdded(object('gizmo'), 'x', 1, 'gizmos have x')]),
      version(3, methods),
      version(4, methods, [fieldAdded(object('widget'), 'x', 1, 'widgets have x')]),
    ];
  };

  it('grants at most the backend’s version', () => {
    expect(grantOf(versions(), 1, 'save', 2)).toBe('plain=2,widget=2');
    expect(grantOf(versions(), 1, 'get', 2)).toBe('plain=2,widget=2');
    expect(grantOf(versions(), 2, 'save', 3)).toBe('gizmo=3,plain=3,widget=3');
    expect(grantOf(versions(), 1, 'save')).toBe('plain=4,widget=3');
    expect(grantOf(versions(), 2, 'save', 2)).toBeUndefined();
  });
});
