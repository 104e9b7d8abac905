// Folders made with createFolder: navigation entries outside workbooks whose key ends with "/". A folder also exists
// implicitly wherever an entry's key passes through it; such folders have a stable derived id.
// Shape: the real spec's CreateFolderResult component.

import { createHash, randomUUID } from 'node:crypto';
import { now } from './guard.js';

export interface Folder {
  readonly entryId: string;
  readonly key: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly revId: string;
  readonly initialPermissions: Record<string, unknown>;
}

/** The id an implicit folder answers with: the same for the same key. */
export const implicitFolderId = (key: string): string => `fld_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

export class FolderStore {
  private readonly byKey = new Map<string, Folder>();

  create(key: string, actor: string, initialPermissions: Record<string, unknown>): Folder {
    const folder: Folder = {
      entryId: `fld_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
      key,
      createdBy: actor,
      createdAt: now(),
      revId: `rev_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
      initialPermissions,
    };
    this.byKey.set(key, folder);
    return folder;
  }

  get(key: string): Folder | undefined {
    return this.byKey.get(key);
  }

  /** The folder made with this id, if any. */
  byId(entryId: string): Folder | undefined {
    for (const f of this.byKey.values()) if (f.entryId === entryId) return f;
    return undefined;
  }

  /** Forgets the folders at or under `key`. */
  deleteUnder(key: string): void {
    for (const k of [...this.byKey.keys()]) if (k.startsWith(key)) this.byKey.delete(k);
  }

  all(): Folder[] {
    return [...this.byKey.values()];
  }
}
