// Resolves a request's x-dl-api-version against the calendar at an instant: the version to serve, or the error.

import { GatewayError } from '../errors.js';
import { brownoutAt, type Calendar, type CalendarEntry, findEntry, latestAt, statusAt, supportedAt } from '../lifecycle/calendar.js';
import { parseVersionHeader } from './parse-header.js';

export interface ResolvedVersion {
  readonly version: number;
  readonly entry: CalendarEntry;
  readonly deprecated: boolean;
  /** Set when an unreleased version is served by preview access: the calendar's name of the client let in. */
  readonly preview?: string;
}

/** Who is asking, as the calendar's preview lists name clients (`org:<id>`, `cred:<12 hex>`); asked only for an unreleased version. */
export interface PreviewCaller {
  previewIds(): readonly string[];
}

const REASONS = {
  missing: 'the x-dl-api-version header is required',
  malformed: 'x-dl-api-version must be a positive whole number in decimal (1, 01 and 1.0 all name version 1), or exactly "latest"',
  multiple: 'x-dl-api-version must be sent once, with a single value',
  unknown: 'no such API version',
  unreleased: 'this API version is not released yet',
} as const;

export function versionErrorDetails(calendar: Calendar, now: Date): { supported: number[]; latest: number | null } {
  return { supported: supportedAt(calendar, now), latest: latestAt(calendar, now)?.version ?? null };
}

/**
 * `roll` is a number in [0, 1) drawn per request for share-based brownouts; the caller supplies it
 * (Math.random at the edge, fixed values in tests) so this stays a pure function. `caller` is asked who it is only
 * when the version asked for by number is unreleased and lists preview clients.
 */
export function resolveVersion(
  raw: string | readonly string[] | undefined,
  calendar: Calendar,
  now: Date,
  roll = 1,
  caller?: PreviewCaller,
): ResolvedVersion {
  const parsed = parseVersionHeader(raw);
  const refuse = (reason: keyof typeof REASONS, received?: string): never => {
    throw new GatewayError('INVALID_API_VERSION_HEADER', REASONS[reason], {
      reason,
      ...(received !== undefined && { received }),
      ...versionErrorDetails(calendar, now),
    });
  };
  if (!parsed.ok) return refuse(parsed.reason, parsed.received);

  const entry = parsed.requested === 'latest' ? latestAt(calendar, now) : findEntry(calendar, parsed.requested);
  if (!entry) return refuse(parsed.requested === 'latest' ? 'unreleased' : 'unknown', parsed.received);

  const status = statusAt(entry, now);
  if (status === 'unreleased') {
    // `latest` never resolves to an unreleased version, so preview access is always asked for by number.
    const listed = entry.preview;
    const preview = listed && caller ? caller.previewIds().find((id) => listed.includes(id)) : undefined;
    if (preview === undefined) return refuse('unreleased', String(entry.version));
    return { version: entry.version, entry, deprecated: false, preview };
  }
  if (status === 'sunset') {
    const latest = latestAt(calendar, now)?.version;
    const guide = entry.migrationGuide ? ` (migration guide: ${entry.migrationGuide})` : '';
    throw new GatewayError('API_VERSION_SUNSET', `API version ${entry.version} was sunset on ${entry.sunsetAt?.toISOString()}; use version ${latest}${guide}`, {
      version: entry.version,
      sunset: entry.sunsetAt?.toISOString(),
      migrationGuide: entry.migrationGuide ?? null,
      ...versionErrorDetails(calendar, now),
    });
  }
  const brownout = brownoutAt(entry, now, roll);
  if (brownout) {
    throw new GatewayError(
      'API_VERSION_SUNSET',
      `API version ${entry.version} is deprecated and temporarily switched off (a brownout) to warn of its sunset on ${entry.sunsetAt?.toISOString()}; migrate to version ${latestAt(calendar, now)?.version}`,
      {
        version: entry.version,
        brownout: true,
        migrationGuide: entry.migrationGuide ?? null,
        ...(brownout.window && { brownoutEnds: brownout.window.end.toISOString() }),
        ...(brownout.share !== undefined && { brownoutShare: brownout.share }),
        sunset: entry.sunsetAt?.toISOString(),
        ...versionErrorDetails(calendar, now),
      },
    );
  }
  return { version: entry.version, entry, deprecated: status === 'deprecated' };
}
