// API version 3 (the real DataLens version 3, released 2026-09-08): dashboards take the DashboardV2 contract and
// Wizard charts the Wizard document format. Changes are a plain list: each family adds its own.

import type { VersionSpec } from '../../core/contract-model/types.js';
import { withAuditMode } from '../v2/audit-mode.js';
import { version2 } from '../v2/index.js';
import { dashboardChangesV3 } from './dashboards-changes.js';
import { dashboardMethodsV3 } from './dashboards.js';
import { wizardChartChangesV3, wizardChartMethodsV3 } from './wizard-charts.js';

export const version3: VersionSpec = {
  version: 3,
  // The getters rebuilt here keep the audit-mode header their version-2 specs declare.
  methods: { ...version2.methods, ...withAuditMode({ ...dashboardMethodsV3, ...wizardChartMethodsV3 }) },
  changes: [...dashboardChangesV3, ...wizardChartChangesV3],
};
