// Version 2 of the shipped contract serves every method of the real DataLens Public API version 2, and the
// methods added to complete it are compatible additions with the real spec's strictness.

import { describe, expect, it } from 'vitest';
import { shippedContract } from '../../../src/contract/index.js';

/** The real v2 method list: https://api.datalens.tech/json/ on 2026-07-27 (95 methods; names only). */
const REAL_V2 = [
  'assignLicenses', 'batchListMembers', 'cancelWorkbookExport', 'createCollection', 'createConnection',
  'createDashboard', 'createDataset', 'createEditorChart', 'createEmbed', 'createEmbeddingSecret', 'createEntryLock',
  'createFolder', 'createHtmlPage', 'createQLChart', 'createReport', 'createWizardChart', 'createWorkbook',
  'deleteCollection', 'deleteCollections', 'deleteConnection', 'deleteDashboard', 'deleteDataset',
  'deleteEditorChart', 'deleteEmbed', 'deleteEmbeddingSecret', 'deleteEntryLock', 'deleteFolder', 'deleteHtmlPage',
  'deleteQLChart', 'deleteReport', 'deleteWizardChart', 'deleteWorkbook', 'deleteWorkbooks', 'dlsSuggest',
  'extendEntryLock', 'getAuditEntriesUpdates', 'getAuditEntryPermissionsForUser', 'getCollection',
  'getCollectionBreadcrumbs', 'getCollectionContent', 'getCollectionsByIds', 'getConnection', 'getDashboard',
  'getDataset', 'getEditorChart', 'getEmbeddingSecret', 'getEntries', 'getEntriesPermissions', 'getEntriesRelations',
  'getHtmlPage', 'getLicenses', 'getLicensesLimit', 'getPermissions', 'getPermissionsBulk', 'getQLChart',
  'getReport', 'getRootCollectionPermissions', 'getWizardChart', 'getWorkbook', 'getWorkbookEntries',
  'getWorkbookExportResult', 'getWorkbookExportStatus', 'getWorkbookImportStatus', 'getWorkbooksByIds',
  'getWorkbooksList', 'listCollectionAccessBindings', 'listDirectory', 'listEmbeddingSecrets', 'listEmbeds',
  'listSharedEntryAccessBindings', 'listWorkbookAccessBindings', 'modifyPermissions', 'moveCollection',
  'moveCollections', 'moveFolderEntry', 'moveWorkbook', 'moveWorkbooks', 'renameEntry', 'setLicenseLimit',
  'startWorkbookExport', 'startWorkbookImport', 'updateCollection', 'updateCollectionAccessBindings',
  'updateConnection', 'updateDashboard', 'updateDataset', 'updateEditorChart', 'updateEmbed', 'updateHtmlPage',
  'updateQLChart', 'updateReport', 'updateWizardChart', 'updateWorkbook', 'updateWorkbookAccessBindings',
  'validateDataset',
];

const v2 = shippedContract.versions.find((v) => v.version === 2)!;
const ok = (method: string, body: unknown) => v2.methods[method]!.request.safeParse(body).success;

describe('version 2 against the real method list', () => {
  it('has all 95 real methods', () => {
    expect(REAL_V2).toHaveLength(95);
    expect(REAL_V2.filter((m) => !Object.hasOwn(v2.methods, m))).toEqual([]);
  });

  it('adds each new method with a methodAdded change, so v1 clients are unaffected', () => {
    const added = new Set(v2.changes.flatMap((c) => (c.kind === 'methodAdded' ? [c.method] : [])));
    for (const m of ['assignLicenses', 'createEmbed', 'getAuditEntriesUpdates', 'updateWorkbookAccessBindings', 'listDirectory']) expect(added.has(m), m).toBe(true);
  });
});

describe('the new methods’ requests, as the real spec components define them', () => {
  it('AssignLicensesArgs: 1 to 1000 user ids, other fields passed on', () => {
    expect(ok('assignLicenses', { userIds: ['u1'], extra: 1 })).toBe(true);
    expect(ok('assignLicenses', { userIds: [] })).toBe(false);
  });

  it('GetLicensesArgs is strict, with limit 1..200', () => {
    expect(ok('getLicenses', {})).toBe(true);
    expect(ok('getLicenses', { limit: 200, status: 'expiring', userIds: ['u1'] })).toBe(true);
    expect(ok('getLicenses', { limit: 201 })).toBe(false);
    expect(ok('getLicenses', { unknown: true })).toBe(false);
  });

  it('SetLicenseLimitArgs: 1..10000', () => {
    expect(ok('setLicenseLimit', { value: 10_000 })).toBe(true);
    expect(ok('setLicenseLimit', { value: 0 })).toBe(false);
  });

  it('CreateEmbedArgs requires every field of the embed', () => {
    const body = { title: 't', embeddingSecretId: 's', entryId: 'e', depsIds: [], unsignedParams: [], privateParams: [], publicParamsMode: false, settings: {} };
    expect(ok('createEmbed', body)).toBe(true);
    const { settings: _, ...withoutSettings } = body;
    expect(ok('createEmbed', withoutSettings)).toBe(false);
  });

  it('the access-binding listings are strict; the updates take ADD/REMOVE deltas', () => {
    expect(ok('listWorkbookAccessBindings', { workbookId: 'w', pageSize: 10 })).toBe(true);
    expect(ok('listWorkbookAccessBindings', { workbookId: 'w', page: 1 })).toBe(false);
    const delta = { action: 'ADD', accessBinding: { roleId: 'datalens.workbooks.viewer', subject: { id: 'u1', type: 'userAccount' } } };
    expect(ok('updateWorkbookAccessBindings', { workbookId: 'w', deltas: [delta] })).toBe(true);
    expect(ok('updateWorkbookAccessBindings', { workbookId: 'w', deltas: [{ ...delta, action: 'SET' }] })).toBe(false);
  });

  it('CreateFolderArgs and GetPermissionsBulkArgs are strict', () => {
    expect(ok('createFolder', { key: 'reports/', initialPermissions: { acl_view: [{ subject: 'u1', comment: 'c' }] } })).toBe(true);
    expect(ok('createFolder', { key: 'reports/', workbookId: 'w' })).toBe(false);
    expect(ok('getPermissionsBulk', { entryIds: ['e'] })).toBe(true);
    expect(ok('getPermissionsBulk', { entryIds: [] })).toBe(false);
  });

  it('GetAuditEntriesUpdatesArgs requires from and refuses unknown fields', () => {
    expect(ok('getAuditEntriesUpdates', { from: '2026-01-01T00:00:00Z', limit: 10 })).toBe(true);
    expect(ok('getAuditEntriesUpdates', {})).toBe(false);
    expect(ok('getAuditEntriesUpdates', { from: '2026-01-01T00:00:00Z', scope: 'dash' })).toBe(false);
  });
});
