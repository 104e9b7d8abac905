// Where the gateway in front of the recorded open-source DataLens answers otherwise than the public controller did,
// on purpose or because the recording itself diverged: one entry per recorded call (by label), each with its reason.
// recorded-oss.test.ts fails on any other difference, and on a listed one that no longer occurs.

export interface Deliberate {
  readonly label: string;
  readonly differences: readonly string[];
  readonly reason: string;
}

/** The public chart read migrates the stored config to the latest Wizard/QL version; the charts engine's read does not. */
const UNMIGRATED =
  'the public controller migrates the stored chart config to the latest Wizard/QL config version (the UI\'s mapChartsConfigToLatestVersion); the gateway answers the config as stored (docs/operations.md, "In front of a self-hosted DataLens", limits)';

export const DELIBERATE: readonly Deliberate[] = [
  { label: 'getWizardChart', differences: ['$.data.version: "15" (public) vs "2" (ours)', '$.data.labels: only in public', '$.data.sort: only in public'], reason: UNMIGRATED },
  {
    label: 'getQLChart',
    differences: ['$.data.version: "7" (public) vs "1" (ours)', '$.data.colors: only in public', '$.data.labels: only in public', '$.data.shapes: only in public', '$.data.tooltips: only in public'],
    reason: UNMIGRATED,
  },
  {
    label: 'createDashboard+unknownFields',
    differences: ['$.entry.data.settings.unknownSetting: only in ours'],
    reason:
      'the public controller strips a field its z.object arguments do not name; the gateway\'s version-1 schema passes unknown fields on (its open rule), so the internal route stores it, as the recording\'s own internal run shows',
  },
  {
    label: 'getWorkbookEntries',
    differences: [
      '$.entries[1].savedId: "r000000000007" (public) vs "r000000000009" (ours)',
      '$.entries[1].publishedId: "r000000000007" (public) vs "r000000000009" (ours)',
      '$.entries[1].revId: "r000000000007" (public) vs "r000000000009" (ours)',
      '$.entries[2].savedId: "r000000000008" (public) vs "r000000000010" (ours)',
      '$.entries[2].revId: "r000000000008" (public) vs "r000000000010" (ours)',
    ],
    reason: 'the recording\'s internal run made two more revisions than its public run (its unchecked updates were not refused), so the revision placeholders are numbered apart; the shape is the same',
  },
  {
    label: 'startWorkbookExport',
    differences: [
      '$.code: "ENDPOINT_NOT_FOUND" (public) vs "NO_BACKEND_ROUTE" (ours)',
      '$.message: "Endpoint /rpc/startWorkbookExport does not exist" (public) vs "startWorkbookExport is not served here: startWorkbookExport needs the meta-manager service, which upstream.datalensOss.services does not list" (ours)',
    ],
    reason: 'open-source DataLens hides the export methods behind a feature flag; the gateway says which service they need (upstream.datalensOss.services) with its own code, and still answers 404 without calling anything',
  },
  {
    label: 'updateWizardChart(wrongScope)',
    differences: ['internal request not sent: POST /api/charts/v1/charts/e000000000005 (sent: nothing)'],
    reason: 'the recording\'s internal route has no scope check and overwrote a dashboard; the gateway checks the entry with us.getEntry first, as the public controller does, and answers its 404 without calling the charts engine',
  },
  {
    label: 'getDashboard(afterWrongScopeUpdate)',
    differences: ['status 200 (public) vs 500 (ours)', '$.entry: only in public', '$.isFavorite: only in public', '$.status: only in ours', '$.message: only in ours', '$.requestId: only in ours'],
    reason: 'the recording\'s internal run had overwritten this dashboard with a chart (the call before), so its internal answer is the broken dashboard\'s 500; through the gateway that overwrite is refused, and the recorded server can only replay the broken state',
  },
  {
    label: 'version header "2" (unknown)',
    differences: ['status 400 (public) vs 200 (ours)', '$.status: only in public', '$.code: only in public', '$.message: only in public', '$.requestId: only in public', '$.workbooks: only in ours'],
    reason: 'open-source DataLens knows version 1 only; the gateway serves versions 2 and 3 from it, which is what it is for',
  },
  {
    label: 'unknown method',
    differences: ['$.message: "Endpoint /rpc/noSuchMethod does not exist" (public) vs "no such method: noSuchMethod" (ours)'],
    reason: 'same status and code; the gateway words its own ENDPOINT_NOT_FOUND (and names the versions that have the method when one does)',
  },
];

/**
 * Answers of open-source DataLens that the schemas of versions above 1 (written from the real cloud API) do not take:
 * per recorded call, the paths of the parse issues. The gateway passes what open-source
 * DataLens answers; it makes up no value it does not have.
 */
export interface SchemaGap {
  readonly label: string;
  /** The versions it shows at; every version above 1 when absent. */
  readonly versions?: readonly number[];
  readonly paths: readonly string[];
  readonly reason: string;
}

const NO_OPERATION = 'open-source United Storage answers createWorkbook without `operation` (no asynchronous copy there); the cloud schema requires it';
const CHART_WRITE = 'the charts engine answers a chart write without `hidden` and `tenantId`, the public controller passes that answer as it is, and the cloud schema of a chart answer requires both';
const NO_LINKS = 'open-source United Storage lists entries without `links` unless includeLinks is asked, and with isLocked false; the cloud schema takes a row without links only when it is locked';

export const SCHEMA_GAPS: readonly SchemaGap[] = [
  { label: 'createWorkbook', paths: ['operation'], reason: NO_OPERATION },
  { label: 'createWorkbook#2', paths: ['operation'], reason: NO_OPERATION },
  { label: 'createWizardChart', versions: [2], paths: ['hidden', 'tenantId'], reason: `${CHART_WRITE} (from version 3 a Wizard chart's answer is \`{entry}\`, filled by the gateway)` },
  { label: 'updateWizardChart', versions: [2], paths: ['hidden', 'tenantId'], reason: `${CHART_WRITE} (from version 3 a Wizard chart's answer is \`{entry}\`, filled by the gateway)` },
  { label: 'createQLChart', paths: ['hidden', 'tenantId'], reason: CHART_WRITE },
  { label: 'updateQLChart', paths: ['hidden', 'tenantId'], reason: CHART_WRITE },
  { label: 'getEntries', paths: ['entries.0'], reason: NO_LINKS },
  { label: 'getEntries(widget,includeData)', paths: ['entries.0', 'entries.1'], reason: NO_LINKS },
];
