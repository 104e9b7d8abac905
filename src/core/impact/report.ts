// The per-client impact report: for each client, each version it calls, what of its use changes or disappears
// at each later version (from the contract's declared changes), and the day that version is sunset.

import { perCall } from './per-call.js';
import type { LoadedContract } from '../contract-model/load.js';
import { type Calendar, type CalendarRow, calendarRow, findEntry, statusAt, type VersionStatus } from '../lifecycle/calendar.js';
import { impactsAfter, type Impact } from './changes.js';
import { deprecationsFor } from './deprecations.js';
import { calendarDaysBetween } from './reading.js';
import type { UsageSnapshot } from './usage.js';

export interface ImpactFilters {
  readonly client?: string;
  readonly version?: number;
  readonly method?: string;
}

/** Where the record lives: this process only, or one Redis every replica writes to. */
export interface ImpactStore {
  readonly kind: 'memory' | 'redis';
  readonly note: string;
}

export interface AffectedUse {
  /** The version that brings the change. */
  readonly version: number;
  readonly method: string;
  readonly scope: Impact['scope'];
  readonly path?: string;
  readonly kind: string;
  readonly description: string;
  /** Calls that met it (every call of the method, or the calls that sent the field). */
  readonly calls: number;
}

/** A deprecation inside the client's version that its calls use (the method, or a field it sent). */
export interface DeprecatedUse {
  readonly method: string;
  readonly path?: string;
  readonly since: string;
  readonly replacement: string;
  readonly description: string;
  /** Recorded calls that used it (of the method, or that sent the field). */
  readonly calls: number;
}

export interface MethodUse {
  readonly method: string;
  readonly calls: number;
  readonly firstSeen: string;
  readonly lastSeen: string;
  readonly paths: Readonly<Record<string, number>>;
}

export interface VersionUse {
  readonly version: number;
  readonly status: VersionStatus | 'unknown';
  readonly sunsetAt: string | null;
  /** Calendar days (UTC) from the report's day to the sunset's: 0 on the day, negative once past; null without one. */
  readonly daysToSunset: number | null;
  readonly calls: number;
  readonly methods: readonly MethodUse[];
  /** What changes or disappears for this client at each later version, oldest version first. */
  readonly affected: readonly AffectedUse[];
  /** What it uses that is deprecated inside this version (still served). */
  readonly deprecated: readonly DeprecatedUse[];
}

export interface ClientImpact {
  readonly client: string;
  readonly firstSeen: string;
  readonly lastSeen: string;
  readonly callsPerDay: Readonly<Record<string, number>>;
  readonly versions: readonly VersionUse[];
}

export interface ImpactReport {
  readonly generatedAt: string;
  readonly store: ImpactStore;
  readonly filters: ImpactFilters;
  readonly calendar: readonly CalendarRow[];
  readonly dropped: UsageSnapshot['dropped'];
  readonly clients: readonly ClientImpact[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The report at `now` over a snapshot of the record, narrowed by the filters (client, version, method). */
export function buildImpactReport(
  loaded: LoadedContract,
  calendar: Calendar,
  now: Date,
  usage: UsageSnapshot,
  store: ImpactStore,
  filters: ImpactFilters = {},
): ImpactReport {
  const clients: ClientImpact[] = [];
  for (const record of usage.clients) {
    if (filters.client !== undefined && record.client !== filters.client) continue;
    const byVersion = usesByVersion(record.uses, filters);
    if (byVersion.size === 0) continue;
    const versions = [...byVersion.entries()].sort((a, b) => a[0] - b[0]).map(([version, uses]) => versionUse(loaded, calendar, now, version, uses));
    clients.push({ client: record.client, firstSeen: iso(record.firstSeen), lastSeen: iso(record.lastSeen), callsPerDay: record.days, versions });
  }
  // The clients on the oldest version first: they are the nearest to breaking.
  clients.sort((a, b) => (a.versions[0]?.version ?? 0) - (b.versions[0]?.version ?? 0) || a.client.localeCompare(b.client));
  return {
    generatedAt: now.toISOString(),
    store,
    filters,
    calendar: calendar.entries.map((e) => calendarRow(e, now)),
    dropped: usage.dropped,
    clients,
  };
}

type Use = UsageSnapshot['clients'][number]['uses'][number];

/** One client's uses that pass the version and method filters, by version. */
function usesByVersion(uses: readonly Use[], filters: ImpactFilters): Map<number, Use[]> {
  const byVersion = new Map<number, Use[]>();
  for (const use of uses) {
    if (filters.version !== undefined && use.version !== filters.version) continue;
    if (filters.method !== undefined && use.method !== filters.method) continue;
    const list = byVersion.get(use.version) ?? [];
    list.push(use);
    byVersion.set(use.version, list);
  }
  return byVersion;
}

/** What one client does at one version: its calls by method, what later versions change of them, what is deprecated. */
function versionUse(loaded: LoadedContract, calendar: Calendar, now: Date, version: number, uses: readonly Use[]): VersionUse {
  const entry = findEntry(calendar, version);
  const affected: AffectedUse[] = [];
  const deprecated: DeprecatedUse[] = [];
  for (const use of uses) {
    for (const impact of impactsAfter(loaded, version, use.method)) {
      const calls = impact.scope === 'request' ? (use.paths[impact.path as string] ?? 0) : use.calls;
      if (calls > 0) affected.push({ ...impact, calls });
    }
  }
  affected.sort((a, b) => a.version - b.version || a.method.localeCompare(b.method));
  for (const use of uses) {
    for (const d of deprecationsFor(loaded, version, use.method)) {
      const calls = d.path === undefined ? use.calls : (use.paths[d.path] ?? 0);
      if (calls > 0) {
        deprecated.push({ method: d.method, ...(d.path !== undefined && { path: d.path }), since: d.since, replacement: d.replacement, description: d.description, calls });
      }
    }
  }
  return {
    version,
    status: entry ? statusAt(entry, now) : 'unknown',
    sunsetAt: entry?.sunsetAt?.toISOString() ?? null,
    daysToSunset: entry?.sunsetAt ? calendarDaysBetween(now, entry.sunsetAt) : null,
    calls: uses.reduce((n, u) => n + u.calls, 0),
    methods: uses
      .map((u) => ({ method: u.method, calls: u.calls, firstSeen: iso(u.firstSeen), lastSeen: iso(u.lastSeen), paths: u.paths }))
      .sort((a, b) => a.method.localeCompare(b.method)),
    affected,
    deprecated,
  };
}

/** The request field paths worth watching in a call of `method` at `version`: those a later version changes, and the deprecated ones. */
export const watchedPaths = perCall((loaded, version, method): readonly string[] => {
  const changing = impactsAfter(loaded, version, method).flatMap((i) => (i.path === undefined ? [] : [i.path]));
  const deprecated = deprecationsFor(loaded, version, method).flatMap((d) => (d.path === undefined ? [] : [d.path]));
  return Object.freeze([...new Set([...changing, ...deprecated])]);
});
