// The versioned API contract as data: versions, their methods and schemas, and the changes between them.

import type { z } from 'zod';
import type { ContractServices } from './services.js';

/**
 * A dotted path inside a JSON body, e.g. "data.key". `*` steps into every element of an array, `*[key=value]` only
 * into the elements whose `key` is `value` (one member of a tagged union; `*[type=a|b]` for several members), e.g.
 * "data.tabs.*.items.*[type=title].data.textColor". Paths of a rename or move share their array steps.
 */
export type FieldPath = string;

/**
 * What a field change applies to: one method's request or response body, or every object of a kind: wherever
 * the kind appears, in requests (migrated up, located by `MethodSpec.requestObjects`) and in answers (migrated
 * down, located by `MethodSpec.objects`), at every version.
 */
export type Target =
  | { readonly request: string }
  | { readonly response: string }
  | { readonly object: string };

/** What a migration may use besides the body: the request's facts, the backend, and the runtime's services. */
export interface MigrationContext {
  /** The client's version for this request. */
  readonly clientVersion: number;
  /** Calls the backend at the version it speaks (upstream.apiVersion); resolves to the parsed JSON of a 2xx answer, throws otherwise. */
  readonly callBackend: (method: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** Identifies the caller (a hash of the credential and org) so per-user caches never mix users. */
  readonly principal: string;
  /** Shared between the request and response migrations of one request. */
  readonly state: Map<string, unknown>;
  /** Caches and lookups built from the operator's settings (so a version stays a plain value). */
  readonly services: ContractServices;
}

export type Json = Record<string, unknown>;
export type BodyMigration = (body: Json, ctx: MigrationContext) => Json | Promise<Json>;

interface ChangeBase {
  /** Required: becomes the changelog line. */
  readonly description: string;
}

/** Compatible: a field appears with a default; old requests and old objects get the default. */
export interface FieldAdded extends ChangeBase {
  readonly kind: 'fieldAdded';
  readonly target: Target;
  readonly path: FieldPath;
  readonly default: unknown;
}
export interface FieldRemoved extends ChangeBase {
  readonly kind: 'fieldRemoved';
  readonly target: Target;
  readonly path: FieldPath;
  /** What an old client reads for the removed field (responses and objects). */
  readonly downDefault?: unknown;
}
export interface FieldRenamed extends ChangeBase {
  readonly kind: 'fieldRenamed';
  readonly target: Target;
  /** Also covers a move to another place: paths may differ in depth, but share their array steps. */
  readonly from: FieldPath;
  readonly to: FieldPath;
  /** When the value changes form on the way (one colour → a themed pair): each direction's conversion. */
  readonly convert?: ValueConversion;
}
/**
 * A value's conversion between two versions. `up` also sees what the newer field already holds (undefined when
 * absent) and may keep it; `down` returns undefined to leave the old field out.
 */
export interface ValueConversion {
  readonly up: (value: unknown, existing: unknown) => unknown;
  readonly down: (value: unknown) => unknown;
}
export interface FieldToArray extends ChangeBase {
  readonly kind: 'fieldToArray';
  readonly target: Target;
  readonly path: FieldPath;
}
export interface MethodAdded extends ChangeBase {
  readonly kind: 'methodAdded';
  readonly method: string;
}
export interface MethodRemoved extends ChangeBase {
  readonly kind: 'methodRemoved';
  readonly method: string;
  /** How an old client's call is served once the method is gone: another method plus body migrations. */
  readonly replacedBy?: { readonly method: string; readonly request?: BodyMigration; readonly response?: BodyMigration };
  /** Instead of replacedBy: the backend still serves it, by name, to the versions that have it; their calls go up unchanged. */
  readonly keptByBackend?: true;
}
/** The escape hatch: arbitrary (async) migrations; `covers` says which schema differences it accounts for. */
export interface CustomChange extends ChangeBase {
  readonly kind: 'custom';
  readonly compatible: boolean;
  readonly covers: readonly { readonly target: Target; readonly path: FieldPath }[];
  readonly request?: Readonly<Record<string, BodyMigration>>;
  readonly response?: Readonly<Record<string, BodyMigration>>;
  readonly object?: Readonly<Record<string, BodyMigration>>;
  /**
   * Per kind in `object`: the way back up (the object as an older client reads it → the head's shape). The guard's
   * round trip needs it to serve an object saved under a newer version; without it such objects are refused.
   */
  readonly objectUp?: Readonly<Record<string, BodyMigration>>;
  /**
   * Per method in `request`: the way down, for a backend below this version (the newer request → the older one).
   * Throws VERSION_TRANSLATION_FAILED (422) when a value cannot be carried down.
   */
  readonly requestDown?: Readonly<Record<string, BodyMigration>>;
  /** Per method in `response`: the way up, for a backend below this version (the older answer → the newer one). */
  readonly responseUp?: Readonly<Record<string, BodyMigration>>;
  /**
   * Why this change has no way back for some migration it declares: the methods it touches are then not served by a
   * backend below its version (METHOD_NOT_SERVED_BY_BACKEND, with this reason).
   */
  readonly oneWay?: string;
}

export type Change = FieldAdded | FieldRemoved | FieldRenamed | FieldToArray | MethodAdded | MethodRemoved | CustomChange;

/** Where a method's response holds versioned objects (with an id and a version stamp). `*` walks an array. */
export interface ObjectLocation {
  readonly type: string;
  readonly path: FieldPath; // "" = the body itself, "entries.*" = each element of entries
  /** The field holding the object's id (default "id"). */
  readonly idField?: string;
  /**
   * The field holding the API version the object was saved under (default "version"); another name where the real
   * answer's `version` means something else (docs/reference/object-versions.md).
   */
  readonly versionField?: string;
  /**
   * Set on a listing's rows (getEntries, getWorkbooksList, …): rows are migrated like the object, but a row saved
   * under a newer version is still served (its `version` tells the client) unless it carries `content`, the
   * object's own content (e.g. getEntries' `data` with includeData), which refuses the answer like a read does.
   * docs/reference/object-versions.md says why.
   */
  readonly listing?: { readonly content?: FieldPath };
}

/** Where a method's request carries an object of a kind (e.g. createDashboard's `entry`): `object(kind)` changes migrate it up. */
export interface RequestObjectLocation {
  readonly type: string;
  readonly path: FieldPath;
}

export interface MethodSpec {
  readonly description?: string;
  readonly request: z.ZodType;
  readonly response: z.ZodType;
  /** Where the answer holds versioned objects: guarded (409) and migrated down. */
  readonly objects?: readonly ObjectLocation[];
  /** Where the request carries objects of a kind: migrated up by the kind's changes (never guarded). */
  readonly requestObjects?: readonly RequestObjectLocation[];
  /** The real method takes no arguments (or only optional ones): an empty body, with no content type needed, reads as `{}`. */
  readonly emptyBody?: boolean;
  /** Optional request headers the real method declares (passed to the backend as sent), for the OpenAPI document. */
  readonly headers?: readonly { readonly name: string; readonly description: string; readonly values: readonly string[] }[];
  /** The real spec calls the method experimental: its document's summary says so. */
  readonly experimental?: boolean;
  /** The real spec marks the operation `x-mcp-disabled`: MCP servers (@datalens-tech/mcp) offer no command for it. */
  readonly mcpDisabled?: boolean;
}

export interface VersionSpec {
  readonly version: number;
  readonly methods: Readonly<Record<string, MethodSpec>>;
  /** Changes that lead from the previous version to this one (empty for the first). */
  readonly changes: readonly Change[];
  /** Compatible changes shipped while this version was current (no bump). */
  readonly additions?: readonly FieldAdded[];
  /** Methods and request fields deprecated inside this version (and the later ones that still have them), from a date. */
  readonly deprecations?: readonly Deprecation[];
}

/**
 * A method, or one of its request fields, deprecated from a date inside a supported version: still served, but
 * answers to calls that use it carry `Deprecation` (RFC 9745), the documents mark it and the changelog lists it.
 */
export interface Deprecation {
  readonly method: string;
  /** A request field's path (this file's path syntax); absent: the whole method. */
  readonly path?: FieldPath;
  /** From when: an ISO date ("2026-12-01", midnight UTC) or instant. */
  readonly since: string;
  /** What to use instead (a method, a field, or a sentence). */
  readonly replacement: string;
  /** Required: becomes the changelog line. */
  readonly description: string;
}

export interface Contract {
  /** Ascending, consecutive. */
  readonly versions: readonly VersionSpec[];
}
