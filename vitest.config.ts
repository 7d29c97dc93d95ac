import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tests/support/sequencer.js';

/**
 * How many test files run at once. The suite waits far more than it computes (browsers, PostgreSQL, child servers,
 * libvips), so on 2 cores 4 files at a time is faster than vitest's default of cores − 1 (docs/testing.md).
 */
const maxWorkers = Number(process.env.TEST_WORKERS) || 4;
const setupFiles = ['tests/support/count-expects.ts'];
/**
 * One migrated, seeded database per run and kind, which each test copies (tests/api/template-db.ts). Not isolated:
 * a worker imports the server once for all the files it runs, instead of once per file (importing it was most of
 * an API file's time). Files clean up what they change (env, timers, apps, databases) as before.
 */
const api = { environment: 'node' as const, setupFiles, globalSetup: ['tests/api/template-db.ts'], isolate: false, testTimeout: 30_000, hookTimeout: 60_000 };
/** API files that start the real server as child processes on SQLite files: they have no PostgreSQL variant. */
const sqliteOnly = ['tests/api/cluster.test.ts', 'tests/api/jobs-crash.test.ts', 'tests/api/jobs-crash-ingest.test.ts', 'tests/api/report-outbound-crash.test.ts'];
/**
 * API files about image bytes (slide formats, conversion, pixels, DICOM and IIIF output): their database work is a
 * slide row and its jobs, which the other files test on both databases; on PostgreSQL they would decode and convert
 * the same files again (libvips, the run's costliest CPU). They run on SQLite only.
 */
const imageBytesOnly = [
  'tests/api/slides-conversion.test.ts', 'tests/api/dicom-export-validation.test.ts', 'tests/api/iiif-image-compliance.test.ts',
  'tests/api/slide-formats/*.test.ts', 'tests/api/slides-pixel-caps.test.ts', 'tests/api/focus.test.ts', 'tests/api/focus-fluorescence.test.ts',
  'tests/api/tiles-fast-lane.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['verbose', './tests/support/timing-reporter.ts'],
    maxWorkers,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      // 30 s (hooks 60 s), not vitest's 5 (10): limits for a hung test, never speed checks; with the other projects
      // beside it on 2 cores a page render has taken 5.1 s, and statistics-table's set-up more than 10 s.
      { test: { name: 'unit', include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'tests/unit/**/*.test.ts'], environment: 'node', setupFiles, testTimeout: 30_000, hookTimeout: 60_000 } },
      // Each API file runs once per database, as a project of its own: the two run side by side, and each has its time.
      { test: { ...api, name: 'api-sqlite', include: ['tests/api/**/*.test.ts'], env: { DSMS_TEST_DB: 'sqlite' } } },
      ...(process.env.TEST_DATABASE_URL
        ? [{ test: { ...api, name: 'api-postgres', include: ['tests/api/**/*.test.ts'], exclude: [...sqliteOnly, ...imageBytesOnly], env: { DSMS_TEST_DB: 'postgres' } } }]
        : []),
      {
        test: {
          name: 'e2e', include: ['tests/e2e/**/*.test.ts'], environment: 'node', setupFiles: [...setupFiles, 'tests/e2e/file-hooks.ts'],
          globalSetup: ['tests/e2e/template-db.ts'],
          testTimeout: 180_000, hookTimeout: 180_000,
          // A browser on a busy 2-core machine can take more than the default second to settle; polls wait for
          // a state, they do not time anything.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      // The built app as `npm start` runs it: primary + workers, real sockets (tests/process/app-process.ts).
      { test: { name: 'process', include: ['tests/process/**/*.test.ts'], environment: 'node', setupFiles, testTimeout: 180_000, hookTimeout: 180_000 } },
    ],
  },
});
