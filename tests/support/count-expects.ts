import { afterEach, expect } from 'vitest';

// The `expect` calls each test made, for the timing table's counts (a refactor of the suite must not lower them).
afterEach((context) => {
  (context.task.meta as { expects?: number }).expects = expect.getState().assertionCalls;
});
