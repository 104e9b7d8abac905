// Private embedding (tags EmbeddingSecrets, Embeds): a key for embedding in the scenario's workbook and an embed of
// its Editor chart. Components: CreateEmbeddingSecretArgs/Result, GetEmbeddingSecretArgs, ListEmbeddingSecretsArgs,
// EmbeddingSecret, DeleteEmbeddingSecretArgs/Result, CreateEmbedArgs, ListEmbedsArgs, UpdateEmbedArgs, Embed,
// EmbedSettings, DeleteEmbedArgs/Result.

import { z } from 'zod';
import { Embed, EmbeddingSecret, loose, str } from './components.js';
import type { Family } from './types.js';

export const embedSteps: Family = [
  {
    method: 'createEmbeddingSecret',
    request: 'CreateEmbeddingSecretArgs',
    response: 'CreateEmbeddingSecretResult',
    body: (made) => ({ title: 'Conformance portal', workbookId: made.workbook }),
    answer: loose({ embeddingSecretId: str, privateKey: str }),
    keep: (a, made) => {
      made.embeddingSecret = a.embeddingSecretId;
    },
  },
  {
    method: 'getEmbeddingSecret',
    request: 'GetEmbeddingSecretArgs',
    response: 'EmbeddingSecret',
    body: (made) => ({ embeddingSecretId: made.embeddingSecret }),
    answer: EmbeddingSecret,
  },
  {
    method: 'listEmbeddingSecrets',
    request: 'ListEmbeddingSecretsArgs',
    response: 'EmbeddingSecret[]',
    body: (made) => ({ workbookId: made.workbook }),
    answer: z.array(EmbeddingSecret).min(1),
  },
  {
    method: 'createEmbed',
    request: 'CreateEmbedArgs',
    response: 'Embed',
    body: (made) => ({
      title: 'Orders table on the portal',
      embeddingSecretId: made.embeddingSecret,
      entryId: made.editorChart,
      depsIds: [made.dataset],
      unsignedParams: ['region'],
      privateParams: ['customer_id'],
      publicParamsMode: false,
      settings: { enableExport: true },
    }),
    answer: Embed,
    keep: (a, made) => {
      made.embed = a.embedId;
    },
  },
  {
    method: 'listEmbeds',
    request: 'ListEmbedsArgs',
    response: 'Embed[]',
    body: (made) => ({ entryId: made.editorChart }),
    answer: z.array(Embed).min(1),
  },
  {
    method: 'updateEmbed',
    request: 'UpdateEmbedArgs',
    response: 'Embed',
    body: (made) => ({
      embedId: made.embed,
      title: 'Orders table on the portal (v2)',
      embeddingSecretId: made.embeddingSecret,
      depsIds: [made.dataset],
      unsignedParams: ['region', 'day'],
      privateParams: ['customer_id'],
      publicParamsMode: true,
      settings: { enableExport: false },
    }),
    answer: Embed,
  },
];

export const embedTeardown: Family = [
  {
    method: 'deleteEmbed',
    request: 'DeleteEmbedArgs',
    response: 'DeleteEmbedResult',
    body: (made) => ({ embedId: made.embed }),
    answer: loose({ embedId: str }),
  },
  {
    method: 'deleteEmbeddingSecret',
    request: 'DeleteEmbeddingSecretArgs',
    response: 'DeleteEmbeddingSecretResult',
    body: (made) => ({ embeddingSecretId: made.embeddingSecret }),
    answer: loose({ embeddingSecretId: str }),
  },
];
