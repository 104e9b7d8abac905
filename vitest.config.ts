import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/fast-check.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Servers in tests bind 127.0.0.1:0; files run in parallel workers on 2 cores.
    pool: 'forks',
  },
});
