// API version 3 (real DataLens, 2026-09-08): dashboards take the DashboardV2 contract; Wizard charts change too
// (src/contract/v3/wizard-charts.ts). Changes are a plain list: each family adds its own.

import type { VersionSpec } from '../../core/contract/types.js';
import { version2 } from '../v2/index.js';
import { dashboardChangesV3 } from './dashboards-changes.js';
import { dashboardMethodsV3 } from './dashboards.js';

export const version3: VersionSpec = {
  version: 3,
  methods: { ...version2.methods, ...dashboardMethodsV3 },
  changes: [...dashboardChangesV3],
};
