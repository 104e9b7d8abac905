// The collection methods (tag Collection): the scenario makes two collections, reads, updates and moves them.
// Components: CreateCollectionArgs/Result, GetCollectionArgs/Result, GetCollectionBreadcrumbsArgs/Result,
// GetCollectionsByIdsArgs, GetStructureItemsArgs/Result, MoveCollectionArgs, MoveCollectionsArgs,
// UpdateCollectionArgs, Collection, CollectionPermissions, DatalensOperation, StructureItemEntry.

import { z } from 'zod';
import { Collection, CollectionPermissions, DatalensOperation, StructureItemEntry, Workbook, WorkbookPermissions, loose } from './components.js';
import type { Family } from './types.js';

const withPermissions = Collection.extend({ permissions: CollectionPermissions.optional() });

export const collectionSteps: Family = [
  {
    method: 'createCollection',
    request: 'CreateCollectionArgs',
    response: 'CreateCollectionResult',
    body: () => ({ title: 'Conformance', description: 'Made by the v3 conformance scenario', parentId: null }),
    // CreateCollectionResult: a Collection with an optional operation.
    answer: Collection.extend({ operation: DatalensOperation.optional() }),
    keep: (a, made) => {
      made.collection = a.collectionId;
    },
  },
  {
    method: 'createCollection',
    request: 'CreateCollectionArgs',
    response: 'CreateCollectionResult',
    body: (made) => ({ title: 'Conformance child', parentId: made.collection }),
    answer: Collection.extend({ operation: DatalensOperation.optional() }),
    keep: (a, made) => {
      made.childCollection = a.collectionId;
    },
  },
  {
    method: 'getRootCollectionPermissions',
    request: '(no body)',
    response: 'GetRootCollectionPermissionsResult',
    body: () => ({}),
    answer: loose({ createCollectionInRoot: z.boolean(), createWorkbookInRoot: z.boolean() }),
  },
  {
    method: 'getCollection',
    request: 'GetCollectionArgs',
    response: 'GetCollectionResult',
    body: (made) => ({ collectionId: made.collection, includePermissionsInfo: true }),
    answer: withPermissions,
  },
  {
    method: 'getCollectionBreadcrumbs',
    request: 'GetCollectionBreadcrumbsArgs',
    response: 'GetCollectionBreadcrumbsResult',
    body: (made) => ({ collectionId: made.childCollection, includePermissionsInfo: true }),
    answer: z.array(withPermissions),
  },
  {
    method: 'getCollectionsByIds',
    request: 'GetCollectionsByIdsArgs',
    response: 'Collection[]',
    body: (made) => ({ collectionIds: [made.collection, made.childCollection] }),
    answer: z.array(Collection).length(2),
  },
  {
    method: 'getCollectionContent',
    request: 'GetStructureItemsArgs',
    response: 'GetStructureItemsResult',
    body: (made) => ({
      collectionId: made.collection,
      mode: 'all',
      orderField: 'title',
      orderDirection: 'asc',
      onlyMy: false,
      filterString: '',
      pageSize: 50,
      page: null,
      includePermissionsInfo: true,
    }),
    answer: loose({
      items: z.array(
        z.union([
          Collection.extend({ entity: z.literal('collection'), permissions: CollectionPermissions.optional() }),
          Workbook.extend({ entity: z.literal('workbook'), permissions: WorkbookPermissions.optional() }),
          StructureItemEntry,
        ]),
      ),
      nextPageToken: z.string().nullable().optional(),
    }),
  },
  {
    method: 'updateCollection',
    request: 'UpdateCollectionArgs',
    response: 'Collection',
    body: (made) => ({ collectionId: made.collection, title: 'Conformance (renamed)', description: 'Updated by the scenario' }),
    answer: Collection,
  },
  {
    method: 'moveCollection',
    request: 'MoveCollectionArgs',
    response: 'Collection',
    body: (made) => ({ collectionId: made.childCollection, parentId: null, title: 'Conformance child (moved)' }),
    answer: Collection,
  },
  {
    method: 'moveCollections',
    request: 'MoveCollectionsArgs',
    response: '{collections: Collection[]}',
    body: (made) => ({ collectionIds: [made.childCollection], parentId: made.collection }),
    answer: loose({ collections: z.array(Collection) }),
  },
];

/** Run last: the collections and everything in them go. */
export const collectionTeardown: Family = [
  {
    method: 'deleteCollection',
    request: 'DeleteCollectionArgs',
    response: 'DeleteCollectionResult',
    body: (made) => ({ collectionId: made.childCollection }),
    answer: loose({ collections: z.array(Collection) }),
  },
  {
    method: 'deleteCollections',
    request: 'DeleteCollectionsArgs',
    response: 'DeleteCollectionsResult',
    body: (made) => ({ collectionIds: [made.collection] }),
    answer: loose({ collections: z.array(Collection) }),
  },
];
