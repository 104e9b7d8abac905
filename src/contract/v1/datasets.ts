// Version 1 datasets: a compatible field shipped while version 1 was current, in the manner of reports' `description`.

import { fieldAdded, object } from '../../core/contract-model/builders.js';
import type { FieldAdded } from '../../core/contract-model/types.js';

/** Compatible, so no bump: datasets saved before it read `dataset.description` as "". */
export const datasetAdditionsV1: FieldAdded[] = [
  fieldAdded(object('dataset'), 'dataset.description', '', 'Datasets carry `dataset.description`; datasets saved before it read as "".'),
];
