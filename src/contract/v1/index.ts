// API version 1: the DataLens public API, the report methods and page-numbered getEntries.

import type { VersionSpec } from '../../core/contract/types.js';
import { datalensV1Methods } from '../datalens/index.js';
import { getEntriesV1 } from './entries.js';
import { reportAdditionsV1, reportMethodsV1 } from './reports.js';

export const version1: VersionSpec = {
  version: 1,
  methods: { ...datalensV1Methods, ...reportMethodsV1, getEntries: getEntriesV1 },
  changes: [],
  additions: reportAdditionsV1,
};
