// The `operation` a US write answers with (a finished one here: this backend does the work at once).
// Shape: datalens-tech/datalens-ui src/shared/schema/us/schemas/operation/index.ts (datalensOperationSchema).

export function operationOf(id: string, actor: string): Record<string, unknown> {
  const seconds = String(Math.floor(Date.now() / 1000));
  return {
    id,
    description: 'reference-backend',
    createdBy: actor,
    createdAt: { seconds, nanos: 0 },
    modifiedAt: { seconds, nanos: 0 },
    metadata: {},
    done: true,
  };
}
