/**
 * `npm test`: ESLint, the build (front end and server), then every vitest project in one run (files in parallel,
 * vitest.config.ts). Prints how long each phase took, and each project's span and share of the run from
 * test-results/timing.json (tests/support/timing-reporter.ts). Stops at the first phase that fails.
 */
import { spawnSync } from 'node:child_process';

const phases: Array<[string, string, string[]]> = [
  ['lint', 'npx', ['eslint', '.']],
  ['build', 'npm', ['run', '--silent', 'build']],
  ['tests', 'npx', ['vitest', 'run', ...process.argv.slice(2)]],
];
const took: string[] = [];
let failed = 0;
for (const [name, cmd, args] of phases) {
  const start = Date.now();
  const { status } = spawnSync(cmd, args, { stdio: 'inherit' });
  took.push(`${name} ${((Date.now() - start) / 1000).toFixed(0)} s`);
  console.log(`\ntest phase: ${took.at(-1)}${status ? ` (exit ${status})` : ''}`);
  if (status) { failed = status; if (name !== 'tests') break; }
}
if (took.length === phases.length) spawnSync('npx', ['tsx', 'scripts/test-timing.ts', '--print'], { stdio: 'inherit' });
console.log(`test phases: ${took.join(', ')}`);
process.exit(failed);
