// Who calls what, for the impact report: recorded on the request path, read by the admin listener
// (src/adapters/impact/recorder.ts: in this process or shared through Redis).

import type { LoadedContract } from '../core/contract-model/load.js';
import type { ImpactStore } from '../core/impact/report.js';
import type { UsageLimits, UsageSnapshot } from '../core/impact/usage.js';

export interface ImpactRecorder {
  readonly store: ImpactStore;
  /** The watched request field paths present in a validated body (undefined when none is watched or present). */
  pathsIn(contract: LoadedContract, version: number, method: string, body: unknown): string[] | undefined;
  /** One call, at `at` (ms since the epoch). */
  record(client: string, version: number, method: string, at: number, paths: readonly string[] | undefined): void;
  /** The whole record (every replica's, with Redis); rejects when Redis cannot be read. */
  snapshot(): Promise<UsageSnapshot>;
  setLimits(limits: UsageLimits): void;
  /** When `client` was first seen calling `version` (every replica's record, with Redis); undefined: never; null: Redis cannot tell now. */
  firstSeenOn(client: string, version: number): Promise<number | undefined | null>;
  /** Writes what is pending (with Redis) and stops. */
  close(): Promise<void>;
}
