// Which recorded version-1 answers later versions share, so the replay can ask them at those versions too: per the
// real version-2 method index and the real version-3 path index (datalens-tech/datalens-sdk spec/yacloud.json,
// commit 021501bb6ccd3165eaa128155d91f67e01525fe9), a method shares its answer unless a version up to the asked one
// gave it another shape.

export interface ShapeChange {
  /** The real version that gave the method another answer shape. */
  readonly version: number;
  readonly methods: readonly string[];
  readonly reason: string;
}

export const SHAPE_CHANGES: readonly ShapeChange[] = [
  {
    version: 2,
    methods: ['getEntries'],
    reason: 'real version 2 takes GetEntriesV2Args and answers GetEntriesV2Result (pages by token)',
  },
  {
    version: 3,
    methods: ['getDashboard', 'createDashboard', 'updateDashboard'],
    reason: 'real version 3 takes CreateDashboardV2Args / GetDashboardV2Args / UpdateDashboardV2Args and answers DashboardV2',
  },
  {
    version: 3,
    methods: ['getWizardChart', 'createWizardChart', 'updateWizardChart'],
    reason: 'real version 3 takes the Wizard document format (CreateWizardChartV1Args, UpdateWizardV1Args) and answers {entry}',
  },
];

/** Why `method`'s version-1 answer is not shared at `version`, or undefined when it is. */
export function changedBy(method: string, version: number): string | undefined {
  return SHAPE_CHANGES.find((c) => c.version <= version && c.methods.includes(method))?.reason;
}
