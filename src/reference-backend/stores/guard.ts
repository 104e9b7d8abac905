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
 * The version guard: a version-N client may not modify an object last saved under a newer version.
 * Callers run it, for every object a write touches, in the same synchronous step as the write it protects.
 */
export function assertWritableBy(object: { readonly version: number }, objectId: string, clientVersion: number): void {
  if (object.version <= clientVersion) return;
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
