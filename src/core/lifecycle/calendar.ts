// The version calendar: each version's release, deprecation and sunset instants, and its status at t.

export type VersionStatus = 'unreleased' | 'current' | 'deprecated' | 'sunset';

export interface CalendarEntry {
  readonly version: number;
  readonly releasedAt: Date;
  /** The next version's release: from then on this version is deprecated. Undefined for the newest. */
  readonly deprecatedAt?: Date;
  /** Explicit sunset, or deprecation + support window. Undefined while no next version is scheduled. */
  readonly sunsetAt?: Date;
  readonly migrationGuide?: string;
  /** Windows during which the version, once deprecated, answers 410 as if sunset. */
  readonly brownouts: readonly BrownoutWindow[];
  /** Share of requests refused while deprecated (0 = none). */
  readonly brownoutShare: number;
  /** Clients (`org:<id>`, `cred:<12 hex>`) that may call this version before its release; absent: none. */
  readonly preview?: readonly string[];
}

export interface BrownoutWindow {
  readonly start: Date;
  readonly end: Date;
}

export interface Calendar {
  /** Ascending by version. */
  readonly entries: readonly CalendarEntry[];
}

export interface VersionPlan {
  readonly version: number;
  readonly releasedAt: Date;
  readonly sunsetAt?: Date;
  readonly migrationGuide?: string;
  readonly brownouts?: readonly BrownoutWindow[];
  readonly brownoutShare?: number;
  readonly preview?: readonly string[];
}

const DAY_MS = 86_400_000;

/** Builds the calendar from per-version plans; throws with a message naming the version on an impossible calendar. */
export function buildCalendar(plans: readonly VersionPlan[], supportWindowDays: number): Calendar {
  const sorted = [...plans].sort((a, b) => a.version - b.version);
  const entries = sorted.map((plan, i): CalendarEntry => {
    const next = sorted[i + 1];
    if (next && next.releasedAt.getTime() <= plan.releasedAt.getTime()) {
      throw new Error(`version ${next.version} must be released after version ${plan.version}`);
    }
    const deprecatedAt = next?.releasedAt;
    const sunsetAt = plan.sunsetAt ?? (deprecatedAt && new Date(deprecatedAt.getTime() + supportWindowDays * DAY_MS));
    if ((plan.brownouts?.length || plan.brownoutShare) && !deprecatedAt) {
      throw new Error(`version ${plan.version} has brownouts but no later version deprecates it`);
    }
    if (plan.sunsetAt && !deprecatedAt) {
      throw new Error(`version ${plan.version} has a sunset date but no later version replaces it`);
    }
    if (sunsetAt && deprecatedAt && sunsetAt.getTime() < deprecatedAt.getTime()) {
      throw new Error(
        `version ${plan.version}: sunset ${sunsetAt.toISOString()} is before its deprecation ${deprecatedAt.toISOString()} (the release of version ${next?.version})`,
      );
    }
    return Object.freeze({
      version: plan.version,
      releasedAt: plan.releasedAt,
      ...(deprecatedAt && { deprecatedAt }),
      ...(sunsetAt && { sunsetAt }),
      ...(plan.migrationGuide && { migrationGuide: plan.migrationGuide }),
      brownouts: Object.freeze([...(plan.brownouts ?? [])]),
      brownoutShare: plan.brownoutShare ?? 0,
      ...(plan.preview?.length && { preview: Object.freeze([...plan.preview]) }),
    });
  });
  return Object.freeze({ entries: Object.freeze(entries) });
}

export function statusAt(entry: CalendarEntry, now: Date): VersionStatus {
  const t = now.getTime();
  if (t < entry.releasedAt.getTime()) return 'unreleased';
  if (entry.sunsetAt && t >= entry.sunsetAt.getTime()) return 'sunset';
  if (entry.deprecatedAt && t >= entry.deprecatedAt.getTime()) return 'deprecated';
  return 'current';
}

/** A version's dates and status as the gateway's JSON documents give them (/versions, the impact report). */
export interface CalendarRow {
  readonly version: number;
  readonly status: VersionStatus;
  readonly releasedAt: string;
  readonly deprecatedAt: string | null;
  readonly sunsetAt: string | null;
  readonly migrationGuide: string | null;
}

export function calendarRow(entry: CalendarEntry, now: Date): CalendarRow {
  return {
    version: entry.version,
    status: statusAt(entry, now),
    releasedAt: entry.releasedAt.toISOString(),
    deprecatedAt: entry.deprecatedAt?.toISOString() ?? null,
    sunsetAt: entry.sunsetAt?.toISOString() ?? null,
    migrationGuide: entry.migrationGuide ?? null,
  };
}

export function findEntry(calendar: Calendar, version: number): CalendarEntry | undefined {
  return calendar.entries.find((e) => e.version === version);
}

/** The newest version released at `now`, or undefined before the first release. */
export function latestAt(calendar: Calendar, now: Date): CalendarEntry | undefined {
  let latest: CalendarEntry | undefined;
  for (const entry of calendar.entries) {
    if (entry.releasedAt.getTime() <= now.getTime()) latest = entry;
  }
  return latest;
}

/** Versions a client may use at `now`: released and not past sunset. */
export function supportedAt(calendar: Calendar, now: Date): number[] {
  return calendar.entries
    .filter((e) => {
      const s = statusAt(e, now);
      return s === 'current' || s === 'deprecated';
    })
    .map((e) => e.version);
}

/** The brownout in force for a deprecated version at `now`: a scheduled window, or the share drawn by `roll` (0..1). */
export function brownoutAt(entry: CalendarEntry, now: Date, roll: number): { window?: BrownoutWindow; share?: number } | undefined {
  if (statusAt(entry, now) !== 'deprecated') return undefined;
  const t = now.getTime();
  const window = entry.brownouts.find((w) => t >= w.start.getTime() && t < w.end.getTime());
  if (window) return { window };
  if (entry.brownoutShare > 0 && roll < entry.brownoutShare) return { share: entry.brownoutShare };
  return undefined;
}
