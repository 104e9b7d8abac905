// The write guard every family shares: a version-N client may not modify or delete an object saved under a newer version.

import { BackendError } from '../shared/errors.js';

/** The fields every versioned object carries: the schema version it was last saved under, and who saved it when. */
export interface Stamped {
  version: number;
  createdBy: string;
  createdAt: string;
  updatedBy: string;
  updatedAt: string;
}

/**
 * What a write may touch: the client's version and, per object kind, the newest version it may still write
 * (x-dl-client-writes-through, which the gateway sends: kinds with no change since the client's version).
 */
export interface WriteAccess {
  readonly version: number;
  readonly through?: Readonly<Record<string, number>>;
}

const ENTRY_KINDS: Readonly<Record<string, string>> = { dash: 'dashboard', widget: 'chart', dataset: 'dataset', connection: 'connection' };

/** The contract's kind of a stored object (undefined when it has none: the client's own version applies). */
function kindOf(object: object): string | undefined {
  if ('scope' in object) return ENTRY_KINDS[String(object.scope)];
  if ('parentId' in object && 'collectionId' in object) return 'collection';
  if ('workbookId' in object && 'collectionId' in object) return 'workbook';
  if ('config' in object && 'id' in object) return 'report';
  return undefined;
}

/**
 * The version guard: a version-N client may not modify an object last saved under a newer version, unless the gateway
 * says the object's kind did not change up to that version. Callers run it, for every object a write touches, in the
 * same synchronous step as the write it protects.
 */
export function assertWritableBy(object: { readonly version: number }, objectId: string, access: number | WriteAccess): void {
  const clientVersion = typeof access === 'number' ? access : access.version;
  if (object.version <= clientVersion) return;
  const kind = typeof access === 'number' ? undefined : kindOf(object);
  const through = kind === undefined ? undefined : (access as WriteAccess).through?.[kind];
  if (through !== undefined && object.version <= through) return;
  throw new BackendError(
    'UNSUPPORTED_OBJECT_VERSION',
    `Object ${objectId} was saved under API version ${object.version}; a version-${clientVersion} client cannot modify it.`,
    { objectId, objectVersion: object.version, requestedVersion: clientVersion, minVersion: object.version },
  );
}

export const now = (): string => new Date().toISOString();

/** A new object's stamp: saved now by `actor` under `version`. */
export const stampNew = (actor: string, version: number): Stamped => {
  const at = now();
  return { version, createdBy: actor, createdAt: at, updatedBy: actor, updatedAt: at };
};

/** Re-stamps an object a write changed: the writer's version, actor and time. */
export function restamp(object: Stamped, actor: string, version: number): void {
  object.version = version;
  object.updatedBy = actor;
  object.updatedAt = now();
}

/** The one tenant this in-memory backend serves. */
export const TENANT_ID = 'tenant_reference';
