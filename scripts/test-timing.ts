/**
 * Turns test-results/timing.json (written by tests/support/timing-reporter.ts on every vitest run) into the timing
 * table of docs/testing.md: each file with its project, test cases, `expect` calls and seconds, slowest first, and per
 * project the sum of file times and the wall-clock span; and tests/support/durations.json, the order the next runs
 * start files in (longest first). `--print` writes the per-project summary to stdout only.
 *
 *   npm run test:timing            # runs the whole suite, then rewrites the table
 *   npx tsx scripts/test-timing.ts [--print] [--title "…"]
 */
import fs from 'node:fs';

interface Row { file: string; project: string; start: number; end: number; tests: number; failed: number; skipped: number; expects: number }

const args = process.argv.slice(2);
const rows: Row[] = JSON.parse(fs.readFileSync(process.env.TIMING_FILE ?? 'test-results/timing.json', 'utf8'));
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const projects = [...new Set(rows.map((r) => r.project))].sort();

function summary(): string[] {
  const lines = ['| project | files | tests | expects | sum of file times (s) | wall (s) |', '| --- | ---: | ---: | ---: | ---: | ---: |'];
  const line = (name: string, of: Row[]) => {
    const wall = Math.max(...of.map((r) => r.end)) - Math.min(...of.map((r) => r.start));
    const sum = of.reduce((s, r) => s + r.end - r.start, 0);
    lines.push(`| ${name} | ${of.length} | ${of.reduce((s, r) => s + r.tests, 0)} | ${of.reduce((s, r) => s + r.expects, 0)} | ${seconds(sum)} | ${seconds(wall)} |`);
  };
  for (const p of projects) line(p, rows.filter((r) => r.project === p));
  line('**all**', rows);
  return lines;
}

if (args.includes('--print')) {
  console.log(summary().join('\n'));
  const failed = rows.reduce((s, r) => s + r.failed, 0);
  if (failed) console.log(`${failed} failed`);
  process.exit(0);
}

const titleAt = args.indexOf('--title');
const title = titleAt >= 0 ? args[titleAt + 1] : `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const table = [
  `### ${title}`, '',
  ...summary(), '',
  '| file | project | tests | expects | s |', '| --- | --- | ---: | ---: | ---: |',
  ...[...rows].sort((a, b) => b.end - b.start - (a.end - a.start))
    .map((r) => `| ${r.file} | ${r.project} | ${r.tests}${r.failed ? ` (${r.failed} failed)` : ''}${r.skipped ? ` (+${r.skipped} skipped)` : ''} | ${r.expects} | ${seconds(r.end - r.start)} |`),
  '',
].join('\n');

// The order the next runs start files in (tests/support/sequencer.ts): longest first.
const durations = Object.fromEntries([...rows].sort((a, b) => a.project.localeCompare(b.project) || a.file.localeCompare(b.file))
  .map((r) => [`${r.project}:${r.file}`, Math.round((r.end - r.start) / 100) / 10]));
fs.writeFileSync('tests/support/durations.json', `${JSON.stringify(durations, null, 1)}\n`);

const doc = 'docs/testing.md';
const start = '<!-- timing:start -->', end = '<!-- timing:end -->';
const text = fs.existsSync(doc) ? fs.readFileSync(doc, 'utf8') : `# Testing\n\n${start}\n${end}\n`;
const [before, rest] = text.split(start);
const after = rest.split(end)[1];
fs.writeFileSync(doc, `${before}${start}\n${table}${end}${after}`);
console.log(`${doc}: ${rows.length} files`);
