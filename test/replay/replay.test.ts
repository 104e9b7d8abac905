// The replay suite: a real-shaped body for every method of every contract version, sent through a real gateway in
// front of the reference backend at every version the fixtures are written for and at latest; each call's status and answer shape checked
// (test/replay/expect-replay.ts). Bodies: test/replay/fixtures/, one module per family.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../helpers/stack.js';
import { ALL_METHODS } from './contract.js';
import { type Header, replay, resolve } from './expect-replay.js';
import { FIXTURE_VERSIONS } from './fixture.js';
import { FIXTURES } from './fixtures/index.js';
import { post, setupThrough } from './http.js';
import { knownDefect } from './known-defects.js';

describe('replay fixtures', () => {
  it('cover every method of every version, and only those', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual(ALL_METHODS);
  });
});

describe.each<Header>([...FIXTURE_VERSIONS.map((v) => `${v}` as const), 'latest'])('replayed at x-dl-api-version: %s', (header) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  for (const method of ALL_METHODS.filter((m) => Object.hasOwn(FIXTURES, m))) {
    const defect = knownDefect(method, resolve(header));
    const run = () => replay(method, header, (body) => post(stack.url, method, body, header), setupThrough(stack.url));
    if (defect === undefined) it(method, run);
    else it(`${method} fails as known: ${defect.what}`, () => expect(run()).rejects.toThrow(defect.shows));
  }
});
