import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest file first, from the durations of the last timing run (tests/support/durations.json, written by
 * scripts/test-timing.ts), so that no long file starts last and runs alone at the end; a fresh clone has no vitest
 * cache to go by. Files of one project stay together: a worker of an unisolated project (the API ones) is reused only
 * while the next file in the queue is of its project. Projects in PROJECT_ORDER (others after), unknown files first.
 */
const PROJECT_ORDER = ['process', 'api-postgres', 'api-sqlite', 'e2e', 'unit'];
const DURATIONS = path.resolve('tests/support/durations.json');

export default class LongestFirstSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known: Record<string, number> = fs.existsSync(DURATIONS) ? JSON.parse(fs.readFileSync(DURATIONS, 'utf8')) : {};
    const rank = (s: TestSpecification) => {
      const at = PROJECT_ORDER.indexOf(s.project.name);
      return at < 0 ? PROJECT_ORDER.length : at;
    };
    const seconds = (s: TestSpecification) => known[`${s.project.name}:${path.relative(process.cwd(), s.moduleId)}`] ?? Infinity;
    return [...files].sort((a, b) => rank(a) - rank(b) || seconds(b) - seconds(a) || (a.moduleId < b.moduleId ? -1 : 1));
  }
}
