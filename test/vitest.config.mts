import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: resolve(import.meta.dirname, '..'),
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['test/helpers/setup.ts'],
    // Generous: these are hang guards, not timing checks, on a 2-core machine that may be busy.
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // Worker threads and HTTP servers per test file: two cores, so keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
  },
});
