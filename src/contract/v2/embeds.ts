// Version 2, private embedding: embeds (an entry shown on another site with signed parameters) and the embedding
// secrets (keys, one workbook each) that sign their tokens.
// Source: the real spec (spec-source.ts), components CreateEmbedArgs, UpdateEmbedArgs, DeleteEmbedArgs,
// DeleteEmbedResult, ListEmbedsArgs, Embed, EmbedSettings, CreateEmbeddingSecretArgs, CreateEmbeddingSecretResult,
// GetEmbeddingSecretArgs, DeleteEmbeddingSecretArgs, DeleteEmbeddingSecretResult, ListEmbeddingSecretsArgs,
// EmbeddingSecret; /rpc/listEmbeds answers Embed[], /rpc/listEmbeddingSecrets EmbeddingSecret[]. All arguments open.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, id, method, open } from '../datalens/common.js';

/** EmbedSettings. */
const embedSettings = open({ enableExport: z.boolean().optional() });

/** What an embed is made of (CreateEmbedArgs / UpdateEmbedArgs: every field required). */
const embedFields = {
  title: z.string(),
  embeddingSecretId: id,
  depsIds: z.array(z.string()),
  unsignedParams: z.array(z.string()),
  privateParams: z.array(z.string()),
  publicParamsMode: z.boolean(),
  settings: embedSettings,
};

/** Embed. */
export const embed = answer({
  embedId: z.string(),
  entryId: z.string(),
  ...embedFields,
  settings: answer({ enableExport: z.boolean().optional() }),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedBy: z.string(),
  updatedAt: z.string(),
});

/** EmbeddingSecret (the private key is shown once, by createEmbeddingSecret). */
export const embeddingSecret = answer({
  embeddingSecretId: z.string(),
  title: z.string(),
  workbookId: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
});

export const embedMethods: Record<string, MethodSpec> = {
  createEmbed: method('Creates an embed of an entry, signed with an embedding secret.', open({ entryId: id, ...embedFields }), embed),
  updateEmbed: method('Replaces an embed’s settings.', open({ embedId: id, ...embedFields }), embed),
  deleteEmbed: method('Deletes an embed.', open({ embedId: id }), answer({ embedId: z.string() })),
  listEmbeds: method('Lists the embeds of an entry.', open({ entryId: id }), z.array(embed)),
};

export const embeddingSecretMethods: Record<string, MethodSpec> = {
  createEmbeddingSecret: method(
    'Creates an embedding secret for a workbook; the answer holds its private key, shown only here.',
    open({ title: z.string(), workbookId: id }),
    answer({ embeddingSecretId: z.string(), privateKey: z.string() }),
  ),
  getEmbeddingSecret: method('Returns an embedding secret (without its key).', open({ embeddingSecretId: id }), embeddingSecret),
  deleteEmbeddingSecret: method('Deletes an embedding secret.', open({ embeddingSecretId: id }), answer({ embeddingSecretId: z.string() })),
  listEmbeddingSecrets: method('Lists the embedding secrets of a workbook.', open({ workbookId: id }), z.array(embeddingSecret)),
};
