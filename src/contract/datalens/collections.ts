// The collection methods of the DataLens public API v1.
//
// Each method's source: github.com/datalens-tech/datalens-ui (commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8),
// src/shared/schema/us/actions/collections/<file> as named above it; none of them is strict.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, collection, flag, id, ids, method, nullableId, open, orderDirection, orderField, text, workbook } from './common.js';

const collections = answer({ collections: z.array(collection) });

export const collectionMethods: Record<string, MethodSpec> = {
  // create-collection.ts
  createCollection: method(
    'Creates a collection; parentId null creates it at the root.',
    open({ title: z.string(), description: text, parentId: nullableId }),
    collection,
  ),
  // delete-collection.ts
  deleteCollection: method('Deletes a collection with its contents.', open({ collectionId: id }), collections),
  // delete-collections.ts
  deleteCollections: method('Deletes several collections at once.', open({ collectionIds: ids }), collections),
  // get-collection-breadcrumbs.ts
  getCollectionBreadcrumbs: method(
    'Returns the chain of parent collections of a collection, root first.',
    open({ collectionId: id, includePermissionsInfo: flag }),
    z.array(collection),
  ),
  // get-collection.ts
  getCollection: method('Returns one collection.', open({ collectionId: id, includePermissionsInfo: flag }), collection),
  // get-collections-by-ids.ts (schema: src/shared/schema/us/schemas/collections/get-collections-by-ids.ts)
  getCollectionsByIds: method(
    'Returns the collections with the given ids (1 to 1000).',
    open({ collectionIds: z.array(z.string()).min(1).max(1000) }),
    z.array(collection),
  ),
  // get-structure-items.ts (the public name is getCollectionContent)
  getCollectionContent: method(
    'Lists the collections and workbooks inside a collection (null: the root), one page at a time.',
    open({
      collectionId: nullableId,
      page: z.string().nullable().optional().describe('The previous answer\'s nextPageToken; absent or null for the first page.'),
      filterString: text,
      orderField: orderField.optional(),
      orderDirection: orderDirection.optional(),
      onlyMy: flag,
      mode: z.enum(['all', 'onlyCollections', 'onlyWorkbooks']).optional(),
      pageSize: z.number().optional(),
      includePermissionsInfo: flag,
    }),
    answer({
      items: z.array(
        z.union([
          collection.extend({ entity: z.literal('collection') }),
          workbook.extend({ entity: z.literal('workbook') }),
        ]),
      ),
      nextPageToken: z.string().nullable().optional(),
    }),
  ),
  // get-root-collection-permissions.ts: takes no arguments.
  getRootCollectionPermissions: method(
    'Returns whether the caller may create collections and workbooks at the root.',
    open({}),
    answer({ createCollectionInRoot: z.boolean(), createWorkbookInRoot: z.boolean() }),
    { emptyBody: true },
  ),
  // move-collection.ts
  moveCollection: method(
    'Moves a collection under another parent (null: the root), optionally renaming it.',
    open({ collectionId: id, parentId: nullableId, title: text }),
    collection,
  ),
  // move-collections.ts
  moveCollections: method(
    'Moves several collections under another parent (null: the root).',
    open({ collectionIds: ids, parentId: nullableId }),
    collections,
  ),
  // update-collection.ts
  updateCollection: method(
    "Changes a collection's title or description.",
    open({ collectionId: id, title: text, description: text }),
    collection,
  ),
};
