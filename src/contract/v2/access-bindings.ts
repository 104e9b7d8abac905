// Version 2, access bindings: who holds which role on a collection, a workbook or a shared entry, and the changes
// to them (an update is a long-running operation).
// Source: the real spec (spec-source.ts), components ListCollectionAccessBindingsArgs, ListWorkbookAccessBindingsArgs,
// ListSharedEntryAccessBindingsArgs (strict), ListIamAccessBindingsResult, IamSubjectWithBindings, IamAccessBinding,
// IamAccessBindingSubject, IamResourceSchema, UpdateCollectionAccessBindingsArgs, UpdateWorkbookAccessBindingsArgs
// (open), USAccessBindingDelta, USAccessBinding, USAccessBindingSubject; the updates answer DatalensOperation.

import { z } from 'zod';
import type { MethodSpec } from '../../core/contract-model/types.js';
import { answer, id, method, open, operation, strict } from '../datalens/common.js';

/** USAccessBindingSubject types. */
export const SUBJECT_TYPES = ['system', 'userAccount', 'federatedUser', 'serviceAccount', 'group', 'invitee'] as const;

/** USAccessBindingDelta: add or remove one role of one subject. */
export const accessBindingDelta = open({
  action: z.enum(['ADD', 'REMOVE']),
  accessBinding: open({ roleId: z.string(), subject: open({ id: z.string(), type: z.enum(SUBJECT_TYPES) }) }),
});

/** IamAccessBinding: a role, and where it is inherited from (null: set here). */
const iamBinding = answer({ roleId: z.string(), inheritedFrom: answer({ id: z.string(), type: z.string() }).nullable() });

/** ListIamAccessBindingsResult. */
const bindingsList = answer({
  subjectsWithBindings: z.array(
    answer({
      subjectClaims: answer({
        sub: z.string(),
        subType: z.enum(['SUBJECT_TYPE_UNSPECIFIED', 'USER_ACCOUNT', 'SERVICE_ACCOUNT', 'GROUP', 'INVITEE']),
        email: z.string(),
      }),
      accessBindings: z.array(iamBinding),
      inheritedAccessBindings: z.array(iamBinding),
    }),
  ),
  nextPageToken: z.string(),
});

const paging = { getInheritedBindings: z.boolean().optional(), pageSize: z.number().optional(), pageToken: z.string().optional() };

export const accessBindingMethods: Record<string, MethodSpec> = {
  listCollectionAccessBindings: method('Lists the subjects with roles on a collection.', strict({ collectionId: z.string(), ...paging }), bindingsList),
  updateCollectionAccessBindings: method(
    'Adds or removes roles on a collection; answers the operation applying them.',
    open({ collectionId: id, deltas: z.array(accessBindingDelta) }),
    operation,
  ),
  listWorkbookAccessBindings: method('Lists the subjects with roles on a workbook.', strict({ workbookId: z.string(), ...paging }), bindingsList),
  updateWorkbookAccessBindings: method(
    'Adds or removes roles on a workbook; answers the operation applying them.',
    open({ workbookId: id, deltas: z.array(accessBindingDelta) }),
    operation,
  ),
  listSharedEntryAccessBindings: method('Lists the subjects with roles on a shared entry.', strict({ entryId: z.string(), ...paging }), bindingsList),
};
