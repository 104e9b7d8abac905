// Embedding secrets (a key pair per secret, one workbook each) and the embeds of entries signed with them.
// Shapes: the real spec's Embed and EmbeddingSecret components (src/contract/v2/embeds.ts).

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { BackendError } from '../shared/errors.js';
import { now } from './guard.js';

export interface EmbeddingSecret {
  readonly embeddingSecretId: string;
  readonly title: string;
  readonly workbookId: string;
  readonly createdBy: string;
  readonly createdAt: string;
  /** The public half of the key: what verifies an embed token (the private half is handed out once). */
  readonly publicKey: string;
}

export interface EmbedFields {
  title: string;
  embeddingSecretId: string;
  depsIds: string[];
  unsignedParams: string[];
  privateParams: string[];
  publicParamsMode: boolean;
  settings: { enableExport?: boolean };
}

export interface Embed extends EmbedFields {
  readonly embedId: string;
  readonly entryId: string;
  readonly createdBy: string;
  readonly createdAt: string;
  updatedBy: string;
  updatedAt: string;
}

const id = (prefix: string): string => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

export class EmbedStore {
  private readonly secrets = new Map<string, EmbeddingSecret>();
  private readonly embeds = new Map<string, Embed>();

  /** A new secret and its private key (PEM), which is not kept. */
  createSecret(title: string, workbookId: string, actor: string): { secret: EmbeddingSecret; privateKey: string } {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const secret: EmbeddingSecret = {
      embeddingSecretId: id('emsec'),
      title,
      workbookId,
      createdBy: actor,
      createdAt: now(),
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    this.secrets.set(secret.embeddingSecretId, secret);
    return { secret, privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
  }

  requireSecret(embeddingSecretId: string): EmbeddingSecret {
    const found = this.secrets.get(embeddingSecretId);
    if (found === undefined) throw new BackendError('NOT_FOUND', `Embedding secret ${embeddingSecretId} not found.`, { embeddingSecretId });
    return found;
  }

  secretsOf(workbookId: string): EmbeddingSecret[] {
    return [...this.secrets.values()].filter((s) => s.workbookId === workbookId);
  }

  /** Deletes a secret and the embeds signed with it (they can no longer be verified). */
  deleteSecret(embeddingSecretId: string): void {
    this.requireSecret(embeddingSecretId);
    this.secrets.delete(embeddingSecretId);
    for (const e of this.embeds.values()) if (e.embeddingSecretId === embeddingSecretId) this.embeds.delete(e.embedId);
  }

  createEmbed(entryId: string, fields: EmbedFields, actor: string): Embed {
    const at = now();
    const embed: Embed = { embedId: id('emb'), entryId, ...fields, createdBy: actor, createdAt: at, updatedBy: actor, updatedAt: at };
    this.embeds.set(embed.embedId, embed);
    return embed;
  }

  requireEmbed(embedId: string): Embed {
    const found = this.embeds.get(embedId);
    if (found === undefined) throw new BackendError('NOT_FOUND', `Embed ${embedId} not found.`, { embedId });
    return found;
  }

  updateEmbed(embedId: string, fields: EmbedFields, actor: string): Embed {
    const embed = this.requireEmbed(embedId);
    Object.assign(embed, fields, { updatedBy: actor, updatedAt: now() });
    return embed;
  }

  deleteEmbed(embedId: string): void {
    this.requireEmbed(embedId);
    this.embeds.delete(embedId);
  }

  embedsOf(entryId: string): Embed[] {
    return [...this.embeds.values()].filter((e) => e.entryId === entryId);
  }
}
