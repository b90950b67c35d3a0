import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests drive Debian's Chromium (Playwright's own browser download is blocked
 * on the build machines). LEDGERDESK_CHROMIUM overrides the path elsewhere.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  // Waits follow the app's own signals (a row drawn, a status shown, the socket open); on a busy
  // machine (two cores, load 4+) those come later than Playwright's default 5 s allows: a wait
  // that gives up is a false failure, and a wait that succeeds costs no more for being allowed longer.
  expect: { timeout: 30_000 },
  // The hang guard of each test and of each beforeAll/afterAll hook (which start real sandboxes,
  // services and browsers): Playwright's 30 s default gave up on a web-mode start under load 25.
  timeout: 240_000,
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env['LEDGERDESK_CHROMIUM'] ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
});
