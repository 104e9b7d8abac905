// API version 3 (the real DataLens version 3, released 2026-09-08): Wizard charts take the Wizard document format.
// (The dashboards of version 3 are added by the core-dash branch; the integrator merges the two lists.)

import type { VersionSpec } from '../../core/contract/types.js';
import { version2 } from '../v2/index.js';
import { wizardChartChangesV3, wizardChartMethodsV3 } from './wizard-charts.js';

export const version3: VersionSpec = {
  version: 3,
  methods: { ...version2.methods, ...wizardChartMethodsV3 },
  changes: [...wizardChartChangesV3],
};
