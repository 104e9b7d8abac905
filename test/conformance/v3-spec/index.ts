// The real version-3 spec as a scenario: every method's steps in the order their ids are made, the teardown last,
// and the report methods left out on purpose. Method list and component names: the paths of
// datalens-tech/datalens-sdk spec/yacloud.json
// (commit 021501bb6ccd3165eaa128155d91f67e01525fe9, info.version "3", 88 paths).

import { accessBindingSteps } from './access-bindings.js';
import { auditSteps } from './audit.js';
import { collectionSteps, collectionTeardown } from './collections.js';
import { connectionSteps, connectionTeardown } from './connections.js';
import { dashboardSteps, dashboardTeardown } from './dashboards.js';
import { datasetSteps, datasetTeardown } from './datasets.js';
import { editorSteps, editorTeardown } from './editor.js';
import { embedSteps, embedTeardown } from './embeds.js';
import { exportImportSteps } from './export-import.js';
import { folderSteps, folderTeardown } from './folders.js';
import { licenceSteps } from './licences.js';
import { navigationSteps } from './navigation.js';
import { qlSteps, qlTeardown } from './ql.js';
import type { Made, SpecStep } from './types.js';
import { wizardSteps, wizardTeardown } from './wizard.js';
import { workbookEntriesSteps, workbookSteps, workbookTeardown } from './workbooks.js';

export type { Made, SpecStep } from './types.js';

/** The spec's version (`info.version`, the `x-dl-api-version` const) and how many paths it has. */
export const SPEC_VERSION = 3;
export const SPEC_PATH_COUNT = 88;

/**
 * The real v3 report methods, left out: this product's reports are its own objects with their own rules (a
 * workbook, a config, object versions: src/contract/v1/reports.ts, src/contract/v2/reports-workbook-id.ts), not
 * real DataLens's slide reports (ReportV1, ReportData).
 */
export const EXCLUDED: Readonly<Record<string, string>> = {
  createReport: 'real CreateReportV1Args (slides, slideGroups, DashboardMeta) is not this product\'s report create (workbookId + config)',
  getReport: 'real GetReportV1Result answers {entry: ReportV1}; this product answers its own report object with its version stamp',
  updateReport: 'real UpdateReportV1Args needs mode, data (ReportData) and meta; this product\'s update takes its own report fields',
  deleteReport: 'real DeleteReportArgs is strict {entryId}; this product deletes its reports by its own report id',
};

/**
 * Where the shipped contract itself refuses a spec-shaped request (a gateway VALIDATION_ERROR): findings for the
 * contract's owners, expected to fail until fixed (the test then says to remove the entry).
 */
export const KNOWN_CONTRACT_GAPS: Readonly<Record<string, string>> = {};

/** The ids the scenario starts with: a folder key of its own (entries outside workbooks live under a key prefix). */
export const initialMade = (): Made => ({ folderKey: 'conformance-v3/' });

/** Every step, in order: things are made, read, changed and listed first, then deleted, the containers last. */
export const SCENARIO: readonly SpecStep[] = [
  ...collectionSteps,
  ...workbookSteps,
  ...connectionSteps,
  ...datasetSteps,
  ...editorSteps,
  ...qlSteps,
  ...wizardSteps,
  ...dashboardSteps,
  ...workbookEntriesSteps,
  ...navigationSteps,
  ...folderSteps,
  ...exportImportSteps,
  ...licenceSteps,
  ...embedSteps,
  ...auditSteps,
  ...accessBindingSteps,
  ...embedTeardown,
  ...dashboardTeardown,
  ...wizardTeardown,
  ...editorTeardown,
  ...qlTeardown,
  ...folderTeardown,
  ...datasetTeardown,
  ...connectionTeardown,
  ...workbookTeardown,
  ...collectionTeardown,
];
