// A deprecated version closed to new clients (lifecycle.versions[].refuseNewClients): a client the impact record
// did not see on it before its deprecation gets a 400 naming the versions it may use; the others keep working.

import type { GatewayConfig } from '../../config/schema.js';
import { GatewayError } from '../../core/errors.js';
import { type Calendar, type CalendarEntry, latestAt, statusAt, supportedAt } from '../../core/lifecycle/calendar.js';
import type { ImpactRecorder } from '../../ports/impact.js';

/** Whether the config closes `version` to new clients once it is deprecated. */
export function closedToNewClients(config: GatewayConfig, version: number): boolean {
  return config.lifecycle.versions.some((v) => v.version === version && v.refuseNewClients);
}

/**
 * Resolves when `client` may call the deprecated `entry`: it was first seen on it before the deprecation. Without a
 * record, or while the shared one (Redis) cannot answer, nobody can be told apart, so everyone is let in.
 */
export async function admit(
  impact: ImpactRecorder | undefined,
  config: GatewayConfig,
  calendar: Calendar,
  entry: CalendarEntry,
  client: string,
  now: Date,
): Promise<void> {
  if (!impact || !entry.deprecatedAt) return;
  const first = await impact.firstSeenOn(client, entry.version);
  if (first === null || (first !== undefined && first < entry.deprecatedAt.getTime())) return;
  // The versions it may use: every supported one but the deprecated versions closed to new clients.
  const open = supportedAt(calendar, now).filter((v) => {
    const e = calendar.entries.find((c) => c.version === v);
    return !(e && statusAt(e, now) === 'deprecated' && closedToNewClients(config, v));
  });
  const since = entry.deprecatedAt.toISOString().slice(0, 10);
  throw new GatewayError(
    'INVALID_API_VERSION_HEADER',
    `API version ${entry.version} is deprecated since ${since} and closed to clients that did not use it before then; use version ${open.join(' or ')}`,
    { reason: 'closedToNewClients', received: String(entry.version), supported: open, latest: latestAt(calendar, now)?.version ?? null },
  );
}
