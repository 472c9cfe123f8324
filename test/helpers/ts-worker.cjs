// Job worker entry for unit tests: loads the TypeScript worker through tsx, so tests need no build.
require('tsx/cjs');
require('../../src/main/job-worker.ts');
