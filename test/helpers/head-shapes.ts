// Field names the head version gives, for tests that write head-shaped bodies: a newer head may rename them.

import { shippedContract } from '../../src/contract/index.js';

/** The name the head version gives a report's settings in createReport (`config` at v2). */
export const REPORT_CONTENT: string = (() => {
  const request = shippedContract.versions.at(-1)!.methods.createReport!.request as unknown as { shape: Record<string, unknown> };
  const names = Object.keys(request.shape).filter((name) => !['workbookId', 'description', 'legacyKey'].includes(name));
  if (names.length !== 1) throw new Error(`the head's createReport has no single settings field: ${names.join(', ')}`);
  return names[0]!;
})();
