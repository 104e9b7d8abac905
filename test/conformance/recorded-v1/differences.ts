// The one list of differences from the real DataLens's recorded version-1 answers that are deliberate, each with
// its reason. The replay fails on any difference not listed here, and on a listed one that no longer occurs.

export interface DeliberateDifference {
  /** The recorded call's position in the recordings (0-based) and its method, so an entry cannot slide to another call. */
  readonly call: number;
  readonly method: string;
  /** Each exactly as the replay prints it: `status <real> → <ours>`, `missing <path>`, `<path>: <real type> → <our type>`. */
  readonly differences: readonly string[];
  readonly reason: string;
}

/** The chart reads' `version`: ours carries the object's version stamp (docs/reference/object-versions.md). */
const STAMP = 'the chart is stamped with the API version it was saved under in `version` (docs/reference/object-versions.md: how the gateway refuses a v1 client an object saved by a newer one); the real one answers null';
const V2_EXISTS = 'version 2 exists here (the recorded controller had only version 1), so the header "2" is served';

export const DELIBERATE: readonly DeliberateDifference[] = [
  { call: 25, method: 'getWizardChart', differences: ['version: null → number'], reason: STAMP },
  { call: 27, method: 'getWizardChart', differences: ['version: null → number'], reason: STAMP },
  {
    call: 28,
    method: 'createQLChart',
    differences: ['missing error'],
    reason:
      "the real charts engine reads data.connection.entryId on every QL write to make the chart's links (datalens-tech/datalens-ui f581b7c31d6e9189ebeb1e1632b5fe7570534fb8, src/server/configs/shared/ql-chart-template.ts identifyLinks, through src/server/components/charts-engine/controllers/charts.ts prepareChartData) and, without a connection, answers 400 with its TypeError's text as {error}, outside the error envelope. Here the same 400 comes in the error envelope every other error has, as VALIDATION_ERROR with the issue path data.connection.entryId (src/reference-backend/methods/charts.ts, requireConnection): the field to send instead of a crash's text, read as any other error (docs/reference/errors.md); the status and the outcome (no chart made) are the same",
  },
  { call: 30, method: 'getQLChart', differences: ['version: null → number'], reason: STAMP },
  { call: 32, method: 'getQLChart', differences: ['version: null → number'], reason: STAMP },
  { call: 48, method: 'getCollection', differences: ['status 400 → 200'], reason: V2_EXISTS },
  { call: 54, method: 'getDashboard', differences: ['status 400 → 200'], reason: V2_EXISTS },
  {
    call: 55,
    method: 'getDataset',
    differences: ['status 500 → 400'],
    reason:
      "the recording ran without the bi backend (its 500); here the datasets answer, and the id is checked as real US checks ids: 'abcdefghijklm' does not decode (its rotation digit is not given back), so it is 400 VALIDATION_ERROR as calls 60 and 76 (src/reference-backend/shared/ids.ts, checkForeignId)",
  },
  {
    call: 62,
    method: 'getCollection',
    differences: ['details: array → object'],
    reason: 'an empty body is 400 INVALID_JSON here (details {reason}), where the real one reads it as {} and answers VALIDATION_ERROR with the issues: an empty body is more often a body lost on the way (docs/reference/errors.md); the status is the same',
  },
];
