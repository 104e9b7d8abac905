// The seed's report methods, at the head version. Their schemas are the backend's own and strict, so a v1-shaped
// field the gateway forgot to translate (`key`) is refused.

import { z } from 'zod';
import { assertWritableBy } from '../store.js';
import { define, type MethodHandler } from './context.js';

const id = z.string().min(1);
const jsonObject = z.record(z.string(), z.unknown());

export const reportMethods: Record<string, MethodHandler> = {
  createReport: define(
    z.strictObject({ workbookId: id, config: jsonObject, description: z.string().default(''), legacyKey: z.string().min(1).optional() }),
    (args, { store, clientVersion }) => {
      store.workbooks.require(args.workbookId);
      return store.reports.create(args, clientVersion);
    },
  ),

  getReport: define(z.strictObject({ reportId: id }), (args, { store }) => store.reports.get(args.reportId)),

  updateReport: define(
    z.strictObject({
      reportId: id,
      workbookId: id.optional(),
      config: jsonObject.optional(),
      description: z.string().optional(),
      legacyKey: z.string().min(1).optional(),
    }),
    ({ reportId, ...patch }, { store, clientVersion }) => {
      // Every check before the write: a refused update leaves the report untouched.
      assertWritableBy(store.reports.require(reportId), reportId, clientVersion);
      if (patch.workbookId !== undefined) store.workbooks.require(patch.workbookId);
      return store.reports.update(reportId, patch, clientVersion);
    },
  ),

  deleteReport: define(z.strictObject({ reportId: id }), (args, { store, clientVersion }) => {
    store.reports.delete(args.reportId, clientVersion);
    return { reportId: args.reportId, deleted: true };
  }),
};
