/**
 * How fast the server answers after being spawned, and how much memory its processes hold when idle.
 *
 *   npm run build && node --import tsx scripts/measure-start.ts [--runs 3] [--settle 10] [--workers N] [--tsx] [--nice N] [--keep]
 *
 * Each run starts the server as `npm start` does (`node --enable-source-maps dist-server/main.js`; `--tsx`:
 * `node --import tsx server/main.ts`, the TypeScript server) twice on one new DATA_DIR: first fresh (migrations,
 * seed), then again on the now-seeded folder. For each start it prints the milliseconds from spawn to the first 200
 * of `GET /api/auth/challenge`, then, `--settle` seconds later, VmRSS (/proc/<pid>/status) and CPU time of the
 * primary and every process below it (its cluster workers) and their sum, then stops it with SIGTERM and reports
 * how it exited. WORKERS is left to the server's default (the number of cores) unless `--workers` is given.
 * `--nice -10` runs the server (and so every process it starts) at that niceness, to measure its own cost on a
 * machine that other work keeps busy (needs root for a negative value).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const flag = (name: string) => args.includes(`--${name}`);
const runs = Number(opt('runs', '3'));
const settleMs = Number(opt('settle', '10')) * 1000;
const workers = opt('workers', '');
const tsx = flag('tsx');
const niceness = args.includes('--nice') ? Number(opt('nice', '0')) : undefined;
const root = path.resolve(import.meta.dirname, '..');
const command = tsx ? ['--import', 'tsx', 'server/main.ts'] : ['--enable-source-maps', 'dist-server/main.js'];
if (!tsx && !fs.existsSync(path.join(root, 'dist-server/main.js'))) {
  console.error('dist-server/main.js is missing: run `npm run build` first');
  process.exit(1);
}
const ticksPerSecond = 100; // USER_HZ on Linux
const pageMiB = (kb: number) => kb / 1024;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    }).on('error', reject);
  });
}

function status(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/auth/challenge', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => req.destroy());
  });
}

/** `pid` and every process below it, parents first. */
function tree(pid: number): number[] {
  const out = [pid];
  const read = (file: string) => { try { return fs.readFileSync(file, 'utf8'); } catch { return ''; } };
  const tasks = (() => { try { return fs.readdirSync(`/proc/${pid}/task`); } catch { return []; } })();
  for (const tid of tasks) {
    const children = read(`/proc/${pid}/task/${tid}/children`);
    for (const child of children.trim().split(/\s+/).filter(Boolean)) out.push(...tree(Number(child)));
  }
  return out;
}

function rssKb(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

/** User + system CPU seconds of `pid` itself (fields 14 and 15 of /proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

interface Result { firstAnswerMs: number; processes: { pid: number; name: string; rssMiB: number; cpuS: number }[]; totalMiB: number; exit: string; errors: number }

async function measure(dataDir: string): Promise<Result> {
  const port = await freePort();
  let output = '';
  const started = performance.now();
  const child = spawn(process.execPath, command, {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ...(workers ? { WORKERS: workers } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Before node has booted, so the processes it starts inherit it.
  if (niceness !== undefined) os.setPriority(child.pid!, niceness);
  child.stdout.on('data', (d) => { output += String(d); });
  child.stderr.on('data', (d) => { output += String(d); });
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)));
  let firstAnswerMs = 0;
  while (!firstAnswerMs) {
    if (child.exitCode !== null) throw new Error(`the server exited before answering:\n${output}`);
    if (performance.now() - started > 120_000) { child.kill('SIGKILL'); throw new Error(`no answer in 120 s:\n${output}`); }
    if (await status(port) === 200) firstAnswerMs = performance.now() - started;
    else await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, settleMs));
  const processes = tree(child.pid!).map((pid) => ({ pid, name: fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim(), rssMiB: pageMiB(rssKb(pid)), cpuS: cpuSeconds(pid) }));
  const totalMiB = processes.reduce((sum, p) => sum + p.rssMiB, 0);
  const stopping = performance.now();
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const how = await exited;
  clearTimeout(timer);
  const errors = output.split('\n').filter((line) => /"level":(50|60)/.test(line) || /^\s*(Error|TypeError)\b/.test(line));
  if (errors.length) console.log(errors.slice(0, 5).join('\n'));
  return { firstAnswerMs, processes, totalMiB, exit: `${how} after ${Math.round(performance.now() - stopping)} ms`, errors: errors.length };
}

console.log(`${tsx ? 'node --import tsx server/main.ts' : 'node --enable-source-maps dist-server/main.js'}; WORKERS=${workers || `default (${os.availableParallelism()} cores)`}; RSS ${settleMs / 1000} s after the first answer${niceness !== undefined ? `; nice ${niceness}` : ''}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const rows: { run: string; r: Result }[] = [];
for (let i = 1; i <= runs; i++) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-measure-'));
  try {
    for (const kind of ['fresh', 'seeded']) {
      const r = await measure(dataDir);
      rows.push({ run: `${i} ${kind}`, r });
      const each = r.processes.map((p, j) => `${j === 0 ? 'primary' : p.name === 'node' ? 'worker' : p.name} ${p.rssMiB.toFixed(0)} MiB / ${p.cpuS.toFixed(2)} s CPU`).join(', ');
      console.log(`run ${i} ${kind.padEnd(6)}  first answer ${r.firstAnswerMs.toFixed(0).padStart(5)} ms  RSS total ${r.totalMiB.toFixed(0).padStart(4)} MiB (${each})  stopped: ${r.exit}${r.errors ? `  ${r.errors} error lines in the log` : ''}`);
    }
  } finally {
    if (!flag('keep')) fs.rmSync(dataDir, { recursive: true, force: true });
    else console.log(`kept ${dataDir}`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const kind of ['fresh', 'seeded']) {
  const of = rows.filter((x) => x.run.endsWith(kind)).map((x) => x.r);
  console.log(`${kind.padEnd(6)} median: first answer ${median(of.map((r) => r.firstAnswerMs)).toFixed(0)} ms (max ${Math.max(...of.map((r) => r.firstAnswerMs)).toFixed(0)}), RSS total ${median(of.map((r) => r.totalMiB)).toFixed(0)} MiB (max ${Math.max(...of.map((r) => r.totalMiB)).toFixed(0)}), CPU ${median(of.map((r) => r.processes.reduce((s, p) => s + p.cpuS, 0))).toFixed(2)} s`);
}
