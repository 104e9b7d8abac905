// API version 3 (the real DataLens version 3, released 2026-09-08): dashboards take the DashboardV2 contract, Wizard
// charts the Wizard document format, and the HTML page and entry lock methods are gone. Changes are a plain list:
// each family adds its own.

import type { VersionSpec } from '../../core/contract-model/types.js';
import { withAuditMode } from '../v2/audit-mode.js';
import { version2 } from '../v2/index.js';
import { dashboardChangesV3 } from './dashboards-changes.js';
// The custom dashboard migrations declared as edits of their object: plans may run them in one walk with the field changes.
import './dashboards-edits.js';
import { dashboardMethodsV3 } from './dashboards.js';
import { withRealMarksV3 } from './real-marks.js';
import { removedMethodsV3, withoutRemovedV3 } from './removed-methods.js';
import { wizardChartChangesV3, wizardChartMethodsV3 } from './wizard-charts.js';

export const version3: VersionSpec = {
  version: 3,
  // The getters rebuilt here keep the audit-mode header their version-2 specs declare.
  methods: withRealMarksV3(withoutRemovedV3({ ...version2.methods, ...withAuditMode({ ...dashboardMethodsV3, ...wizardChartMethodsV3 }) })),
  changes: [...dashboardChangesV3, ...wizardChartChangesV3, ...removedMethodsV3],
};
