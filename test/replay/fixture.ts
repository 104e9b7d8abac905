// What a replay fixture is: the body a real DataLens client sends for one method, and what that client reads back.

/**
 * The versions the fixtures are written for. A newer contract version (one just added) is replayed with the newest
 * of these bodies translated up by the contract (test/replay/derive.ts) until its fixtures give it bodies of its own.
 */
export const FIXTURE_VERSIONS = [1, 2, 3] as const;
/** A contract version a fixture can be asked for. */
export type Version = (typeof FIXTURE_VERSIONS)[number];

/** Calls made while preparing a body (objects to read, update or delete), at the version under test. */
export interface Setup {
  /** The version the replayed call is sent at. */
  readonly at: Version;
  /** POSTs `method` through the gateway at `at`; the answer must be 200, and is returned parsed. */
  ok(method: string, body: unknown): Promise<any>;
}

export interface Replay {
  /** The real-shaped body (`undefined`: no body at all, as real clients call argument-less methods). */
  body(setup: Setup): unknown | Promise<unknown>;
  /** What a real client reads from a successful answer, checked beyond the contract's response schema. */
  reads?(answer: any, sent: any, setup: Setup): void;
}

export type Fixtures = Readonly<Record<string, Replay>>;

/** A unique suffix per call, so names and keys made by fixtures never collide. */
let seq = 0;
export const unique = (prefix: string): string => `${prefix}-${++seq}`;
