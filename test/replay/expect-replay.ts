// One replayed call and its checks, shared by the HTTP replay suite and the MCP test: the documented refusal where
// the method is not at the version, else 200 with an answer the contract's response
// schema of that version accepts and that holds what a real client reads.

import { expect } from 'vitest';
import { z } from 'zod';
import { CONTRACT, specAt } from './contract.js';
import type { Setup, Version } from './fixture.js';
import { FIXTURES } from './fixtures/index.js';

export type Header = '1' | '2' | 'latest';

export interface Answer {
  readonly status: number;
  readonly body: any;
}

export const resolve = (header: Header): Version => (header === 'latest' ? CONTRACT.head : Number(header)) as Version;

/** `send` makes the call as the client under test does; `setupAt` prepares objects at a version. */
export async function replay(method: string, header: Header, send: (body: unknown) => Promise<Answer>, setupAt: (at: Version) => Setup): Promise<void> {
  const at = resolve(header);
  const fixture = FIXTURES[method];
  if (fixture === undefined) throw new Error(`no replay fixture for ${method}: add one under test/replay/fixtures/`);
  const spec = specAt(at, method);
  const availableIn = CONTRACT.availableIn.get(method)!;
  // Where the method is absent, the body is the one its newest version takes (made at that version).
  const setup = setupAt(spec ? at : (availableIn.at(-1) as Version));
  const body = await fixture.body(setup);
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
  fixture.reads?.(answer.body, body, setup);
}
