// Which notices are due: for each client with a webhook still calling a deprecated version, one when it is first
// seen there, and one at the nearest configured lead time before the sunset that has been reached. Plain data
// from the impact report; sending, signing and deduplication are src/adapters/impact/notices.ts's.

import type { AffectedUse, DeprecatedUse, ImpactReport } from './report.js';

export interface NoticeBody {
  /** Stable per client, version and occasion: the receiver's deduplication key. */
  readonly id: string;
  readonly type: 'deprecated-version-first-call' | 'sunset-approaching';
  readonly client: string;
  readonly version: number;
  readonly sunsetAt: string;
  readonly daysToSunset: number;
  /** The lead time this notice is for (days before the sunset); absent for the first-call notice. */
  readonly leadDays?: number;
  readonly migrationGuide: string | null;
  /** The version to move to: the newest released one. */
  readonly latestVersion: number | null;
  /** What the client uses that changes or disappears at each later version. */
  readonly changes: readonly AffectedUse[];
  /** What it uses that is deprecated inside its version. */
  readonly deprecated: readonly DeprecatedUse[];
  readonly createdAt: string;
}

export interface DueNotice {
  readonly client: string;
  readonly url: string;
  readonly body: NoticeBody;
}

const DAY_MS = 86_400_000;

/** The notices due at `now` for the clients `webhooks` maps to a URL (client id as the report names it → URL). */
export function dueNotices(report: ImpactReport, webhooks: Readonly<Record<string, string>>, leadDays: readonly number[], now: Date): DueNotice[] {
  const due: DueNotice[] = [];
  const latest = [...report.calendar].reverse().find((c) => c.status === 'current')?.version ?? null;
  for (const client of report.clients) {
    const url = Object.hasOwn(webhooks, client.client) ? webhooks[client.client] : undefined;
    if (!url) continue;
    for (const v of client.versions) {
      if (v.status !== 'deprecated' || !v.sunsetAt) continue;
      const entry = report.calendar.find((c) => c.version === v.version);
      const daysLeft = (Date.parse(v.sunsetAt) - now.getTime()) / DAY_MS;
      const base = {
        client: client.client,
        version: v.version,
        sunsetAt: v.sunsetAt,
        daysToSunset: Math.floor(daysLeft),
        migrationGuide: entry?.migrationGuide ?? null,
        latestVersion: latest,
        changes: v.affected,
        deprecated: v.deprecated,
        createdAt: now.toISOString(),
      };
      due.push({ client: client.client, url, body: { ...base, id: `${client.client}|v${v.version}|first-call`, type: 'deprecated-version-first-call' } });
      // Only the nearest lead time reached: a client first seen 20 days before the sunset gets the 30-day notice, not the 90-day one too.
      const reached = leadDays.filter((lead) => daysLeft <= lead);
      if (reached.length) {
        const lead = Math.min(...reached);
        due.push({ client: client.client, url, body: { ...base, id: `${client.client}|v${v.version}|lead-${lead}`, type: 'sunset-approaching', leadDays: lead } });
      }
    }
  }
  return due;
}
