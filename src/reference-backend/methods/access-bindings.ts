// Access bindings (version 2): list the roles held on a collection, a workbook or a shared entry (with those
// inherited from the collections above, when asked), and change them with deltas; an update answers the operation
// that applied it (finished: the access-binding store applies deltas at once). No binding is enforced here.
// Shapes: the real spec's components (src/contract/v2/access-bindings.ts).

import type { Binding, BindingOperation, ResourceType } from '../stores/access-bindings.js';
import type { Store } from '../stores/index.js';
import { actorOf, fromContract, type Args, type MethodHandler } from './context.js';
import { pageOf } from './paging.js';

/** USAccessBindingSubject type → IamAccessBindingSubject subType. */
const SUB_TYPES: Readonly<Record<string, string>> = {
  userAccount: 'USER_ACCOUNT',
  federatedUser: 'USER_ACCOUNT',
  serviceAccount: 'SERVICE_ACCOUNT',
  group: 'GROUP',
  invitee: 'INVITEE',
  system: 'SUBJECT_TYPE_UNSPECIFIED',
};

type Resource = { readonly type: ResourceType; readonly id: string };

/** The collections above a resource, nearest first (where its inherited bindings come from). */
function ancestors(store: Store, resource: Resource): Resource[] {
  let collectionId: string | null = null;
  if (resource.type === 'collection') collectionId = store.collections.require(resource.id).parentId;
  if (resource.type === 'workbook') collectionId = store.workbooks.require(resource.id).collectionId;
  if (resource.type === 'entry') collectionId = store.entries.require(resource.id).collectionId;
  return collectionId === null ? [] : store.collections.breadcrumbs(collectionId).reverse().map((c) => ({ type: 'collection', id: c.collectionId }));
}

function list(store: Store, resource: Resource, args: Args): Record<string, unknown> {
  const own = store.accessBindings.of(resource.type, resource.id).map((b) => ({ binding: b, from: null as Resource | null }));
  const inherited = args.getInheritedBindings === true
    ? ancestors(store, resource).flatMap((r) => store.accessBindings.of(r.type, r.id).map((b) => ({ binding: b, from: r as Resource | null })))
    : [];
  const subjects = new Map<string, { subject: Binding['subject']; own: typeof own; inherited: typeof own }>();
  for (const [kind, rows] of [['own', own], ['inherited', inherited]] as const) {
    for (const row of rows) {
      const key = `${row.binding.subject.type}:${row.binding.subject.id}`;
      const entry = subjects.get(key) ?? { subject: row.binding.subject, own: [], inherited: [] };
      entry[kind].push(row);
      subjects.set(key, entry);
    }
  }
  const rows = [...subjects.values()].map((s) => ({
    subjectClaims: { sub: s.subject.id, subType: SUB_TYPES[s.subject.type] ?? 'SUBJECT_TYPE_UNSPECIFIED', email: s.subject.id.includes('@') ? s.subject.id : '' },
    accessBindings: s.own.map((r) => ({ roleId: r.binding.roleId, inheritedFrom: null })),
    inheritedAccessBindings: s.inherited.map((r) => ({ roleId: r.binding.roleId, inheritedFrom: r.from })),
  }));
  const { pageToken, pageSize, ...query } = args;
  const page = pageOf(rows, query, pageToken, typeof pageSize === 'number' ? pageSize : 100);
  return { subjectsWithBindings: page.items, nextPageToken: page.nextPageToken ?? '' };
}

/** The DatalensOperation an update answers with. */
function operationView(op: BindingOperation): Record<string, unknown> {
  const seconds = String(Math.floor(op.createdAt.getTime() / 1000));
  const time = { seconds, nanos: (op.createdAt.getTime() % 1000) * 1_000_000 };
  return {
    id: op.id,
    description: `Update access bindings of ${op.resource.type} ${op.resource.id}`,
    createdBy: op.createdBy,
    createdAt: time,
    modifiedAt: time,
    metadata: { [`${op.resource.type}Id`]: op.resource.id },
    done: op.done,
  };
}

export const accessBindingMethods: Record<string, MethodHandler> = {
  listCollectionAccessBindings: fromContract('listCollectionAccessBindings', (args: Args, { store }) => {
    store.collections.require(args.collectionId);
    return list(store, { type: 'collection', id: args.collectionId }, args);
  }),
  updateCollectionAccessBindings: fromContract('updateCollectionAccessBindings', (args: Args, ctx) => {
    ctx.store.collections.require(args.collectionId);
    return operationView(ctx.store.accessBindings.update('collection', args.collectionId, args.deltas, actorOf(ctx)));
  }),
  listWorkbookAccessBindings: fromContract('listWorkbookAccessBindings', (args: Args, { store }) => {
    store.workbooks.require(args.workbookId);
    return list(store, { type: 'workbook', id: args.workbookId }, args);
  }),
  updateWorkbookAccessBindings: fromContract('updateWorkbookAccessBindings', (args: Args, ctx) => {
    ctx.store.workbooks.require(args.workbookId);
    return operationView(ctx.store.accessBindings.update('workbook', args.workbookId, args.deltas, actorOf(ctx)));
  }),
  listSharedEntryAccessBindings: fromContract('listSharedEntryAccessBindings', (args: Args, { store }) => {
    store.entries.require(args.entryId);
    return list(store, { type: 'entry', id: args.entryId }, args);
  }),
};
