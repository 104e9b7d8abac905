import { defineConfig } from 'vitest/config';

// Two projects, run one after the other by `vitest run` (`npm test`): the suite, then the one-folder test, which
// copies the project, adds a version to the copy as docs/how-to/add-a-version.md says and runs the whole suite
// there; after the main suite, so that the two runs do not compete for the CPU.
const ONE_FOLDER = 'test/contract/one-folder.test.ts';

export default defineConfig({
  test: {
    setupFiles: ['test/setup/fast-check.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Servers in tests bind 127.0.0.1:0; files run in parallel workers on 2 cores.
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: [ONE_FOLDER], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'one-folder', include: [ONE_FOLDER], sequence: { groupOrder: 1 } } },
    ],
  },
});
