// The answer components of the real version-3 spec that several families share, as zod, each named after its
// component. Source: datalens-tech/datalens-sdk spec/yacloud.json (commit 021501bb6ccd3165eaa128155d91f67e01525fe9),
// components/schemas/<name>. Objects without `additionalProperties: false` keep unknown fields (looseObject); the
// spec's `required` lists decide what is optional; `type: [x, "null"]` is nullable.

import { z } from 'zod';

export const loose = z.looseObject;
export const strict = z.strictObject;
const str = z.string();
const nstr = z.string().nullable();
const bool = z.boolean();
const record = z.record(z.string(), z.unknown());
const stringMap = z.record(z.string(), z.string());

/** EntryScope */
export const EntryScope = z.enum(['dash', 'report', 'widget', 'dataset', 'folder', 'connection']);

const time = loose({ seconds: str, nanos: z.number().optional() });
/** DatalensOperation */
export const DatalensOperation = loose({ id: str, description: str, createdBy: str, createdAt: time, modifiedAt: time, metadata: loose({}), done: bool });

/** Collection */
export const Collection = loose({
  collectionId: str,
  title: str,
  description: nstr,
  parentId: nstr,
  tenantId: str,
  createdBy: str,
  createdAt: str,
  updatedBy: str,
  updatedAt: str,
  meta: record,
});

/** CollectionPermissions */
export const CollectionPermissions = loose(
  Object.fromEntries(
    ['listAccessBindings', 'updateAccessBindings', 'createSharedEntry', 'createCollection', 'createWorkbook', 'limitedView', 'view', 'update', 'copy', 'move', 'delete'].map((k) => [k, bool]),
  ),
);

/** Workbook: `meta` is an open object whose `importId`, when present, is a string; `status` is optional. */
export const Workbook = loose({
  workbookId: str,
  collectionId: nstr,
  title: str,
  description: nstr,
  tenantId: str,
  meta: loose({ importId: str.optional() }),
  createdBy: str,
  createdAt: str,
  updatedBy: str,
  updatedAt: str,
  status: z.enum(['creating', 'deleting', 'active', 'deleted']).optional(),
});

/** WorkbookPermissions */
export const WorkbookPermissions = loose(
  Object.fromEntries(['listAccessBindings', 'updateAccessBindings', 'limitedView', 'view', 'update', 'copy', 'move', 'publish', 'embed', 'delete'].map((k) => [k, bool])),
);

/** EntryPermissions */
export const EntryPermissions = loose({ execute: bool, read: bool, edit: bool, admin: bool });

/** SharedEntryPermissions */
export const SharedEntryPermissions = loose(
  Object.fromEntries(
    ['listAccessBindings', 'updateAccessBindings', 'limitedView', 'view', 'update', 'copy', 'move', 'delete', 'createEntryBinding', 'createLimitedEntryBinding'].map((k) => [k, bool]),
  ),
);

/** EntryAnnotation */
export const EntryAnnotation = loose({ description: str.optional() }).nullable();

/** GetEntriesEntry (`isLocked` is `false` when present; a locked entry is a GetEntriesLockedEntry). */
export const GetEntriesEntry = loose({
  entryId: str,
  key: str,
  scope: str,
  type: str,
  meta: record.nullable(),
  createdAt: str,
  updatedAt: str,
  createdBy: str,
  updatedBy: str,
  savedId: str,
  publishedId: nstr,
  hidden: bool,
  workbookId: nstr,
  collectionId: nstr,
  isFavorite: bool,
  links: stringMap.nullable(),
  isLocked: z.literal(false).optional(),
  collectionTitle: nstr.optional(),
  workbookTitle: nstr.optional(),
  data: record.optional(),
  permissions: EntryPermissions.optional(),
});

/** GetEntriesLockedEntry */
export const GetEntriesLockedEntry = loose({ isLocked: z.literal(true), entryId: str, scope: str, type: str });

/** GetEntriesRelationsEntry */
export const GetEntriesRelationsEntry = loose({
  entryId: str,
  key: nstr,
  scope: EntryScope,
  type: str,
  createdAt: str,
  public: bool,
  tenantId: nstr,
  workbookId: nstr,
  collectionId: nstr,
  isLocked: bool.optional(),
  permissions: EntryPermissions.optional(),
  fullPermissions: SharedEntryPermissions.optional(),
});

/** GetWorkbookEntriesEntry */
export const GetWorkbookEntriesEntry = loose({
  entryId: str,
  scope: EntryScope,
  type: str,
  key: nstr,
  displayKey: nstr,
  createdBy: str,
  createdAt: str,
  updatedBy: str,
  updatedAt: str,
  savedId: nstr,
  publishedId: nstr,
  revId: str,
  meta: record.nullable(),
  hidden: bool.nullable(),
  workbookId: nstr,
  collectionId: nstr,
  tenantId: nstr,
  isFavorite: bool,
  isLocked: bool,
  mirrored: bool.nullable(),
  permissions: EntryPermissions.optional(),
});

/** StructureItemEntry (a shared dataset or connection listed in a collection). */
export const StructureItemEntry = loose({
  entity: z.literal('entry'),
  collectionId: str,
  updatedAt: str,
  workbookId: nstr,
  scope: z.enum(['dataset', 'connection']),
  type: str,
  key: str,
  entryId: str,
  displayKey: str,
  title: str,
  permissions: SharedEntryPermissions.optional(),
});

