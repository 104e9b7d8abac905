// Bodies made from the real version-3 request schemas (v3-request-schemas.json), sent at version 3 through a real
// gateway in front of the reference backend: none may be refused by the gateway's validation. The backend may still
// answer 404 for ids that do not exist, or refuse what it checks itself (a VALIDATION_ERROR it sends is told apart by
// having reached it); only the gateway's own VALIDATION_ERROR fails. The same at version 2, for the methods whose real
// v2 request names the same component (facts.ts, sameAtVersion2).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, rpc, startStack } from '../helpers/stack.js';
import { EXCLUDED } from './v3-spec/index.js';
import { type Adjust, NotExtracted, bodiesOf } from './v3-request-schemas/bodies.js';
import { KNOWN_DIFFERENCES } from './v3-request-schemas/differences.js';
import { REAL, realRequest, sameAtVersion2 } from './v3-request-schemas/facts.js';
import type { Typed } from './v3-request-schemas/normalise.js';

const SPEC_VERSION = '3';
/** The versions the bodies are sent at, with the methods whose real schema there is the extracted one. */
const VERSIONS: readonly (readonly [version: string, methods: readonly string[] | undefined])[] = [
  [SPEC_VERSION, Object.keys(REAL.methods).sort()],
  ['2', sameAtVersion2()],
];
/** Marks each body's request, so that the backend's log tells whether the gateway let it through. */
const MARK = 'x-conformance-body';
/** Bodies in flight at once (the dashboard methods have about two thousand each). */
const IN_FLIGHT = 8;

/**
 * Where the gateway is stricter than the real schema for a listed reason (differences.ts): the bodies follow the
 * gateway's rule there. Keyed by the listed prefix, so an entry goes when its difference does.
 */
const STRICTER: Readonly<Record<string, { readonly path: string; readonly adjust: (n: Typed) => Typed }>> = {
  'createDashboard entry.data.tabs: minItems': { path: 'entry.data.tabs', adjust: (n) => ({ ...n, bounds: { ...n.bounds, minItems: 1 } }) },
  'updateDashboard entry.data.tabs: minItems': { path: 'entry.data.tabs', adjust: (n) => ({ ...n, bounds: { ...n.bounds, minItems: 1 } }) },
};

function adjustFor(method: string): Adjust {
  const rules = Object.entries(STRICTER).filter(([prefix]) => prefix.startsWith(`${method} `));
  return (path, node) => rules.reduce((n, [, rule]) => (rule.path === path ? rule.adjust(n) : n), node);
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

describe('bodies made from the real version-3 request schemas, sent through the gateway', () => {
  it('follow only stricter gateway rules that the differences list gives a reason for', () => {
    expect(Object.keys(STRICTER).filter((prefix) => !KNOWN_DIFFERENCES.some((k) => k.prefix === prefix))).toEqual([]);
  });

  it('tell the gateway\'s refusal from the backend\'s: a body without what the spec requires never reaches the backend', async () => {
    const res = await rpc(stack.url, 'createCollection', { description: 'no title, no parentId' }, SPEC_VERSION, { [MARK]: 'self-check' });
    expect(res.body?.code).toBe('VALIDATION_ERROR');
    expect(stack.backend!.requests.some((r) => r.headers[MARK] === 'self-check')).toBe(false);
    const ok = await rpc(stack.url, 'getCollection', { collectionId: 'no-such-collection' }, SPEC_VERSION, { [MARK]: 'self-check-2' });
    expect(ok.status).toBe(404);
    expect(stack.backend!.requests.some((r) => r.headers[MARK] === 'self-check-2')).toBe(true);
  });

  for (const [version, names] of VERSIONS) {
    if (names === undefined) {
      it.skip(`at version ${version} [the real v2 operation schema index is not beside the repository]`, () => {});
      continue;
    }
    for (const method of names) {
      if (Object.hasOwn(EXCLUDED, method)) {
        it.skip(`${method} at ${version} [left out: ${EXCLUDED[method]}]`, () => {});
        continue;
      }
      let made: ReturnType<typeof bodiesOf>;
      try {
        made = bodiesOf(realRequest(method), adjustFor(method));
      } catch (error) {
        if (!(error instanceof NotExtracted)) throw error;
        it.skip(`${method} at ${version} [no body: ${error.message}, not extracted in v3-request-schemas.json]`, () => {});
        continue;
      }
      const { bodies, skipped } = made;
      const note = skipped.length === 0 ? '' : ` (${new Set(skipped).size} variations left out: not extracted)`;
      it(`${method} at ${version}: ${bodies.length} bodies, none refused by the gateway's validation${note}`, async () => {
        const refused: string[] = [];
        for (let start = 0; start < bodies.length; start += IN_FLIGHT) {
          await Promise.all(
            bodies.slice(start, start + IN_FLIGHT).map(async (body, i) => {
              const mark = `${version}-${method}-${start + i}`;
              const res = await rpc(stack.url, method, body.value, version, { [MARK]: mark });
              const reached = stack.backend!.requests.some((r) => r.headers[MARK] === mark);
              if (res.status === 400 && res.body?.code === 'VALIDATION_ERROR' && !reached) {
                refused.push(`${body.label}: ${JSON.stringify(res.body.details)}\n  sent ${JSON.stringify(body.value)}`);
              }
            }),
          );
        }
        expect(refused, refused.join('\n')).toEqual([]);
      }, 120_000);
    }
  }
});
