// The connection methods (tag Connection), with a PostgreSQL connection in the scenario's workbook.
// Components: ConnectionCreate (its `postgres` variant), CreateConnectionResult, ConnectionRead (`postgres1`),
// ConnectionUpdate (`postgres2`); get, update and delete take inline bodies ({connectionId, …}) in the paths.

import { z } from 'zod';
import { Empty, loose, nstr, record, str, strict } from './components.js';
import type { Family } from './types.js';

const nint = z.number().int().nullable();

/**
 * ConnectionRead's `postgres1`, closed (`additionalProperties: false`); `password` and `ssl_ca` are write-only and
 * never read back. `version` is this product's own addition, the object-version stamp every object carries
 * (docs/reference/object-versions.md): the one field allowed beyond the spec.
 */
const postgresRead = strict({
  type: z.literal('postgres').optional(),
  id: str.optional(),
  key: str.optional(),
  name: str,
  host: str,
  port: z.number().int(),
  db_name: nstr.optional(),
  username: nstr.optional(),
  description: nstr.optional(),
  meta: record.optional(),
  created_at: str.optional(),
  updated_at: str.optional(),
  collection_id: nstr.optional(),
  cache_ttl_sec: nint.optional(),
  cache_invalidation_throttling_interval_sec: nint.optional(),
  raw_sql_level: z.enum(['off', 'subselect', 'template', 'dashsql']).optional(),
  enforce_collate: z.enum(['auto', 'on', 'off']).optional(),
  data_export_forbidden: z.unknown().optional(),
  ssl_enable: z.unknown().optional(),
  mdb_cluster_id: nstr.optional(),
  mdb_folder_id: nstr.optional(),
  connection_manager_cloud_id: nstr.optional(),
  connection_manager_connection_id: nstr.optional(),
  connection_manager_folder_id: nstr.optional(),
  connection_manager_delegation_is_set: z.boolean().nullable().optional(),
  version: z.number().int().positive(),
});

export const connectionSteps: Family = [
  {
    method: 'createConnection',
    request: 'ConnectionCreate (postgres)',
    response: 'CreateConnectionResult',
    // `postgres` requires host, name, port and dir_path; workbook_id places it in a workbook instead of the folder.
    body: (made) => ({
      type: 'postgres',
      name: 'Conformance orders',
      dir_path: '',
      workbook_id: made.workbook,
      host: 'pg.example.com',
      port: 6432,
      db_name: 'orders',
      username: 'reader',
      password: 'secret',
      description: 'Orders replica',
      raw_sql_level: 'subselect',
      cache_ttl_sec: 300,
      enforce_collate: 'auto',
    }),
    answer: loose({ id: str }),
    keep: (a, made) => {
      made.connection = a.id;
    },
  },
  {
    method: 'getConnection',
    request: 'inline {connectionId, workbookId, bindedDatasetId, rev_id}',
    response: 'ConnectionRead (postgres1)',
    body: (made) => ({ connectionId: made.connection, workbookId: made.workbook }),
    answer: postgresRead,
  },
  {
    method: 'updateConnection',
    request: 'inline {connectionId, data: ConnectionUpdate (postgres2)}',
    response: '{}',
    body: (made) => ({
      connectionId: made.connection,
      data: { host: 'pg-replica.example.com', port: 6432, name: 'Conformance orders', db_name: 'orders', username: 'reader', cache_ttl_sec: 600 },
    }),
    answer: Empty,
  },
];

export const connectionTeardown: Family = [
  {
    method: 'deleteConnection',
    request: 'inline {connectionId}',
    response: '{}',
    body: (made) => ({ connectionId: made.connection }),
    answer: Empty,
  },
];
