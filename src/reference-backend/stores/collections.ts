// Collections: a tree of folders (parentId null = the root) that hold workbooks and other collections.
// Answer shape: datalens-tech/datalens-ui src/shared/schema/us/schemas/collections/index.ts (collectionSchema).

import { BackendError, notFound } from '../shared/errors.js';
import { checkForeignId, freshId } from '../shared/ids.js';
import { TENANT_ID, stampNew, type Stamped } from './guard.js';

export interface Collection extends Stamped {
  collectionId: string;
  title: string;
  description: string | null;
  parentId: string | null;
  tenantId: string;
  meta: Record<string, unknown>;
}

export interface SeedCollection {
  collectionId?: string;
  title: string;
  description?: string;
  parentId?: string | null;
  /** Seeded workbooks this collection holds (a workbook seeded without the collection stays at the root). */
  workbookIds?: readonly string[];
  /** Defaults to the head version. */
  version?: number;
}

export class CollectionStore {
  private readonly byId = new Map<string, Collection>();

  create(input: { title: string; description?: string | undefined; parentId: string | null; collectionId?: string }, actor: string, version: number): Collection {
    if (input.parentId !== null) this.require(input.parentId);
    const collectionId = input.collectionId ?? freshId('col', this.byId);
    if (this.byId.has(collectionId)) throw new Error(`collection ${collectionId}: duplicate id`);
    const collection: Collection = {
      collectionId,
      title: input.title,
      description: input.description ?? null,
      parentId: input.parentId,
      tenantId: TENANT_ID,
      meta: {},
      ...stampNew(actor, version),
    };
    this.byId.set(collectionId, collection);
    return collection;
  }

  /** The stored collection (callers copy before answering). */
  require(collectionId: string): Collection {
    const found = this.byId.get(collectionId);
    if (found === undefined) checkForeignId(collectionId, 'collectionId');
    if (found === undefined) throw notFound('collection', `Collection ${collectionId} not found.`, { collectionId });
    return found;
  }

  has(collectionId: string): boolean {
    return this.byId.has(collectionId);
  }

  /** The collection and its ancestors, root first. */
  breadcrumbs(collectionId: string): Collection[] {
    const chain: Collection[] = [];
    for (let at: string | null = collectionId; at !== null; at = this.require(at).parentId) chain.unshift(this.require(at));
    return chain;
  }

  /** Direct children of `parentId` (null = the root), in creation order. */
  children(parentId: string | null): Collection[] {
    return [...this.byId.values()].filter((c) => c.parentId === parentId);
  }

  /** The collection and every collection below it, parents before children. */
  subtree(collectionId: string): Collection[] {
    const out = [this.require(collectionId)];
    for (let i = 0; i < out.length; i++) out.push(...this.children(out[i]!.collectionId));
    return out;
  }

  /** Refuses a move that would put a collection inside itself or one of its descendants. */
  assertMovable(collectionId: string, parentId: string | null): void {
    if (parentId === null) return;
    this.require(parentId);
    if (this.subtree(collectionId).some((c) => c.collectionId === parentId)) {
      throw new BackendError('VALIDATION_ERROR', `Collection ${collectionId} cannot be moved inside itself.`, {
        issues: [{ path: 'parentId', message: 'the target is the collection itself or one of its descendants' }],
      });
    }
  }

  delete(collectionId: string): void {
    this.byId.delete(collectionId);
  }
}
