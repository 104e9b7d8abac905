// The RPC methods at the latest version: a zod schema for each method's arguments and a synchronous handler.
// The report methods are reports.ts's (shaped by the contract). getEntries is strict, so a v1-shaped field that the
// gateway forgot to translate is refused.

import { z } from 'zod';
import { BackendError } from './errors.js';
import { decodePageToken, encodePageToken, filtersHash } from './page-token.js';
import { ENTRY_SCOPES, type Entry, type Store } from './store.js';

export interface CallContext {
  readonly store: Store;
  /** The version the request acts for: x-dl-client-api-version, or the head version for the web UI. */
  readonly clientVersion: number;
  /** True when no x-dl-client-api-version was sent: the request comes from the web UI. */
  readonly webUi: boolean;
}

export interface MethodHandler {
  readonly schema: z.ZodType;
  readonly handle: (args: never, ctx: CallContext) => unknown;
}

export const define = <S extends z.ZodType>(schema: S, handle: (args: z.output<S>, ctx: CallContext) => unknown): MethodHandler => ({
  schema,
  handle: handle as MethodHandler['handle'],
});

const id = z.string().min(1);
const jsonObject = z.record(z.string(), z.unknown());

const createWorkbook = define(z.object({ title: z.string().min(1), legacyFolderKey: z.string().min(1).optional() }), (args, { store, clientVersion }) =>
  store.createWorkbook(args, clientVersion),
);

const getWorkbook = define(z.object({ workbookId: id }), (args, { store }) => store.getWorkbook(args.workbookId));

const resolveLegacyKey = define(z.object({ key: z.string().min(1) }), (args, { store }) => store.resolveLegacyKey(args.key));

const createEntry = define(
  z.object({ key: z.string().min(1), scope: z.enum(ENTRY_SCOPES), type: z.string().optional(), workbookId: id.optional(), createdBy: z.string().min(1).optional() }),
  (args, { store, clientVersion, webUi }) => store.createEntry({ ...args, createdBy: args.createdBy ?? (webUi ? 'web-ui' : 'api') }, clientVersion),
);

const getEntries = define(
  z.strictObject({
    ids: z.array(id).max(1000).optional(),
    createdBy: z.array(z.string()).max(1000).optional(),
    scope: z.enum(ENTRY_SCOPES).optional(),
    pageSize: z.int().min(1).max(1000).default(100),
    pageToken: z.string().min(1).optional(),
  }),
  (args, { store }) => {
    const hash = filtersHash(args);
    let offset = 0;
    if (args.pageToken !== undefined) {
      const decoded = decodePageToken(args.pageToken, hash);
      if (!decoded.ok) {
        throw new BackendError('VALIDATION_ERROR', `Invalid pageToken: ${decoded.reason}.`, {
          issues: [{ path: 'pageToken', message: decoded.reason }],
        });
      }
      offset = decoded.offset;
    }
    const ids = args.ids && args.ids.length > 0 ? new Set(args.ids) : undefined;
    const createdBy = args.createdBy && args.createdBy.length > 0 ? new Set(args.createdBy) : undefined;
    const matching = store.listEntries(
      (e: Entry) => (ids === undefined || ids.has(e.entryId)) && (createdBy === undefined || createdBy.has(e.createdBy)) && (args.scope === undefined || e.scope === args.scope),
    );
    const end = offset + args.pageSize;
    const result: { entries: Entry[]; nextPageToken?: string } = { entries: matching.slice(offset, end) };
    if (end < matching.length) result.nextPageToken = encodePageToken(end, hash);
    return result;
  },
);

/** The methods whose shape the contract does not give (the report methods are reports.ts's). */
export const METHODS: ReadonlyMap<string, MethodHandler> = new Map(
  Object.entries({ createWorkbook, getWorkbook, resolveLegacyKey, createEntry, getEntries }),
);

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
