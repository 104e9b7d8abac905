import { defineConfig } from 'vitest/config';

// The unit tests of the pure core, which need no server: what `npm run mutate` runs against each mutant of src/core.
// They build their fixtures inside each test, so that a mutant is run only against the tests that reach it.
export default defineConfig({
  test: {
    include: ['test/core/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
