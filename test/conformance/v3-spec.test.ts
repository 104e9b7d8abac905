// The gateway in front of the reference backend against the real version-3 spec: every spec method is called at
// the contract's head version (at version 3 once the head is past it) with a body written from the spec's request
// schema, must be accepted, and must answer what the spec's response schema describes. Steps the head cannot run yet
// are skipped with the reason.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedContract } from '../../src/contract/index.js';
import { HEAD } from '../helpers/calendar.js';
import { rpc, startStack, type Stack } from '../helpers/stack.js';
import { EXCLUDED, KNOWN_CONTRACT_GAPS, SCENARIO, SPEC_PATH_COUNT, SPEC_VERSION, initialMade, type Made, type SpecStep } from './v3-spec/index.js';

/** The version the scenario is sent at: the head, or the spec's own version once a newer head may rename what it names. */
const AT = Math.min(HEAD, SPEC_VERSION);
const methodsAt = shippedContract.versions.find((v) => v.version === AT)!.methods;

/** Why a step cannot run against this head, or undefined when it can. */
function whyNot(step: SpecStep): string | undefined {
  if (!Object.hasOwn(methodsAt, step.method)) return `the contract's version ${AT} has no ${step.method}`;
  if (step.v3Only && HEAD < SPEC_VERSION) {
    return `the head is version ${HEAD}; ${step.request} is version ${SPEC_VERSION}'s shape, real version 2 takes another`;
  }
  return undefined;
}

/** Read of an id no earlier step made (its maker was skipped or failed). */
class MissingId extends Error {}

/** The scenario's ids; reading one nobody made throws MissingId instead of sending `undefined`. */
function madeIds(): Made {
  return new Proxy(initialMade(), {
    get(target, key) {
      if (typeof key === 'string' && !Object.hasOwn(target, key)) throw new MissingId(key);
      return Reflect.get(target, key);
    },
  });
}

const issuesOf = (error: { issues: { path: PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

describe('the real version-3 spec', () => {
  it('has a step for every method, or a stated reason to leave it out', () => {
    const stepped = new Set(SCENARIO.map((s) => s.method));
    expect([...stepped].filter((m) => Object.hasOwn(EXCLUDED, m))).toEqual([]);
    expect(stepped.size + Object.keys(EXCLUDED).length).toBe(SPEC_PATH_COUNT);
  });

  it('has answer schemas that each refuse what no spec answer is (a bare string)', () => {
    expect(SCENARIO.filter((s) => s.answer.safeParse('not an answer').success).map((s) => s.method)).toEqual([]);
  });

  describe.sequential(`its scenario, called at ${AT === HEAD ? 'the head version' : 'the spec\'s version'} (${AT})`, () => {
    const made = madeIds();
    SCENARIO.forEach((step, i) => {
      const name = `${String(i + 1).padStart(2, '0')} ${step.method}: ${step.request} → ${step.response}`;
      const reason = whyNot(step);
      if (reason !== undefined) {
        it.skip(`${name} [skipped: ${reason}]`, () => {});
        return;
      }
      const gap = KNOWN_CONTRACT_GAPS[step.method];
      const run = gap === undefined ? it : it.fails;
      run(gap === undefined ? name : `${name} [known contract gap, expected to fail until fixed: ${gap}]`, async (ctx) => {
        let body: unknown;
        try {
          body = step.body(made);
        } catch (error) {
          if (error instanceof MissingId) ctx.skip(`needs "${error.message}", which no earlier step made`);
          throw error;
        }
        const res = await rpc(stack.url, step.method, body, String(AT));
        expect(res.body?.code, `refused: ${JSON.stringify(res.body)}`).not.toBe('VALIDATION_ERROR');
        expect(res.status, `answered ${res.status}: ${JSON.stringify(res.body)}`).toBe(200);
        const parsed = step.answer.safeParse(res.body);
        expect(parsed.success, parsed.success ? '' : `not the spec's ${step.response}: ${issuesOf(parsed.error)}\n${JSON.stringify(res.body)}`).toBe(true);
        step.keep?.(res.body, made);
      });
    });
  });
});
