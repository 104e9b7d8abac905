// What every handler gets and how one is declared: the call context, and a schema (the contract's, or the
// backend's own) paired with a synchronous handler.

import { z } from 'zod';
import type { Store, WriteAccess } from '../stores/index.js';

export interface CallContext {
  readonly store: Store;
  /** The version the request acts for: x-dl-client-api-version, or the head version for the web UI. */
  readonly clientVersion: number;
  /** True when no x-dl-client-api-version was sent: the request comes from the web UI. */
  readonly webUi: boolean;
  /** What the request's writes may touch (the write guard's input): the client's version and the gateway's per-kind grant. */
  readonly access: WriteAccess;
}

export interface MethodHandler {
  readonly schema: z.ZodType;
  readonly handle: (args: never, ctx: CallContext) => unknown;
  /** Set when the arguments are validated by this method's request schema at the contract's head version. */
  readonly contractMethod?: string;
}

export type Args = Record<string, any>;

/** A handler validated by the backend's own schema (the seed's report and getEntries methods: strict). */
export const define = <S extends z.ZodType>(schema: S, handle: (args: z.output<S>, ctx: CallContext) => unknown): MethodHandler => ({
  schema,
  handle: handle as MethodHandler['handle'],
});

/**
 * A handler validated by the contract's head-version request schema for `method` (methods/index.ts's methodsFor
 * puts it in); `fallback` serves only while the contract does not list the method (tests check that every head
 * method has a handler).
 */
export const fromContract = (method: string, handle: (args: Args, ctx: CallContext) => unknown, fallback: z.ZodType = z.looseObject({})): MethodHandler => ({
  schema: fallback,
  handle: handle as MethodHandler['handle'],
  contractMethod: method,
});

/** Who a write is recorded as: the web UI, or an API client. */
export const actorOf = (ctx: CallContext): string => (ctx.webUi ? 'web-ui' : 'api');

const allTrue = (keys: readonly string[]): Record<string, boolean> => Object.fromEntries(keys.map((k) => [k, true]));

// Full rights (one tenant, no access control), shown only when asked for. Keys: datalens-tech/datalens-ui
// src/shared/schema/us/schemas/{collections,workbooks}/index.ts and src/shared/schema/us/types/fields.ts; the
// collection's five cluster/security/browse keys as the real getCollection answers them (datalens-us 91ff69b).
export const COLLECTION_PERMISSIONS = allTrue([
  'listAccessBindings', 'updateAccessBindings', 'createCollection', 'createWorkbook', 'createSharedEntry', 'createSparkCluster',
  'createTrinoCluster', 'limitedView', 'view', 'update', 'copy', 'move', 'delete', 'securityManage', 'securityApprove', 'browse',
]);
export const WORKBOOK_PERMISSIONS = allTrue(['listAccessBindings', 'updateAccessBindings', 'limitedView', 'view', 'update', 'copy', 'move', 'publish', 'embed', 'delete']);
export const ENTRY_PERMISSIONS = allTrue(['execute', 'read', 'edit', 'admin']);
