// Version 2, reports: `key` is removed; a report belongs to a workbook (`workbookId`).
// A v1 key is translated through the operator's folder prefixes or a backend lookup, and kept on the
// report as `legacyKey` so that a v1 read returns the key it was written with.

import { z } from 'zod';
import { custom, object, omit, request } from '../../core/contract-model/builders.js';
import { GatewayError } from '../../core/errors.js';
import type { LegacyKeyResolution } from '../../core/contract-model/services.js';
import type { CustomChange, Json, MethodSpec, MigrationContext } from '../../core/contract-model/types.js';
import { reportMethodsV1 } from '../v1/reports.js';

const reportObject = z.looseObject({
  id: z.string(),
  workbookId: z.string(),
  config: z.record(z.string(), z.unknown()),
  description: z.string(),
  legacyKey: z.string().optional().describe('The v1 key the report was last written with, if any.'),
  version: z.number().int(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
});
const workbookId = z.string().min(1);
const config = z.record(z.string(), z.unknown());
const located = [{ type: 'report', path: '' }] as const;

export const reportMethodsV2: Record<string, MethodSpec> = {
  ...reportMethodsV1,
  createReport: {
    description: 'Creates a report in a workbook.',
    request: z.strictObject({ workbookId, config, description: z.string().default('') }),
    response: reportObject,
    objects: located,
  },
  getReport: { ...(reportMethodsV1.getReport as MethodSpec), response: reportObject },
  updateReport: {
    description: 'Changes a report: its workbook, config or description.',
    request: z.strictObject({
      reportId: z.string().min(1),
      workbookId: workbookId.optional(),
      config: config.optional(),
      description: z.string().optional(),
    }),
    response: reportObject,
    objects: located,
  },
};

/** A v1 `key` → the workbook holding it, through the operator's prefixes or the backend (ctx.services.legacyKeys). */
function keyToWorkbook(body: Json, ctx: MigrationContext): Json | Promise<Json> {
  const key = body.key;
  if (typeof key !== 'string') return body;
  // Known keys resolve at once (no promise): the common case costs no await.
  const found = ctx.services.legacyKeys.resolve(key, ctx);
  return found instanceof Promise ? found.then((f) => withWorkbook(body, key, f)) : withWorkbook(body, key, found);
}

function withWorkbook(body: Json, key: string, found: LegacyKeyResolution | undefined): Json {
  if (!found) {
    throw new GatewayError('VERSION_TRANSLATION_FAILED', `no workbook holds the legacy key "${key}"`, {
      field: 'key',
      key,
      reason: 'no configured folder prefix matches the key and the backend knows no workbook for it',
    });
  }
  const out = omit(body, 'key');
  out.workbookId = found.workbookId;
  out.legacyKey = key;
  return out;
}

export const reportsWorkbookId: CustomChange = custom({
  description:
    'Reports: `key` is removed and replaced by `workbookId`. Version 1 keys are translated through the legacy folder mapping; reports read at version 1 return their key.',
  compatible: false,
  covers: [
    { target: request('createReport'), path: 'key' },
    { target: request('createReport'), path: 'workbookId' },
    { target: request('updateReport'), path: 'key' },
    { target: request('updateReport'), path: 'workbookId' },
    { target: object('report'), path: 'key' },
    { target: object('report'), path: 'workbookId' },
    { target: object('report'), path: 'legacyKey' },
  ],
  request: { createReport: keyToWorkbook, updateReport: keyToWorkbook },
  // A version 1 backend files a report under a folder key; a workbook names no key, so writes do not go down.
  oneWay:
    'a version 1 backend files reports under folder keys, and a workbookId names no key (a workbook has many folders or none), so report writes cannot be carried down to it',
  // The way back, for the guard's round trip: a version 1 report's key → its workbook, as a v1 write would go up.
  objectUp: {
    report: (report, ctx) => {
      const key = report.key;
      if (typeof key !== 'string') return omit(report, 'key');
      const back = (found: LegacyKeyResolution | undefined): Json => {
        const out = omit(report, 'key');
        if (found) out.workbookId = found.workbookId;
        out.legacyKey = key;
        return out;
      };
      const found = ctx.services.legacyKeys.resolve(key, ctx);
      return found instanceof Promise ? found.then(back) : back(found);
    },
  },
  object: {
    report: (report) => {
      const out = omit(report, 'workbookId', 'legacyKey');
      out.key = typeof report.legacyKey === 'string' ? report.legacyKey : null;
      return out;
    },
  },
});
