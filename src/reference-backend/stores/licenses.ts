// Creator licences, one per user, and the organisation's licence limit (the current one and a scheduled next one).
// Shapes: the real spec's License and LicenseLimit components (src/contract/v2/licensing.ts).

import { randomUUID } from 'node:crypto';
import { TENANT_ID, now } from './guard.js';

export interface License {
  readonly licenseId: string;
  readonly meta: Record<string, unknown>;
  readonly tenantId: string;
  readonly userId: string;
  readonly licenseType: 'creator';
  isActive: boolean;
  expiresAt: string;
  readonly createdBy: string;
  readonly createdAt: string;
  updatedBy: string;
  updatedAt: string;
}

export interface LicenseLimit {
  readonly type: 'regular' | 'forced';
  readonly value: number;
  readonly startedAt: string;
}

/** How long an assigned licence lasts. */
const LICENSE_DAYS = 365;
/** A licence expiring within this many days lists as `expiring`. */
export const EXPIRING_DAYS = 30;
const DAY_MS = 86_400_000;

export class LicenseStore {
  private readonly byUser = new Map<string, License>();
  private limit: LicenseLimit | null = null;

  /** Assigns (or renews) each user's licence; refuses when the limit would be passed. Returns the users' licences. */
  assign(userIds: readonly string[], actor: string): { ok: true; licenses: License[] } | { ok: false; needed: number; limit: number } {
    const unique = [...new Set(userIds)];
    const added = unique.filter((u) => this.byUser.get(u)?.isActive !== true).length;
    if (this.limit !== null && this.activeCount() + added > this.limit.value) return { ok: false, needed: this.activeCount() + added, limit: this.limit.value };
    const at = now();
    const expiresAt = new Date(Date.parse(at) + LICENSE_DAYS * DAY_MS).toISOString();
    return {
      ok: true,
      licenses: unique.map((userId) => {
        const held = this.byUser.get(userId);
        if (held !== undefined) {
          Object.assign(held, { isActive: true, expiresAt, updatedBy: actor, updatedAt: at });
          return held;
        }
        const license: License = {
          licenseId: `lic_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
          meta: {},
          tenantId: TENANT_ID,
          userId,
          licenseType: 'creator',
          isActive: true,
          expiresAt,
          createdBy: actor,
          createdAt: at,
          updatedBy: actor,
          updatedAt: at,
        };
        this.byUser.set(userId, license);
        return license;
      }),
    };
  }

  /** Every licence, in assignment order. */
  all(): License[] {
    return [...this.byUser.values()];
  }

  activeCount(): number {
    return this.all().filter((l) => l.isActive && Date.parse(l.expiresAt) > Date.now()).length;
  }

  getLimit(): LicenseLimit | null {
    return this.limit;
  }

  setLimit(value: number): LicenseLimit {
    this.limit = { type: 'regular', value, startedAt: now() };
    return this.limit;
  }
}
