// The seed's report methods: every argument but the frame (reportId, workbookId, legacyKey) is the report's content,
// stored and answered as sent (a newer head's renames are followed by head-bridge.ts). The arguments are the head's
// schemas made strict (a field the gateway forgot to translate is refused), plus `legacyKey`, which the gateway adds
// for v1 clients.

import { z } from 'zod';
import type { VersionSpec } from '../../core/contract-model/types.js';
import { BackendError } from '../shared/errors.js';
import { assertWritableBy } from '../stores/index.js';
import { define, type MethodHandler } from './context.js';

const id = z.string().min(1);
/** The fields the backend itself gives meaning to; every other argument is content. */
const FRAME = new Set(['reportId', 'workbookId', 'legacyKey']);

/** The head version's request schema of `method`, strict, with `legacyKey`. */
function argumentsOf(head: VersionSpec, method: string): z.ZodObject {
  const schema = head.methods[method]?.request;
  if (!(schema instanceof z.ZodObject)) throw new Error(`the reference backend needs ${method} at version ${head.version} with an object request schema`);
  return z.strictObject({ ...schema.shape, legacyKey: z.string().min(1).optional() });
}

/** The arguments that are not the frame's. */
function contentOf(args: Record<string, unknown>): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(args)) if (!FRAME.has(field)) content[field] = value;
  return content;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function reportMethods(head: VersionSpec): Record<string, MethodHandler> {
  const createReport = define(argumentsOf(head, 'createReport'), (args, { store, clientVersion }) => {
    const workbookId = text(args.workbookId);
    if (workbookId === undefined) throw new BackendError('VALIDATION_ERROR', 'Invalid arguments for createReport.', { issues: [{ path: 'workbookId', message: 'Required' }] });
    store.workbooks.require(workbookId);
    return store.reports.create({ workbookId, legacyKey: text(args.legacyKey), content: contentOf(args) }, clientVersion);
  });
  const updateReport = define(argumentsOf(head, 'updateReport'), (args, { store, clientVersion, access }) => {
    const reportId = String(args.reportId);
    const workbookId = text(args.workbookId);
    // Every check before the write: a refused update leaves the report untouched.
    assertWritableBy(store.reports.require(reportId), reportId, access);
    if (workbookId !== undefined) store.workbooks.require(workbookId);
    return store.reports.update(reportId, { workbookId, legacyKey: text(args.legacyKey), content: contentOf(args) }, clientVersion, access);
  });
  const getReport = define(z.strictObject({ reportId: id }), (args, { store }) => store.reports.get(args.reportId));
  const deleteReport = define(z.strictObject({ reportId: id }), (args, { store, access }) => {
    store.reports.delete(args.reportId, access);
    return { reportId: args.reportId, deleted: true };
  });
  return { createReport, getReport, updateReport, deleteReport };
}
