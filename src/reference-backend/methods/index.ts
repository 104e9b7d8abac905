// The RPC methods the backend serves, by family, and how a call is validated and run.

import type { z } from 'zod';
import type { VersionSpec } from '../../core/contract-model/types.js';
import { HEAD } from './contract-schemas.js';
import { BackendError } from '../shared/errors.js';
import { accessBindingMethods } from './access-bindings.js';
import { auditMethods } from './audit.js';
import { chartFamilies } from './charts.js';
import { collectionMethods } from './collections.js';
import { connectionMethods } from './connections.js';
import type { CallContext, MethodHandler } from './context.js';
import { dashboardMethods } from './dashboards.js';
import { datasetMethods } from './datasets.js';
import { embedMethods } from './embeds.js';
import { entryMethods } from './entries.js';
import { exportImportMethods } from './export-import.js';
import { folderMethods } from './folders.js';
import { htmlPageMethods } from './html-pages.js';
import { licensingMethods } from './licensing.js';
import { lockMethods } from './locks.js';
import { navigationMethods } from './navigation.js';
import { reportMethods } from './reports.js';
import { workbookMethods } from './workbooks.js';

export type { CallContext, MethodHandler } from './context.js';

const FAMILIES: Readonly<Record<string, MethodHandler>> = Object.freeze({
  ...collectionMethods,
  ...workbookMethods,
  ...entryMethods,
  ...dashboardMethods,
  ...chartFamilies,
  ...datasetMethods,
  ...connectionMethods,
  ...exportImportMethods,
  ...folderMethods,
  ...htmlPageMethods,
  ...lockMethods,
  ...licensingMethods,
  ...embedMethods,
  ...auditMethods,
  ...accessBindingMethods,
  ...navigationMethods,
});

/**
 * Every method, each contract-backed one validated by `head`'s request schema (its fallback when `head` lacks it),
 * and the report methods shaped by `head` (reports.ts).
 */
export function methodsFor(head: VersionSpec): ReadonlyMap<string, MethodHandler> {
  return new Map([
    ...Object.entries(FAMILIES).map(([name, handler]): [string, MethodHandler] => {
      const request = handler.contractMethod !== undefined && Object.hasOwn(head.methods, handler.contractMethod) ? head.methods[handler.contractMethod]!.request : undefined;
      return [name, request === undefined ? handler : { ...handler, schema: request }];
    }),
    ...Object.entries(reportMethods(head)),
  ]);
}

/** The methods at the shipped contract's head version. */
export const METHODS: ReadonlyMap<string, MethodHandler> = methodsFor(HEAD);

/** zod issues as `[{path, message}]` with dotted paths; an unrecognized-keys issue becomes one issue per key. */
export function toIssues(error: z.ZodError): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: [...base, key].join('.'), message: `Unrecognized field "${key}"` });
    } else {
      out.push({ path: base.join('.'), message: issue.message });
    }
  }
  return out;
}

/** Validates the body against the method's schema and runs the handler (synchronously, so guarded writes are atomic). */
export function invoke(handler: MethodHandler, methodName: string, body: Record<string, unknown>, ctx: CallContext): unknown {
  const parsed = handler.schema.safeParse(body);
  if (!parsed.success) {
    throw new BackendError('VALIDATION_ERROR', `Invalid arguments for ${methodName}.`, { issues: toIssues(parsed.error) });
  }
  return handler.handle(parsed.data as never, ctx);
}
