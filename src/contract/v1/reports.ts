// Version 1 report methods: a report is addressed by its legacy folder `key`.

import { z } from 'zod';
import { fieldAdded, object, request } from '../../core/contract-model/builders.js';
import type { FieldAdded, MethodSpec } from '../../core/contract-model/types.js';

const reportObject = z.looseObject({
  id: z.string(),
  key: z.string().nullable(),
  config: z.record(z.string(), z.unknown()),
  description: z.string(),
  version: z.number().int(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
});
const reportId = z.string().min(1);
const config = z.record(z.string(), z.unknown());
const key = z.string().min(1).max(1024);

const located = [{ type: 'report', path: '' }] as const;

export const reportMethodsV1: Record<string, MethodSpec> = {
  createReport: {
    description: 'Creates a report stored under a folder key.',
    request: z.strictObject({ key, config, description: z.string().default('') }),
    response: reportObject,
    objects: located,
  },
  getReport: {
    description: 'Reads a report by id.',
    request: z.strictObject({ reportId }),
    response: reportObject,
    objects: located,
  },
  updateReport: {
    description: 'Changes a report: its key, config or description.',
    request: z.strictObject({ reportId, key: key.optional(), config: config.optional(), description: z.string().optional() }),
    response: reportObject,
    objects: located,
  },
  deleteReport: {
    description: 'Deletes a report.',
    request: z.strictObject({ reportId }),
    response: z.looseObject({ reportId: z.string(), deleted: z.boolean() }),
  },
};

/** Shipped while version 1 was current: compatible, so no bump; old requests and old reports get "". */
export const reportAdditionsV1: FieldAdded[] = [
  fieldAdded(request('createReport'), 'description', '', 'createReport accepts an optional `description` (default "").'),
  fieldAdded(object('report'), 'description', '', 'Reports carry a `description`; reports saved before it read as "".'),
];
