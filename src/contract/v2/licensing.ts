// Version 2, licences: assign creator licences to users, list them, and read or set the organisation's limit.
// Source: the real spec (spec-source.ts), components AssignLicensesArgs, GetLicensesArgs, GetLicensesResult,
// License, LicenseWithLastLogin, LicenseLimit, LicenseLimits, SetLicenseLimitArgs; /rpc/assignLicenses answers License[].

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, method, open, record, strict } from '../datalens/common.js';

/** License. */
export const license = answer({
  licenseId: z.string(),
  meta: record,
  tenantId: z.string(),
  userId: z.string(),
  licenseType: z.enum(['creator']),
  isActive: z.boolean(),
  expiresAt: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedBy: z.string(),
  updatedAt: z.string(),
});

/** LicenseLimit: null when no limit is set (current) or none is scheduled (next). */
const licenseLimit = answer({
  type: z.enum(['regular', 'forced']),
  value: z.number(),
  startedAt: z.string(),
  activeLicensesCount: z.number().nullable(),
}).nullable();

/** LicenseLimits. */
const licenseLimits = answer({ current: licenseLimit, next: licenseLimit });

const userIds = z.array(z.string()).max(1000);

export const licensingMethods: Record<string, MethodSpec> = {
  // AssignLicensesArgs (open) → License[]
  assignLicenses: method('Assigns creator licences to the given users.', open({ userIds: userIds.min(1) }), z.array(license)),
  // GetLicensesArgs (additionalProperties: false) → GetLicensesResult
  getLicenses: method(
    'Lists the organisation’s licences, filtered by user and status, one page at a time (follow nextPageToken).',
    strict({
      limit: z.number().min(1).max(200).optional(),
      order: z.enum(['asc', 'desc']).optional(),
      pageToken: z.string().optional(),
      sortBy: z.enum(['createdAt', 'updatedAt']).optional(),
      status: z.enum(['active', 'expired', 'expiring']).optional(),
      userIds: userIds.optional(),
    }),
    answer({ licenses: z.array(license.extend({ lastLoginAt: z.string().nullable() })), nextPageToken: z.string().optional() }),
    { emptyBody: true },
  ),
  // No arguments → LicenseLimits
  getLicensesLimit: method('Returns the current and the next licence limit.', open({}), licenseLimits, { emptyBody: true }),
  // SetLicenseLimitArgs (open) → LicenseLimits
  setLicenseLimit: method('Sets the licence limit (1 to 10 000).', open({ value: z.number().min(1).max(10_000) }), licenseLimits),
};
