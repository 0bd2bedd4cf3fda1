import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two files at a time on the two-core machines (the default is one): most suites wait on PGlite's worker or on
    // PostgreSQL as much as they compute, and the whole run must stay well inside CI's time.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          globalSetup: ['tests/global-setup.ts'],
          setupFiles: ['tests/setup-clock.ts'],
          include: ['tests/server/**/*.test.ts', 'tests/contract/**/*.test.ts'],
          // Watches a worker's intermediate states (a put under way, a lease lapsing): run alone, with the faults.
          exclude: ['tests/server/reports/crash.test.ts'],
          environment: 'node',
          // One worker runs file after file in the same module graph: the server app, drizzle and the contract schemas
          // are imported once per worker instead of once per file (a third of the project's time on the 2-core machines).
          // Each file still opens its own databases and app; vitest restores spies after every file, the files that fake
          // Date put the real timers back themselves, and tests/setup-clock.ts gives a file that mocks a module a fresh graph.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'faults',
          globalSetup: ['tests/global-setup.ts'],
          setupFiles: ['tests/setup-clock.ts'],
          include: ['tests/faults/**/*.test.ts', 'tests/server/reports/crash.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'web',
          include: ['tests/{app,api,auth,commands,context,format,panes,state,ui}/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/setup-clock.ts', 'tests/setup-dom.ts'],
          // One worker runs file after file in the same jsdom and module graph (several times faster than a fresh
          // worker per file on the 2-core machines); tests/setup-dom.ts puts back what a file leaves behind.
          isolate: false,
          // A file's first check starts the validation worker (arktype and every contract schema): seconds on a busy
          // 2-core machine. A ceiling, not a speed claim: a passing test never waits for it.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
