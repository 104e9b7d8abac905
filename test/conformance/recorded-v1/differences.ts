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
/** The id checks of the real storage service. */
const IDS = "real US checks an id's format (13 base36 characters, 400 VALIDATION_ERROR); this backend's ids have another form (the demo seed's are names like wb_demo_sales), so it has no format check: an id it never made is 404 NOT_FOUND";
const V2_EXISTS = 'version 2 exists here (the recorded controller had only version 1), so the header "2" is served';

export const DELIBERATE: readonly DeliberateDifference[] = [
  { call: 25, method: 'getWizardChart', differences: ['version: null → number'], reason: STAMP },
  { call: 27, method: 'getWizardChart', differences: ['version: null → number'], reason: STAMP },
  {
    call: 28,
    method: 'createQLChart',
    differences: ['status 400 → 200'],
    reason: 'the real charts engine throws reading the absent data.connection.entryId and answers {error} outside the error envelope (a fault, not a rule); here a QL chart without a connection is made',
  },
  { call: 30, method: 'getQLChart', differences: ['version: null → number'], reason: STAMP },
  { call: 32, method: 'getQLChart', differences: ['version: null → number'], reason: STAMP },
  {
    call: 40,
    method: 'getWorkbookEntries',
    differences: ['entries[3].publishedId: null → string'],
    reason: 'follows from call 28: the QL chart made here ("Revenue SQL draft", published) sorts before the connection, which answers publishedId null as the real one does',
  },
  { call: 48, method: 'getCollection', differences: ['status 400 → 200'], reason: V2_EXISTS },
  { call: 54, method: 'getDashboard', differences: ['status 400 → 200'], reason: V2_EXISTS },
  {
    call: 55,
    method: 'getDataset',
    differences: ['status 500 → 404'],
    reason: 'the recording ran without the bi backend (its 500); here the datasets answer, and the id was never made: 404',
  },
  { call: 60, method: 'getWorkbook', differences: ['status 400 → 404'], reason: IDS },
  {
    call: 62,
    method: 'getCollection',
    differences: ['details: array → object'],
    reason: 'an empty body is 400 INVALID_JSON here (details {reason}), where the real one reads it as {} and answers VALIDATION_ERROR with the issues: an empty body is more often a body lost on the way (docs/reference/errors.md); the status is the same',
  },
  { call: 76, method: 'getWorkbook', differences: ['status 400 → 404'], reason: IDS },
];
