// One replayed call and its checks, shared by the HTTP replay suite and the MCP test: the documented refusal where
// the method is not at the version, else 200 with an answer the contract's response
// schema of that version accepts and that holds what a real client reads.

import { expect } from 'vitest';
import { z } from 'zod';
import { CONTRACT, specAt } from './contract.js';
import { NEWEST_FIXTURE_VERSION, beyondFixtures, upToHead } from './derive.js';
import type { Setup, Version } from './fixture.js';
import { FIXTURES } from './fixtures/index.js';

/** A version header a replay is sent with: a version the fixtures are written for, or `latest`. */
export type Header = `${number}` | 'latest';

export interface Answer {
  readonly status: number;
  readonly body: any;
}

/** The version a header names (`latest`: the head, which may be newer than any fixture version). */
export const resolve = (header: Header): number => (header === 'latest' ? CONTRACT.head : Number(header));

/** `send` makes the call as the client under test does; `setupAt` prepares objects at a version. */
export async function replay(method: string, header: Header, send: (body: unknown) => Promise<Answer>, setupAt: (at: Version) => Setup): Promise<void> {
  const at = resolve(header);
  const fixture = FIXTURES[method];
  if (fixture === undefined) throw new Error(`no replay fixture for ${method}: add one under test/replay/fixtures/`);
  const spec = specAt(at, method);
  const availableIn = CONTRACT.availableIn.get(method)!;
  // Where the method is absent, the body is the one its newest version takes (made at that version). At a version
  // newer than the fixtures, a method the newest fixture version has gets that version's body translated up.
  const derived = spec !== undefined && beyondFixtures(at) && specAt(NEWEST_FIXTURE_VERSION, method) !== undefined;
  const setup = setupAt((derived ? NEWEST_FIXTURE_VERSION : spec ? at : availableIn.at(-1)) as Version);
  const written = await fixture.body(setup);
  const body = derived ? await upToHead(method, NEWEST_FIXTURE_VERSION, written) : written;
  const answer = await send(body);
  const where = `${method} at ${header}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 600)}`;

  if (spec === undefined) {
    expect(answer.status, where).toBe(404);
    expect(answer.body, where).toMatchObject({ code: 'ENDPOINT_NOT_FOUND', details: { method, requestedVersion: at, availableIn: [...availableIn] } });
    return;
  }
  expect(answer.status, where).toBe(200);
  const parsed = spec.response.safeParse(answer.body);
  const issues = parsed.success ? [] : z.prettifyError(parsed.error).split('\n');
  expect(issues, `the version ${at} response schema refuses it (${issues.join(' ')}); ${where}`).toEqual([]);
  // What a client reads is written per version: a derived body's answer is held to the schema only.
  if (!derived) fixture.reads?.(answer.body, body, setup);
}
