// Field names the head version gives, for tests that write head-shaped bodies: a newer head may rename them.

import { shippedContract } from '../../src/contract/index.js';
import { object, request } from '../../src/core/contract-model/builders.js';
import { loadContract } from '../../src/core/contract-model/load.js';
import type { Target } from '../../src/core/contract-model/types.js';
import { headPath } from '../../src/reference-backend/head-bridge.js';

const CONTRACT = loadContract(shippedContract);

/** The head's name for what version 3 (the reference backend's own version) calls `name` on `target`. */
export const headName = (target: Target, name: string): string => headPath(CONTRACT, target, name);

/** The head's name for a field of an object kind, the same in the requests that write it and on the object read. */
function sameInRequests(kind: string, methods: readonly string[], name: string): string {
  const read = headName(object(kind), name);
  const sent = methods.map((m) => headName(request(m), name)).filter((n) => n !== read);
  if (sent.length) throw new Error(`the head names ${kind}s' ${name} ${read}, but ${sent.join(', ')} in ${methods.join(', ')}: this helper expects one name`);
  return read;
}

/** The name the head version gives a report's settings (`config` at v2 and v3), sent and read. */
export const REPORT_CONTENT = sameInRequests('report', ['createReport', 'updateReport'], 'config');
/** The name the head version gives a report's description, sent and read. */
export const REPORT_DESCRIPTION = sameInRequests('report', ['createReport', 'updateReport'], 'description');
