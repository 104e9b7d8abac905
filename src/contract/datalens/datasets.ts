// The dataset methods of the DataLens public API v1.
//
// Sources: github.com/datalens-tech/datalens-ui (commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8),
//   src/shared/schema/bi/schemas/datasets.ts (get, update, delete and validate are strict; create and the dataset
//   bodies are the backend's DatasetCreate/DatasetUpdate/DatasetValidate, left open here) and
//   src/shared/schema/bi/actions/datasets.ts (getDataset is getDatasetByVersion: always the draft version).

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, empty, flag, id, method, nullableId, open, record, strict, text } from './common.js';

/**
 * DatasetContentInternal, the dataset a body carries: its members by name and JSON type, open (datalens-tech/datalens-sdk
 * spec/yacloud.json at 021501bb6ccd3165eaa128155d91f67e01525fe9; the item schemas of its lists are the backend's).
 */
const datasetContent = open({
  avatar_relations: z.array(z.unknown()).optional(),
  cache_invalidation_source: z.unknown().optional(),
  component_errors: z.unknown().optional(),
  data_export_forbidden: flag,
  description: z.string().nullable().optional(),
  load_preview_by_default: flag,
  obligatory_filters: z.array(z.unknown()).optional(),
  preview_enabled: flag,
  result_schema: z.array(z.unknown()).optional(),
  result_schema_aux: z.unknown().optional(),
  revision_id: z.string().nullable().optional(),
  rls: record.optional(),
  rls2: z.record(z.string(), z.array(z.unknown())).optional(),
  source_avatars: z.array(z.unknown()).optional(),
  sources: z.array(z.unknown()).optional(),
  template_enabled: flag,
});

/** DatasetRead: the id, the dataset itself and the options the backend derives for it. */
const dataset = answer({ id: z.string(), dataset: record, options: record.optional() });

export const datasetMethods: Record<string, MethodSpec> = {
  getDataset: method(
    'Returns a dataset (its draft version).',
    strict({ datasetId: id, workbookId: nullableId.optional(), rev_id: text }),
    dataset,
  ),
  createDataset: method(
    'Creates a dataset, in a folder (`dir_path`) or a workbook (`workbook_id`).',
    // DatasetCreate (the same document): `dataset` required.
    open({
      dataset: datasetContent,
      name: text,
      dir_path: text,
      workbook_id: nullableId.optional(),
      collection_id: text,
      created_via: z.unknown().optional(),
      preview: flag,
      multisource: flag,
    }),
    dataset,
  ),
  // updateDataset, validateDataset: `data` is optional, the real /1/json/ (datalens-ui f581b7c) requires only datasetId.
  // DatasetUpdate (the same document): a `data` given holds the dataset.
  updateDataset: method(
    'Replaces the draft of a dataset.',
    strict({ datasetId: id, data: open({ dataset: datasetContent }).optional() }),
    dataset,
  ),
  deleteDataset: method('Deletes a dataset.', strict({ datasetId: id }), empty),
  validateDataset: method(
    'Validates a dataset with pending updates; returns the resulting dataset and its errors.',
    strict({ datasetId: id, workbookId: nullableId.optional(), data: open({ dataset: datasetContent.optional(), updates: z.array(record).optional() }).optional() }),
    answer({ dataset: record, options: record.optional(), dataset_errors: z.array(z.unknown()).optional() }),
  ),
};
