import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Writes test-results/timing.json (or TIMING_FILE): each test file's project, wall-clock start (taken by a worker,
 * before its imports) and end, test cases run and `expect` calls made (counted by tests/support/count-expects.ts). scripts/test-timing.ts turns it into docs/testing.md, and
 * .ci/run prints each project's span from it.
 */
export default class TimingReporter implements Reporter {
  private started = new Map<string, number>();
  private rows: Array<{ file: string; project: string; start: number; end: number; tests: number; failed: number; skipped: number; expects: number }> = [];

  // Queued is when a worker takes the file, before it imports it: importing is part of what a file costs.
  onTestModuleQueued(module: TestModule): void {
    this.started.set(this.key(module), Date.now());
  }

  onTestModuleStart(module: TestModule): void {
    if (!this.started.has(this.key(module))) this.started.set(this.key(module), Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    let tests = 0, failed = 0, skipped = 0, expects = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'skipped') { skipped += 1; continue; }
      tests += 1;
      if (state === 'failed') failed += 1;
      expects += Number((test.meta() as { expects?: number }).expects ?? 0);
    }
    const end = Date.now();
    this.rows.push({
      file: path.relative(process.cwd(), module.moduleId), project: module.project.name,
      start: this.started.get(this.key(module)) ?? end - module.diagnostic().duration, end, tests, failed, skipped, expects,
    });
  }

  onTestRunEnd(): void {
    const file = process.env.TIMING_FILE ?? 'test-results/timing.json';
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(this.rows, null, 1));
  }

  private key(module: TestModule): string {
    return `${module.project.name}\0${module.moduleId}`;
  }
}
