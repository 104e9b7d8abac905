// Connection methods (the BI API): read, create, update and delete a connection; its settings are free-form.
// Shapes: datalens-tech/datalens-ui src/shared/schema/bi/schemas/connections.ts and src/shared/schema/bi/types/
// connections.ts (create answers {id}, update answers {}).

import { BackendError } from '../shared/errors.js';
import type { Entry } from '../stores/index.js';
import { actorOf, fromContract, type CallContext, type MethodHandler } from './context.js';
import { deleteEntry, saveEntry } from './entry-writes.js';
import { placementOf } from './placement.js';
import { connectionView } from './views.js';

type Json = Record<string, unknown>;

const requireConnection = (ctx: CallContext, connectionId: string): Entry => ctx.store.entries.require(connectionId, 'connection');

// Fields that place or name the connection; the rest are its settings.
const PLACEMENT_FIELDS = new Set(['type', 'name', 'workbook_id', 'dir_path']);

export const connectionMethods: Record<string, MethodHandler> = {
  getConnection: fromContract('getConnection', (args, ctx) => connectionView(ctx.store.entries.atRevision(requireConnection(ctx, args.connectionId), args.rev_id))),

  createConnection: fromContract('createConnection', (args, ctx) => {
    if (typeof args.type !== 'string' || args.type === '') {
      throw new BackendError('VALIDATION_ERROR', 'type is required.', { issues: [{ path: 'type', message: 'the connector type is required' }] });
    }
    const name = typeof args.name === 'string' ? args.name : '';
    const placement = placementOf(
      ctx.store,
      args.workbook_id != null ? { workbookId: args.workbook_id, name } : { key: `${String(args.dir_path ?? '').replace(/\/?$/, '/')}${name}`.replace(/^\//, '') },
    );
    const settings = Object.fromEntries(Object.entries(args).filter(([k]) => !PLACEMENT_FIELDS.has(k)));
    const entry = ctx.store.entries.create({ ...placement, scope: 'connection', type: args.type, data: settings, published: false } /* real US keeps a connection saved, never published */, actorOf(ctx), ctx.clientVersion);
    return { id: entry.entryId };
  }),

  updateConnection: fromContract('updateConnection', (args, ctx) => {
    const entry = requireConnection(ctx, args.connectionId);
    const patch = (args.data as Json | undefined) ?? {};
    saveEntry(ctx, entry, { data: { ...((entry.data ?? {}) as Json), ...patch } }, 'publish');
    return {};
  }),

  deleteConnection: fromContract('deleteConnection', (args, ctx) => deleteEntry(ctx, requireConnection(ctx, args.connectionId))),
};
