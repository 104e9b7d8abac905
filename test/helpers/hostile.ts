// Shared pieces of the hostile-input suites (test/hostile): tight limits, a tap on what the reference backend
// received (uncapped, unlike backend.requests), and the follow-up check that the gateway still serves normally.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { within } from './raw-socket.js';
import { type Stack, rpc, startStack } from './stack.js';

/** The limits the hostile suites run under (small, so that limits are reached with small inputs). */
export const HOSTILE_LIMITS = { bodyBytes: 4096, jsonDepth: 32, requestTimeoutMs: 1500, headersTimeoutMs: 1000 } as const;

/**
 * Node checks headersTimeout/requestTimeout every connectionsCheckingInterval (1 s in src/edge/server/public-server.ts), so a stalled
 * client is cut between the timeout and the timeout + 1 s; this margin adds scheduling slack on top.
 */
export const CHECK_INTERVAL_MARGIN_MS = 1_000 + 750;

/** The deadline of an ordinary request in these suites. */
export const REQUEST_DEADLINE_MS = 5_000;

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** Filled in when the body has fully arrived. */
  body: string;
}

export interface BackendTap {
  /** Every request the backend's HTTP server parsed, oldest first (including ones it refused). */
  readonly seen: readonly SeenRequest[];
  /** How many requests the backend has seen; pass it to `since` later. */
  mark(): number;
  since(mark: number): SeenRequest[];
  stop(): void;
}

/** Listens on the backend's server for every request it parses (not capped at 1000 like backend.requests). */
export function tapBackend(stack: Stack): BackendTap {
  const server = stack.backend?.server;
  if (!server) throw new Error('tapBackend needs a stack with the reference backend');
  const seen: SeenRequest[] = [];
  const onRequest = (req: IncomingMessage) => {
    const entry: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body: '' };
    seen.push(entry);
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      entry.body = Buffer.concat(parts).toString('utf8');
    });
  };
  server.on('request', onRequest);
  return {
    seen,
    mark: () => seen.length,
    since: (mark) => seen.slice(mark),
    stop: () => void server.off('request', onRequest),
  };
}

/** Creates a report through the gateway at v1 (readable at v1 and v2); answers its id. */
export async function createV1Report(stack: Stack, key: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await within(REQUEST_DEADLINE_MS, rpc(stack.url, 'createReport', { key, config: { n: 1 }, ...extra }, '1'));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

/** The gateway still answers normally: a v1 and a v2 read of a known report succeed within the deadline. */
export async function expectStillServing(stack: Stack, reportId: string): Promise<void> {
  const v1 = await within(REQUEST_DEADLINE_MS, rpc(stack.url, 'getReport', { reportId }, '1'), 'follow-up v1 read');
  expect(v1.status, JSON.stringify(v1.body)).toBe(200);
  expect(v1.body.id).toBe(reportId);
  const v2 = await within(REQUEST_DEADLINE_MS, rpc(stack.url, 'getReport', { reportId }, '2'), 'follow-up v2 read');
  expect(v2.status, JSON.stringify(v2.body)).toBe(200);
  expect(v2.body.id).toBe(reportId);
}

/** A bare 4xx written by Node's HTTP parser (no problem body): what a malformed request gets before the gateway runs. */
export function expectNodeRefusal(res: { status: number } | undefined, statuses: readonly number[] = [400]): void {
  expect(res, 'a response from the server').toBeDefined();
  expect(statuses).toContain(res!.status);
}

export interface HostileStack {
  readonly stack: Stack;
  readonly tap: BackendTap;
  /** A report written at v1 under the suite's key: follow-up reads use it. */
  readonly reportId: string;
}

/**
 * The fixture every hostile suite shares: a stack under HOSTILE_LIMITS with a tap on the backend and a v1
 * report, torn down after the suite, and after each case a check that the gateway still serves normally.
 * `ready` receives the pieces once they exist (suites keep them in module variables).
 */
export function useHostileStack(legacyKey: string, ready: (pieces: HostileStack) => void): void {
  let pieces: HostileStack | undefined;
  beforeAll(async () => {
    const stack = await startStack({ config: { limits: HOSTILE_LIMITS } });
    const tap = tapBackend(stack);
    pieces = { stack, tap, reportId: await createV1Report(stack, legacyKey) };
    ready(pieces);
  });
  afterAll(async () => {
    pieces?.tap.stop();
    await pieces?.stack.close();
  });
  // No case may take the gateway down or wedge it: a normal v1 and v2 read succeed after each one.
  afterEach(async () => {
    if (pieces) await expectStillServing(pieces.stack, pieces.reportId);
  });
}
