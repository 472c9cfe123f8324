import { defineConfig } from '@playwright/test';

// Debian's Chromium: Playwright's own browser download is impossible here (reference/stack.md).
export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  outputDir: '../../test-results/e2e',
  // Hang guards, not speed checks: the suite must pass beside other work on a shared 2-core machine (issue 16).
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 2,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1400, height: 820 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
  },
});
