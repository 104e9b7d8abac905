// The contract's own problems with its deprecations (VersionSpec.deprecations): an unknown method, a malformed
// path or date, a missing description or replacement. Part of the contract's load-time structure checks.

import { splitPath } from './field-path.js';
import type { Contract } from './types.js';

/** What is wrong with the contract's deprecations: each names its version, method and field. */
export function deprecationProblems(contract: Contract): string[] {
  const problems: string[] = [];
  for (const spec of contract.versions) {
    for (const d of spec.deprecations ?? []) {
      const where = `version ${spec.version}: deprecation of ${d.method}${d.path ? ` ${d.path}` : ''}`;
      if (!Object.hasOwn(spec.methods, d.method)) problems.push(`${where}: no method ${d.method} in this version`);
      if (!/^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(d.since) || Number.isNaN(Date.parse(d.since))) {
        problems.push(`${where}: since must be an ISO date or instant (got ${JSON.stringify(d.since)})`);
      }
      if (!d.description.trim()) problems.push(`${where}: needs a description (the changelog line)`);
      if (!d.replacement.trim()) problems.push(`${where}: needs a replacement`);
      if (d.path !== undefined) {
        try {
          splitPath(d.path);
        } catch (e) {
          problems.push(`${where}: ${(e as Error).message}`);
        }
      }
    }
  }
  return problems;
}
