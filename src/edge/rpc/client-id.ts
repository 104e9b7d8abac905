// Who is calling, for metrics, logs and the per-caller caches of migrations: the org id when sent, and a
// hash of the credential. The credential itself never leaves this object, and is hashed at most once
// per request, only when something asks.

import { hash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const ORG_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export class Caller {
  private credentialHash: string | undefined;

  constructor(private readonly headers: IncomingHttpHeaders) {}

  /** sha256 of the credential in hex, or '' without one. */
  private hashed(): string {
    if (this.credentialHash === undefined) {
      const credential = this.headers.authorization;
      this.credentialHash = typeof credential === 'string' && credential ? hash('sha256', credential, 'hex') : '';
    }
    return this.credentialHash;
  }

  /** For metrics and logs: `org:<x-dl-org-id>`, `cred:<12 hex of sha256(credential)>`, or `anonymous`. */
  get id(): string {
    const org = this.headers['x-dl-org-id'];
    if (typeof org === 'string' && ORG_ID.test(org)) return `org:${org}`;
    const hashed = this.hashed();
    return hashed ? `cred:${hashed.slice(0, 12)}` : 'anonymous';
  }

  /** For preview access: every name the metrics could give this caller (its org id and its credential's hash), either may be listed. */
  previewIds(): string[] {
    const ids: string[] = [];
    const org = this.headers['x-dl-org-id'];
    if (typeof org === 'string' && ORG_ID.test(org)) ids.push(`org:${org}`);
    const hashed = this.hashed();
    if (hashed) ids.push(`cred:${hashed.slice(0, 12)}`);
    return ids;
  }

  /** For per-caller caches: credential and org together, so that two callers never share an entry. */
  get principal(): string {
    return `${this.hashed().slice(0, 32)}:${String(this.headers['x-dl-org-id'] ?? '')}`;
  }
}
