// HTML page methods (version 2 additions: the API changelog names them; no source publishes their arguments, so
// these are ours, shaped like the Editor chart methods): an HTML page is an entry of type `html_page` whose data
// holds the page. Arguments: `{mode?, entry: {key | workbookId+name, data, meta?, annotation?}}` to create,
// `{mode?, entry: {entryId, data?, meta?, annotation?}, lockToken?}` to update, `{htmlPageId}` to read or delete.

import { z } from 'zod';
import { BackendError } from '../shared/errors.js';
import type { Entry } from '../stores/index.js';
import { actorOf, fromContract, type Args, type CallContext, type MethodHandler } from './context.js';
import { deleteEntry, modeOf, revisionOf, saveEntry } from './entry-writes.js';
import { placementOf } from './placement.js';
import { entryView } from './views.js';

type Json = Record<string, unknown>;

export const HTML_PAGE_TYPE = 'html_page';

const byId = z.looseObject({ htmlPageId: z.string().min(1) });
const withEntry = z.looseObject({ mode: z.enum(['save', 'publish']).optional(), entry: z.looseObject({}) });

const requirePage = (ctx: CallContext, htmlPageId: string): Entry => ctx.store.entries.require(htmlPageId, 'widget', (e) => e.type === HTML_PAGE_TYPE);

function fieldsOf(args: Args): Json {
  const entry = args.entry;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw new BackendError('VALIDATION_ERROR', 'entry must be an object.', { issues: [{ path: 'entry', message: 'expected an object' }] });
  }
  return entry as Json;
}

export const htmlPageMethods: Record<string, MethodHandler> = {
  getHtmlPage: fromContract('getHtmlPage', (args, ctx) => entryView(revisionOf(ctx, requirePage(ctx, args.htmlPageId), args)), byId),

  createHtmlPage: fromContract('createHtmlPage', (args, ctx) => {
    const fields = fieldsOf(args);
    modeOf(args.mode);
    const entry = ctx.store.entries.create(
      {
        ...placementOf(ctx.store, fields),
        scope: 'widget',
        type: HTML_PAGE_TYPE,
        data: (fields.data as Json | undefined) ?? { html: '' },
        meta: (fields.meta as Json | undefined) ?? {},
        annotation: (fields.annotation as { description: string } | undefined) ?? null,
      },
      actorOf(ctx),
      ctx.clientVersion,
    );
    return entryView(entry);
  }, withEntry),

  updateHtmlPage: fromContract('updateHtmlPage', (args, ctx) => {
    const fields = fieldsOf(args);
    const entry = requirePage(ctx, String(fields.entryId ?? ''));
    const patch = {
      ...(fields.data !== undefined && { data: fields.data as Json }),
      ...(fields.meta !== undefined && { meta: fields.meta as Json | null }),
      ...(fields.annotation !== undefined && { annotation: fields.annotation as { description: string } }),
    };
    return entryView(saveEntry(ctx, entry, patch, modeOf(args.mode), fields.lockToken ?? args.lockToken));
  }, withEntry),

  deleteHtmlPage: fromContract('deleteHtmlPage', (args, ctx) => deleteEntry(ctx, requirePage(ctx, args.htmlPageId), args.lockToken), byId),
};
