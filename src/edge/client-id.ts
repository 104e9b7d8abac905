// Who is calling, for metrics and logs: the org id when sent, else a short hash of the credential.
// The credential itself never leaves this function.

import { hash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const ORG_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function clientIdOf(headers: IncomingHttpHeaders): string {
  const org = headers['x-dl-org-id'];
  if (typeof org === 'string' && ORG_ID.test(org)) return `org:${org}`;
  const credential = headers.authorization;
  if (typeof credential === 'string' && credential) {
    return `cred:${hash('sha256', credential, 'hex').slice(0, 12)}`;
  }
  return 'anonymous';
}
