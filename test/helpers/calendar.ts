// The shipped contract's versions and head, and calendars built from them for tests and the bench: a version
// added to the contract joins every test and bench calendar without an edit here.

import { shippedContract } from '../../src/contract/index.js';
import { loadContract } from '../../src/core/contract-model/load.js';

const loaded = loadContract(shippedContract);

/** The shipped contract's versions, ascending. */
export const VERSIONS: readonly number[] = loaded.versions;
/** The newest version: what the gateway forwards and the reference backend speaks. */
export const HEAD: number = loaded.head;

const DAY_MS = 86_400_000;

export interface CalendarVersion {
  readonly version: number;
  readonly released: string;
  readonly migrationGuide?: string;
}

export interface ContractCalendar {
  readonly supportWindowDays: number;
  readonly versions: CalendarVersion[];
}

/**
 * A lifecycle section listing every version of the contract: the first released at `first`, the head at
 * `head`, any between a day apart just before the head (so every older version is still served for the
 * window after the head's release); every older version links a migration guide.
 */
export function contractCalendar(dates: { first: string; head: string; supportWindowDays: number }): ContractCalendar {
  const released = (version: number): string => {
    if (version === VERSIONS[0]) return dates.first;
    if (version === HEAD) return dates.head;
    return new Date(Date.parse(dates.head) - (HEAD - version) * DAY_MS).toISOString();
  };
  return {
    supportWindowDays: dates.supportWindowDays,
    versions: VERSIONS.map((version) => ({
      version,
      released: released(version),
      ...(version !== HEAD && { migrationGuide: `https://example.com/migrate-v${version}-to-v${version + 1}` }),
    })),
  };
}

/** When `version` is released under `calendar`, as a Date. */
export function releaseOf(calendar: ContractCalendar, version: number): Date {
  const entry = calendar.versions.find((v) => v.version === version);
  if (!entry) throw new Error(`version ${version} is not in the calendar`);
  return new Date(entry.released);
}

/** When `version` is deprecated under `calendar` (the next version's release), as an RFC 9745 sf-date (`@<seconds>`). */
export function deprecationSfDate(calendar: ContractCalendar, version: number): string {
  return `@${releaseOf(calendar, version + 1).getTime() / 1000}`;
}

/** When `version` stops being served under `calendar` (the next version's release + the window), as a Date. */
export function sunsetOf(calendar: ContractCalendar, version: number): Date {
  const next = calendar.versions.find((v) => v.version === version + 1);
  if (!next) throw new Error(`version ${version} is the newest: it has no sunset`);
  return new Date(Date.parse(next.released) + calendar.supportWindowDays * DAY_MS);
}
