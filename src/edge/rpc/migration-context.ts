// What a migration may know and do on behalf of one request: the client's version, who is calling, backend
// calls that carry the client's credentials and end when the client leaves, and the runtime's services.
// A class, not an object literal with a getter: such a literal kept whole requests alive until a full GC (BENCHMARKS.md).

import type { IncomingMessage } from 'node:http';
import type { ContractServices } from '../../core/contract-model/services.js';
import type { Json, MigrationContext } from '../../core/contract-model/types.js';
import type { Caller } from './client-id.js';
import type { Departure } from './departure.js';
import type { Runtime } from '../../ports/runtime.js';
import { setBackendVersion } from '../http/version-headers.js';

/** Headers of the client's request that migrations' own backend calls carry too. */
const PASSED_THROUGH = ['authorization', 'x-dl-org-id', 'x-dl-folderid', 'x-dl-tenantid'] as const;

export class RequestMigrationContext implements MigrationContext {
  private backendHeaders: Record<string, string> | undefined;
  private stateMap: Map<string, unknown> | undefined;
  /** Set when a migration reads more than the body and the client's version (answer-reuse.ts); cleared by the caller. */
  consulted = false;

  constructor(
    private readonly rt: Runtime,
    private readonly req: IncomingMessage,
    private readonly caller: Caller,
    private readonly requestId: string,
    private readonly departure: Departure,
    readonly clientVersion: number,
  ) {}

  /** Hashing the credential costs a little: only migrations that key caches by caller pay it. */
  get principal(): string {
    this.consulted = true;
    return this.caller.principal;
  }

  /** This generation's caches and lookups (on the prototype: nothing per request). */
  get services(): ContractServices {
    this.consulted = true;
    return this.rt.services;
  }

  get state(): Map<string, unknown> {
    this.consulted = true;
    return (this.stateMap ??= new Map());
  }

  /** A client that goes away ends the calls made on its behalf. */
  callBackend(method: string, body: Json): Promise<Json> {
    this.consulted = true;
    return this.rt.backend.call(method, body, (this.backendHeaders ??= this.passThroughHeaders()), this.departure.signal);
  }

  private passThroughHeaders(): Record<string, string> {
    const out: Record<string, string> = { 'x-request-id': this.requestId };
    setBackendVersion(out, this.rt.backendVersion, Math.min(this.clientVersion, this.rt.backendVersion));
    for (const name of PASSED_THROUGH) {
      const v = this.req.headers[name];
      if (typeof v === 'string') out[name] = v;
    }
    return out;
  }
}
