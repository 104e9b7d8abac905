// Private embedding (version 2): embedding secrets of a workbook, and embeds of its entries signed with them.
// Shapes: the real spec's components (src/contract/v2/embeds.ts). An embed's entry and secret share one workbook,
// and its dependencies (depsIds) must exist.

import type { Embed, EmbedFields, EmbeddingSecret } from '../stores/embeds.js';
import type { Entry } from '../stores/index.js';
import { actorOf, fromContract, type Args, type CallContext, type MethodHandler } from './context.js';
import { invalid } from './paging.js';

const secretView = ({ publicKey: _, ...secret }: EmbeddingSecret): Record<string, unknown> => ({ ...secret });
const embedView = (e: Embed): Record<string, unknown> => ({ ...e, settings: { ...e.settings } });

/** The embed's fields from the arguments, checked against the entry it embeds. */
function fieldsFor(entry: Entry, args: Args, { store }: CallContext): EmbedFields {
  const secret = store.embeds.requireSecret(args.embeddingSecretId);
  if (secret.workbookId !== entry.workbookId) {
    throw invalid('embeddingSecretId', `Embedding secret ${secret.embeddingSecretId} belongs to workbook ${secret.workbookId}, not to the entry's.`);
  }
  for (const dep of args.depsIds as string[]) store.entries.require(dep);
  return {
    title: args.title,
    embeddingSecretId: secret.embeddingSecretId,
    depsIds: [...args.depsIds],
    unsignedParams: [...args.unsignedParams],
    privateParams: [...args.privateParams],
    publicParamsMode: args.publicParamsMode,
    settings: args.settings.enableExport === undefined ? {} : { enableExport: args.settings.enableExport },
  };
}

export const embedMethods: Record<string, MethodHandler> = {
  createEmbeddingSecret: fromContract('createEmbeddingSecret', (args: Args, ctx) => {
    ctx.store.workbooks.require(args.workbookId);
    const { secret, privateKey } = ctx.store.embeds.createSecret(args.title, args.workbookId, actorOf(ctx));
    return { embeddingSecretId: secret.embeddingSecretId, privateKey };
  }),
  getEmbeddingSecret: fromContract('getEmbeddingSecret', (args: Args, { store }) => secretView(store.embeds.requireSecret(args.embeddingSecretId))),
  deleteEmbeddingSecret: fromContract('deleteEmbeddingSecret', (args: Args, { store }) => {
    store.embeds.deleteSecret(args.embeddingSecretId);
    return { embeddingSecretId: args.embeddingSecretId };
  }),
  listEmbeddingSecrets: fromContract('listEmbeddingSecrets', (args: Args, { store }) => {
    store.workbooks.require(args.workbookId);
    return store.embeds.secretsOf(args.workbookId).map(secretView);
  }),

  createEmbed: fromContract('createEmbed', (args: Args, ctx) => {
    const entry = ctx.store.entries.require(args.entryId);
    return embedView(ctx.store.embeds.createEmbed(entry.entryId, fieldsFor(entry, args, ctx), actorOf(ctx)));
  }),
  updateEmbed: fromContract('updateEmbed', (args: Args, ctx) => {
    const embed = ctx.store.embeds.requireEmbed(args.embedId);
    const entry = ctx.store.entries.require(embed.entryId);
    return embedView(ctx.store.embeds.updateEmbed(embed.embedId, fieldsFor(entry, args, ctx), actorOf(ctx)));
  }),
  deleteEmbed: fromContract('deleteEmbed', (args: Args, { store }) => {
    store.embeds.deleteEmbed(args.embedId);
    return { embedId: args.embedId };
  }),
  listEmbeds: fromContract('listEmbeds', (args: Args, { store }) => {
    store.entries.require(args.entryId);
    return store.embeds.embedsOf(args.entryId).map(embedView);
  }),
};
