// Browser journeys against the real server (started by scripts/e2e.ts, or any running portal at BASE_URL)
// in Debian's Chromium. No device presets: they pull a different browser.
import { defineConfig } from '@playwright/test';
import { chromeArgs } from './scripts/find-chromium.ts';

export default defineConfig({
  testDir: 'e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // No retries: a journey runs once, on a database its own first attempt would already have changed. A journey that
  // truly depends on an outside timing opts in with test.describe.configure({ retries }) and says why.
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: process.env.BASE_URL ?? 'http://localhost:3000',
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    viewport: { width: 1440, height: 900 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: chromeArgs,
    },
  },
});
