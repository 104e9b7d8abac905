// The dataset methods (tag Dataset), over the scenario's connection.
// Components: DatasetCreate, DatasetRead, DatasetUpdate, DatasetValidate, DatasetContentInternal, PG_TABLE,
// SourceAvatarStrict, ResultSchemaSchemaGeneric (direct1), Action (update_field); get/update/validate/delete take
// inline bodies ({datasetId, …}) in the paths.

import { z } from 'zod';
import { Empty, loose, record, str } from './components.js';
import type { Family } from './types.js';

/** DatasetContentInternal: every field optional; these are the ones the scenario writes and reads back. */
const DatasetContentInternal = loose({
  sources: z.array(loose({ id: str, title: str })).optional(),
  source_avatars: z.array(loose({ id: str })).optional(),
  avatar_relations: z.array(loose({ id: str })).optional(),
  result_schema: z.array(record).optional(),
  description: z.string().nullable().optional(),
  rls: record.optional(),
  load_preview_by_default: z.boolean().optional(),
  template_enabled: z.boolean().optional(),
  data_export_forbidden: z.boolean().optional(),
});

/** DatasetRead: only `dataset` is required. */
const DatasetRead = loose({
  dataset: DatasetContentInternal,
  id: str.optional(),
  key: str.optional(),
  name: str.optional(),
  workbook_id: str.optional(),
  collection_id: str.optional(),
  is_favorite: z.boolean().optional(),
  options: record.optional(),
  permissions: z.record(z.string(), z.boolean()).optional(),
  full_permissions: z.record(z.string(), z.boolean()).optional(),
  ctime: str.optional(),
  mtime: str.optional(),
  row_count: z.number().int().optional(),
  pub_operation_id: str.optional(),
});

const content = (connectionId: string) => ({
  description: 'Orders by day',
  sources: [
    {
      id: 'src_orders',
      title: 'orders',
      source_type: 'PG_TABLE',
      connection_id: connectionId,
      parameters: { db_name: 'orders', schema_name: 'public', table_name: 'orders' },
      raw_schema: [{ name: 'day', title: 'day', user_type: 'date', nullable: false }],
    },
  ],
  source_avatars: [{ id: 'av_orders', source_id: 'src_orders', title: 'orders', is_root: true, managed_by: 'user' }],
  avatar_relations: [],
  result_schema: [
    { guid: 'day', title: 'Day', calc_mode: 'direct', source: 'day', avatar_id: 'av_orders', cast: 'date', aggregation: 'none', type: 'DIMENSION' },
  ],
  rls: {},
  load_preview_by_default: true,
});

export const datasetSteps: Family = [
  {
    method: 'createDataset',
    request: 'DatasetCreate',
    response: 'DatasetRead',
    body: (made) => ({ name: 'Conformance orders', workbook_id: made.workbook, created_via: 'user', preview: false, dataset: content(made.connection!) }),
    answer: DatasetRead,
    keep: (a, made) => {
      made.dataset = a.id;
    },
  },
  {
    method: 'getDataset',
    request: 'inline {datasetId, workbookId, rev_id}',
    response: 'DatasetRead',
    body: (made) => ({ datasetId: made.dataset, workbookId: made.workbook }),
    answer: DatasetRead,
  },
  {
    method: 'updateDataset',
    request: 'inline {datasetId, workbookId, data: DatasetUpdate}',
    response: 'DatasetRead',
    body: (made) => ({ datasetId: made.dataset, workbookId: made.workbook, data: { dataset: { ...content(made.connection!), description: 'Orders by day, updated' } } }),
    answer: DatasetRead,
  },
  {
    method: 'validateDataset',
    request: 'inline {datasetId, workbookId, data: DatasetValidate}',
    response: 'DatasetRead',
    body: (made) => ({
      datasetId: made.dataset,
      workbookId: made.workbook,
      data: { dataset: content(made.connection!), updates: [{ action: 'update_field', field: { guid: 'day', title: 'Order day' } }] },
    }),
    answer: DatasetRead,
  },
];

export const datasetTeardown: Family = [
  {
    method: 'deleteDataset',
    request: 'inline {datasetId}',
    response: '{}',
    body: (made) => ({ datasetId: made.dataset }),
    answer: Empty,
  },
];
