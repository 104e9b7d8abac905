// API version 1: the DataLens public API, the report methods and page-numbered getEntries.

import type { VersionSpec } from '../../core/contract-model/types.js';
import { datalensV1Methods } from '../datalens/index.js';
import { ENTRIES_LIST_OBJECTS, withObjects } from '../datalens/objects.js';
import { datasetAdditionsV1 } from './datasets.js';
import { getEntriesV1 } from './entries.js';
import { reportAdditionsV1, reportMethodsV1 } from './reports.js';

export const version1: VersionSpec = {
  version: 1,
  methods: { ...withObjects(datalensV1Methods), ...reportMethodsV1, getEntries: { ...getEntriesV1, objects: ENTRIES_LIST_OBJECTS } },
  changes: [],
  additions: [...reportAdditionsV1, ...datasetAdditionsV1],
};
