// Licences (tag Licensing): assigned, listed, and the limit set and read.
// Components: AssignLicensesArgs, License, GetLicensesArgs/Result, LicenseWithLastLogin, SetLicenseLimitArgs,
// LicenseLimits, LicenseLimit; getLicensesLimit takes no body.

import { z } from 'zod';
import { License, LicenseLimits, LicenseWithLastLogin, loose } from './components.js';
import type { Family } from './types.js';

export const licenceSteps: Family = [
  {
    method: 'assignLicenses',
    request: 'AssignLicensesArgs',
    response: 'License[]',
    body: () => ({ userIds: ['alice@example.com', 'bob@example.com'] }),
    answer: z.array(License),
  },
  {
    method: 'getLicenses',
    request: 'GetLicensesArgs',
    response: 'GetLicensesResult',
    body: () => ({ userIds: ['alice@example.com'], status: 'active', sortBy: 'createdAt', order: 'desc', limit: 50 }),
    answer: loose({ licenses: z.array(LicenseWithLastLogin), nextPageToken: z.string().optional() }),
  },
  {
    method: 'setLicenseLimit',
    request: 'SetLicenseLimitArgs',
    response: 'LicenseLimits',
    body: () => ({ value: 25 }),
    answer: LicenseLimits,
  },
  {
    method: 'getLicensesLimit',
    request: '(no body)',
    response: 'LicenseLimits',
    body: () => ({}),
    answer: LicenseLimits,
  },
];
