import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['verbose'],
    projects: [
      { test: { name: 'unit', include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'tests/unit/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'api', include: ['tests/api/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 } },
      {
        test: {
          name: 'e2e', include: ['tests/e2e/**/*.test.ts'], environment: 'node',
          testTimeout: 180_000, hookTimeout: 180_000, fileParallelism: false,
          // A browser on a busy 2-core machine can take more than the default second to settle; polls wait for
          // a state, they do not time anything.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
