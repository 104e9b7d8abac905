// Version 2, the optional `x-dl-audit-mode: true` header on 13 getters: read as an auditor (the real spec declares
// it on these operations only). The gateway passes it to the backend as sent; the OpenAPI document declares it.
// Source: the real spec (spec-source.ts), paths /rpc/<method> parameters {in: header, name: x-dl-audit-mode,
// required: false, schema: {type: string, enum: ["true"]}}.

import type { MethodSpec } from '../../core/contract-model/types.js';

export const AUDIT_MODE_HEADER = 'x-dl-audit-mode';

/** The getters that take the header. */
export const AUDIT_MODE_METHODS = [
  'getCollection', 'getCollectionContent', 'getConnection', 'getDashboard', 'getDataset', 'getEditorChart', 'getEntries',
  'getEntriesRelations', 'getQLChart', 'getReport', 'getWizardChart', 'getWorkbook', 'getWorkbookEntries',
] as const;

const auditMode = { name: AUDIT_MODE_HEADER, description: 'Read as an auditor: `true` (optional).', values: ['true'] } as const;

/** `methods` with the header declared on the audit-mode getters it has. */
export function withAuditMode(methods: Readonly<Record<string, MethodSpec>>): Record<string, MethodSpec> {
  return Object.fromEntries(
    Object.entries(methods).map(([name, spec]) => [
      name,
      (AUDIT_MODE_METHODS as readonly string[]).includes(name) ? { ...spec, headers: [...(spec.headers ?? []), auditMode] } : spec,
    ]),
  );
}

