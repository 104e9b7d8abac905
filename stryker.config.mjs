// Mutation testing of the pure core (`npm run mutate`): mutants of src/core only, run against the tests that need no server.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.core.config.ts' },
  mutate: ['src/core/**/*.ts'],
  coverageAnalysis: 'perTest',
  // The machine is shared: two workers at most.
  concurrency: 2,
  // Reuses earlier results for unchanged code and tests; delete reports/stryker-incremental.json for a full run.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
};