/** WorkbookTransferProcessStatus */
export const WorkbookTransferProcessStatus = z.enum(['pending', 'success', 'error']);
/** WorkbookTransferNotification */
export const WorkbookTransferNotification = loose({
  code: str,
  level: z.enum(['info', 'warning', 'critical']),
  message: str.optional(),
  entryId: str.optional(),
  scope: EntryScope.optional(),
  details: z.unknown().optional(),
});

/** EmbedSettings */
export const EmbedSettings = loose({ enableExport: bool.optional() });
/** Embed */
export const Embed = loose({
  embedId: str,
  title: str,
  embeddingSecretId: str,
  entryId: str,
  depsIds: z.array(str),
  unsignedParams: z.array(str),
  privateParams: z.array(str),
  createdBy: str,
  createdAt: str,
  updatedAt: str,
  updatedBy: str,
  publicParamsMode: bool,
  settings: EmbedSettings,
});
/** EmbeddingSecret */
export const EmbeddingSecret = loose({ embeddingSecretId: str, title: str, workbookId: str, createdBy: str, createdAt: str });

/** License */
export const License = loose({
  licenseId: str,
  meta: record,
  tenantId: str,
  userId: str,
  licenseType: z.literal('creator'),
  isActive: bool,
  expiresAt: str,
  createdBy: str,
  createdAt: str,
  updatedBy: str,
  updatedAt: str,
});
/** LicenseWithLastLogin */
export const LicenseWithLastLogin = License.extend({ lastLoginAt: nstr });
/** LicenseLimit: an object or null. */
export const LicenseLimit = loose({ type: z.enum(['regular', 'forced']), value: z.number(), startedAt: str, activeLicensesCount: z.number().nullable() }).nullable();
/** LicenseLimits */
export const LicenseLimits = loose({ current: LicenseLimit, next: LicenseLimit });

/** AuditEntry */
export const AuditEntry = loose({
  entryId: str,
  key: nstr,
  isDeleted: bool,
  workbookId: nstr,
  collectionId: nstr,
  scope: EntryScope,
  type: nstr,
  updatedAt: str,
  userId: str,
});

/** IamResourceSchema: an object or null, closed. */
const IamResourceSchema = strict({ id: str, type: str }).nullable();
/** IamAccessBinding (closed) */
const IamAccessBinding = strict({ roleId: str, inheritedFrom: IamResourceSchema });
/** IamAccessBindingSubject (closed) */
const IamAccessBindingSubject = strict({
  sub: str,
  subType: z.enum(['SUBJECT_TYPE_UNSPECIFIED', 'USER_ACCOUNT', 'SERVICE_ACCOUNT', 'GROUP', 'INVITEE']),
  email: str,
});
/** ListIamAccessBindingsResult (closed, as are its IamSubjectWithBindings) */
export const ListIamAccessBindingsResult = strict({
  subjectsWithBindings: z.array(strict({ subjectClaims: IamAccessBindingSubject, accessBindings: z.array(IamAccessBinding), inheritedAccessBindings: z.array(IamAccessBinding) })),
  nextPageToken: str,
});

/** DlsPermissionUnit: an object or null, every field optional. */
export const DlsPermissionUnit = loose({
  name: str.optional(),
  title: str.optional(),
  type: z.enum(['user', 'user-staff', 'user-system', 'group-system', 'group-staff-servicerole', 'group-staff-service', 'group-staff-wiki', 'group-staff-department']).optional(),
  link: str.optional(),
  icon: str.optional(),
}).nullable();
const extras = loose({ initial_on_create: bool.optional() }).nullable();
/** DlsPermissionParticipant */
const DlsPermissionParticipant = loose({ approver: DlsPermissionUnit, description: str, extras, kind: z.enum(['user', 'group']), name: str, requester: DlsPermissionUnit, subject: DlsPermissionUnit });
/** DlsPermissionPendingParticipant */
const DlsPermissionPendingParticipant = DlsPermissionParticipant.extend({ approver: z.null() });
const acl = <T extends z.ZodType>(item: T) => loose({ acl_adm: z.array(item).optional(), acl_edit: z.array(item).optional(), acl_execute: z.array(item).optional(), acl_view: z.array(item).optional() });
/** GetPermissionsResult */
export const GetPermissionsResult = loose({ editable: bool, pendingPermissions: acl(DlsPermissionPendingParticipant), permissions: acl(DlsPermissionParticipant) });

/** AccessExtSubjectClaims */
export const AccessExtSubjectClaims = loose({
  sub: str,
  subType: z.enum(['SUBJECT_TYPE_UNSPECIFIED', 'USER_ACCOUNT', 'GROUP', 'INVITEE', 'SERVICE_ACCOUNT', '_system']),
  email: str,
  name: str,
  givenName: str,
  familyName: str,
  preferredUsername: str,
});

/** MoveEntryResultEntry / RenameEntryResultEntry */
export const MoveEntryResultEntry = loose({ entryId: str, key: str, scope: str, type: str });
export const RenameEntryResultEntry = MoveEntryResultEntry.extend({ updatedAt: str, updatedBy: str });

/** The fields every entry answer of the chart and dashboard methods carries (EditorTableNode, DashboardV2, …). */
export const entryFields = {
  entryId: str,
  key: nstr,
  createdAt: str,
  createdBy: str,
  updatedAt: str,
  updatedBy: str,
  revId: str,
  savedId: str,
  publishedId: nstr,
  tenantId: str,
  hidden: bool,
  public: bool,
  workbookId: nstr,
  meta: record.nullable(),
  links: stringMap.nullable().optional(),
  annotation: EntryAnnotation.optional(),
};

/** One answer of the methods that take no arguments and answer an empty object (`{}` in the paths). */
export const Empty = loose({});

export { bool, nstr, record, str, stringMap };
