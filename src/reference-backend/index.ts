// The reference backend's surface: an in-memory, latest-only test double of the BI service (it speaks only its contract's newest version, stamps what it saves with x-dl-client-api-version, refuses overwrites of newer objects; a newer head's renames are followed by head-bridge.ts).

import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { shippedContract } from '../contract/index.js';
import { loadContract } from '../core/contract-model/load.js';
import type { Contract } from '../core/contract-model/types.js';
import { DEMO_SEED } from './demo-seed.js';
import { bridged, headBridge } from './head-bridge.js';
import { methodsFor } from './methods/index.js';
import { olderFront } from './older-version.js';
import { createBackendServer, type RecordedRequest } from './server.js';
import { Store, type Seed } from './stores/index.js';

export type { RecordedRequest } from './server.js';
export type { Collection, Entry, EntryScope, Report, Seed, SeedCollection, SeedEntry, SeedReport, SeedWorkbook, Workbook } from './stores/index.js';
export { ENTRY_SCOPES } from './stores/index.js';
export { DEMO_COLLECTIONS, DEMO_ENTRIES, DEMO_REPORTS, DEMO_SEED, DEMO_WORKBOOKS } from './demo-seed.js';

export interface ReferenceBackendOptions {
  /** The contract whose newest version the backend speaks (default: the shipped contract). */
  contract?: Contract;
  /** Speak this (older) version of the contract instead of its newest: a backend at version b (older-version.ts). */
  apiVersion?: number;
  seed?: Seed;
  /** Default 1 MiB. */
  maxBodyBytes?: number;
}

export interface ReferenceBackend {
  readonly server: Server;
  /** Resolves to the base URL, e.g. http://127.0.0.1:PORT. Defaults: port 0, host 127.0.0.1. */
  listen(port?: number, host?: string): Promise<string>;
  /** Closes the server and every open socket; resolves once closed. */
  close(): Promise<void>;
  /** The last 1000 requests received (a snapshot, oldest first). */
  readonly requests: ReadonlyArray<RecordedRequest>;
}

const REQUEST_LOG_CAP = 1000;

export function createReferenceBackend(options: ReferenceBackendOptions = {}): ReferenceBackend {
  const { maxBodyBytes = 1024 * 1024 } = options;
  const contract = loadContract(options.contract ?? shippedContract);
  const headVersion = contract.head;
  const handlers = methodsFor(contract.byVersion.get(headVersion)!);
  // Refuses, as a ContractError, a head it cannot serve; renames above the handlers' version are followed both ways.
  const methods = bridged(handlers, headBridge(contract, new Set(handlers.keys())));
  const speaks = options.apiVersion ?? headVersion;
  if (!contract.byVersion.has(speaks) || speaks > headVersion) throw new Error(`apiVersion must be one of the contract's versions (${contract.versions.join(', ')}), got ${speaks}`);
  const older = speaks < headVersion ? olderFront(contract, speaks, methods) : undefined;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 0) throw new Error(`maxBodyBytes must be a non-negative integer, got ${maxBodyBytes}`);

  // Amortised cap: trimmed to the cap whenever it doubles; the getter returns only the last 1000.
  let log: RecordedRequest[] = [];
  const record = (request: RecordedRequest): void => {
    log.push(request);
    if (log.length >= 2 * REQUEST_LOG_CAP) log = log.slice(-REQUEST_LOG_CAP);
  };

  const store = new Store(speaks, options.seed);
  const server = createBackendServer({ headVersion: speaks, methods, maxBodyBytes, store, record, ...(older && { older }) });
  let closing: Promise<void> | undefined;

  return {
    server,
    get requests() {
      return log.slice(-REQUEST_LOG_CAP);
    },
    listen(port = 0, host = '127.0.0.1') {
      return new Promise<string>((resolve, reject) => {
        const onError = (error: Error): void => reject(error);
        server.once('error', onError);
        server.listen(port, host, () => {
          server.off('error', onError);
          closing = undefined;
          const { port: bound } = server.address() as AddressInfo;
          resolve(`http://${host.includes(':') ? `[${host}]` : host}:${bound}`);
        });
      });
    },
    close() {
      if (closing) return closing;
      if (!server.listening) return Promise.resolve();
      closing = new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

export interface RunningReferenceBackend {
  readonly url: string;
  readonly backend: ReferenceBackend;
  close(): Promise<void>;
}

/**
 * For the CLI and the demo: the shipped contract's head version, the demo seed, listening on BACKEND_HOST:BACKEND_PORT
 * (defaults 127.0.0.1:8081). Logging is the caller's job.
 */
export async function startReferenceBackendFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<RunningReferenceBackend> {
  const rawPort = env.BACKEND_PORT?.trim() || '8081';
  const port = Number(rawPort);
  if (!/^[0-9]{1,5}$/.test(rawPort) || port > 65535) throw new Error(`BACKEND_PORT must be an integer from 0 to 65535, got "${rawPort}"`);
  const host = env.BACKEND_HOST?.trim() || '127.0.0.1';
  const backend = createReferenceBackend({ seed: DEMO_SEED });
  const url = await backend.listen(port, host);
  return { url, backend, close: () => backend.close() };
}
