// The connection methods of the DataLens public API v1.
//
// Sources: github.com/datalens-tech/datalens-ui (commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8),
//   src/shared/schema/bi/schemas/connections.ts (get, update and delete are strict; the connection bodies are the
//   backend's per-connector ConnectionCreate/ConnectionUpdate/ConnectionRead, left open here).

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, empty, id, method, nullableId, open, record, strict, text } from './common.js';

/** ConnectionRead: connector-specific fields around an id, a type and a name. */
const connection = answer({ id: z.string(), type: z.string(), name: z.string().optional() });

export const connectionMethods: Record<string, MethodSpec> = {
  getConnection: method(
    'Returns a connection.',
    strict({ connectionId: id, workbookId: nullableId.optional(), bindedDatasetId: nullableId.optional(), rev_id: text }),
    connection,
  ),
  createConnection: method(
    'Creates a connection; the body is the connector-specific connection (its `type`), in a folder or a workbook.',
    open({ type: text, name: text, dir_path: text, workbook_id: nullableId.optional() }),
    answer({ id: z.string() }),
  ),
  // The answer is empty: src/shared/schema/bi/types/connections.ts, UpdateConnectionResponse.
  updateConnection: method('Replaces the settings of a connection.', strict({ connectionId: id, data: record.optional() }) /* data optional: the real /1/json/ requires only connectionId */, empty),
  deleteConnection: method('Deletes a connection.', strict({ connectionId: id }), empty),
};
