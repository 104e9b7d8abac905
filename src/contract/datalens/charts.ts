// The QL and Wizard chart methods of the DataLens public API v1.
//
// Sources: github.com/datalens-tech/datalens-ui (commit f581b7c31d6e9189ebeb1e1632b5fe7570534fb8),
//   get/delete: src/shared/schema/mix/schemas/{ql,wizard}.ts (strict);
//   create/update: src/shared/schema/mix/actions/{ql,wizard}/{create,update}-*-chart.ts (not strict);
//   the key-or-workbook rule of create: src/shared/zod-schemas/entry.ts (the backend enforces it).

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { annotation, branch, empty, flag, id, method, nullableId, open, record, storedEntry, strict, text, updateMode } from './common.js';

/** The chart methods of one template: `ql` for QL charts, `datalens` for Wizard charts. */
function chartMethods(kind: 'QL' | 'Wizard', template: 'ql' | 'datalens', label: string): Record<string, MethodSpec> {
  const chart = storedEntry.extend({ scope: z.literal('widget') });
  return {
    [`get${kind}Chart`]: method(
      `Returns a ${label}.`,
      strict({
        chartId: id,
        workbookId: nullableId.optional(),
        revId: text,
        includePermissions: flag,
        includeLinks: flag,
        includeFavorite: flag,
        branch: branch.optional(),
      }),
      chart,
    ),
    [`create${kind}Chart`]: method(
      `Creates a ${label}, in a folder (\`key\`) or a workbook (\`workbookId\` and \`name\`).`,
      open({
        template: z.literal(template),
        annotation: annotation.optional(),
        data: record,
        key: text,
        workbookId: text,
        name: text,
      }),
      chart,
    ),
    [`update${kind}Chart`]: method(
      `Saves or publishes a new revision of a ${label}.`,
      open({ entryId: id, template: z.literal(template), annotation: annotation.optional(), mode: updateMode, data: record }),
      chart,
    ),
    [`delete${kind}Chart`]: method(`Deletes a ${label}.`, strict({ chartId: id }), empty),
  };
}

export const qlChartMethods = chartMethods('QL', 'ql', 'QL chart');
export const wizardChartMethods = chartMethods('Wizard', 'datalens', 'Wizard chart');
