/**
 * List benchmark (issue: schema engine). Seeds 1,000,000 case-sized rows, then times filtered, sorted,
 * paginated `lists` + `count` calls through HTTP against the very same SQL run directly on the database
 * (captured from the API's own query log), and prints p50/p95 and the ratio API / raw.
 * The app runs as `npm start` runs it: its own processes, WORKERS (default: the number of cores) sharing the port
 * through node:cluster. This process is the client, and runs the raw SQL on a connection of its own; the CPU columns
 * are the server processes' CPU per call (API) and this process's per raw run.
 *
 *   node --import tsx scripts/bench/list.ts [--rows 1000000] [--runs 200] [--pg postgres://…] [--pg-only] [--scenarios 1,4] [--client http|fetch]
 *
 *   --profile DIR writes V8 CPU profiles of the server's processes there (open them in Chrome DevTools).
 *
 * Target: API p95 ≤ 1.5 × raw, and < 50 ms for a filtered, sorted page of 100 with its count at 1M rows on SQLite.
 */
import { fork, type ChildProcess } from 'node:child_process';
import cluster from 'node:cluster';
import { constants, publicEncrypt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CompiledQuery, sql, type LogEvent } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../server/app.js';
import { connect, isPostgres, type Db } from '../../server/db/connect.js';
import { ensureResourceIndexes } from '../../server/db/indexes.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seed } from '../../server/db/seed/index.js';
import { checkResource, contractOf, type ResourceDef } from '../../server/resources/definition.js';
import { resourceRoutes } from '../../server/resources/routes.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';

const { values: args } = parseArgs({ args: process.argv.slice(2).filter((a) => a !== '--serve' && !a.startsWith('{')), options: {
  rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '200' }, pg: { type: 'string' },
  // --pg-only: skip SQLite; --scenarios 1,4: only those rows of the table (a quicker look at one of them).
  'pg-only': { type: 'boolean', default: false }, scenarios: { type: 'string' },
  client: { type: 'string', default: 'http' },
  // --profile DIR: V8 CPU profiles of the server's processes (the workers inherit the flag through node:cluster).
  profile: { type: 'string' },
} });
const ROWS = Number(args.rows);
const RUNS = Number(args.runs);

const PHASES = ['apply', 'registration', 'sample', 'slide_making', 'diagnosis', 'archive'];
const bench: ResourceDef = checkResource({
  name: 'bench_cases', table: 'bench_cases', route: '/api/bench/cases',
  permissions: { list: 'log_view', read: 'log_view' }, readOnly: true, defaultSort: { id: 'desc' },
  indexes: [['main_phase', 'registration_at'], ['hospital_id', 'registration_at']],
  columns: {
    id: { type: 'integer', filter: true, sort: true },
    pathology_number: { type: 'string', filter: true, sort: true, search: true },
    patient_name: { type: 'string', filter: true, search: true },
    gender: { type: 'integer', filter: true },
    age: { type: 'integer', filter: true, sort: true },
    age_unit: { type: 'string', filter: true },
    hospital_id: { type: 'integer', filter: true },
    case_type: { type: 'string', filter: true, sort: true },
    main_phase: { type: 'string', filter: true, sort: true },
    sub_phase: { type: 'string', filter: true },
    status: { type: 'string', filter: true },
    expedite_status: { type: 'integer', filter: true },
    doctor_id: { type: 'integer', filter: true },
    inspection_hospital: { type: 'string', filter: true, search: true },
    specimen_name: { type: 'string', filter: true, search: true },
    diagnostic_opinion: { type: 'string', search: true },
    registration_at: { type: 'datetime', filter: true, sort: true },
    receive_at: { type: 'datetime', filter: true, sort: true },
    sign_at: { type: 'datetime', filter: true, sort: true },
  },
}, 'bench');

async function seedRows(db: Db): Promise<void> {
  const pgDb = isPostgres(db);
  await sql.raw(`DROP TABLE IF EXISTS bench_cases`).execute(db);
  await sql.raw(`CREATE TABLE bench_cases (
    id ${pgDb ? 'serial' : 'integer'} PRIMARY KEY, pathology_number varchar(32) NOT NULL, patient_name varchar(64) NOT NULL, gender integer,
    age integer, age_unit varchar(8), hospital_id integer, case_type varchar(16), main_phase varchar(16), sub_phase varchar(16), status varchar(16),
    expedite_status integer, doctor_id integer, inspection_hospital varchar(64), specimen_name varchar(128), diagnostic_opinion text,
    registration_at varchar(32), receive_at varchar(32), sign_at varchar(32))`).execute(db);
  // Rows are generated inside the database (recursive CTE / generate_series): seconds instead of minutes of round trips.
  const day = 86_400_000;
  const start = Date.parse('2024-01-01T00:00:00Z');
  // Registration times spread evenly over 700 days in a scrambled order (7919 is prime, so n·7919 mod ROWS is a permutation).
  const spread = `((n * 7919) % ${ROWS}) * ${Math.floor((700 * day) / ROWS)}`;
  const phases = `CASE n % 6 ${PHASES.map((p, i) => `WHEN ${i} THEN '${p}'`).join(' ')} END`;
  const iso = (expr: string) => pgDb
    ? `to_char(to_timestamp((${start} + (${expr})) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : `strftime('%Y-%m-%dT%H:%M:%fZ', (${start} + (${expr})) / 1000.0, 'unixepoch')`;
  const select = `SELECT 'P' || (2024000000 + n), 'patient ' || (n % 50000), n % 2, 1 + (n % 90), 'year', 1 + (n % 2),
      CASE n % 3 WHEN 0 THEN 'routine' WHEN 1 THEN 'frozen' ELSE 'cell' END, ${phases}, 'doing', CASE n % 4 WHEN 0 THEN 'done' ELSE 'doing' END,
      CASE WHEN n % 17 = 0 THEN 1 ELSE 0 END, 1 + (n % 40), 'hospital ' || (n % 30), 'specimen ' || (n % 200), 'opinion text for case ' || n,
      ${iso(spread)}, ${iso(`${spread} + 3600000`)}, ${iso(`${spread} + 259200000`)}`;
  const columns = 'pathology_number, patient_name, gender, age, age_unit, hospital_id, case_type, main_phase, sub_phase, status, expedite_status, doctor_id, inspection_hospital, specimen_name, diagnostic_opinion, registration_at, receive_at, sign_at';
  const t0 = Date.now();
  if (pgDb) {
    await sql.raw(`INSERT INTO bench_cases (${columns}) ${select.replace('SELECT', 'SELECT')} FROM generate_series(1::bigint, ${ROWS}::bigint) AS n`).execute(db);
    await sql.raw('ANALYZE bench_cases').execute(db);
  } else {
    await sql.raw(`INSERT INTO bench_cases (${columns}) WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${ROWS}) ${select} FROM s`).execute(db);
  }
  await ensureResourceIndexes(db, [bench]);
  if (!pgDb) await sql.raw('ANALYZE').execute(db);
  console.log(`  seeded ${ROWS.toLocaleString()} rows and indexes in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

interface Scenario { name: string; path: string; query: Record<string, unknown> }
const scenarios: Scenario[] = [
  { name: 'filtered + sorted page of 100 (+count)', path: 'lists', query: { page_size: 100, sort_by: { registration_at: 'desc' },
    filter: [{ column: 'main_phase', operator: '=', value: 'diagnosis' }, { column: 'registration_at', operator: 'between', value: ['2024-03-01 00:00:00', '2024-03-31 23:59:59'] }] } },
  { name: 'custom search with except + in, page 5', path: 'lists', query: { page: 5, page_size: 100, sort_by: { sign_at: 'desc' },
    filter: [{ column: 'case_type', operator: 'in', value: ['routine', 'frozen'] }, { column: 'expedite_status', operator: '=', value: 1, condition: 'and' },
      { column: 'doctor_id', operator: '=', value: 7, condition: 'except' }] } },
  { name: 'per-tab counts (3 tabs)', path: 'count', query: { filter: [{ column: 'hospital_id', operator: '=', value: 1 }, { column: 'registration_at', operator: '>=', value: '2025-06-01 00:00:00' }],
    tabs: [{ key: 'all' }, { key: 'urgent', filter: [{ column: 'expedite_status', operator: '=', value: 1 }] }, { key: 'done', filter: [{ column: 'status', operator: '=', value: 'done' }] }] } },
  { name: 'unfiltered newest page (+count)', path: 'lists', query: { page_size: 100 } },
  // No row matches: what a call costs besides its SQL (HTTP on loopback, the session, the route, JSON), the floor
  // under every other API time. Its ratio is not a target: the SQL is a few microseconds.
  { name: 'empty page: the fixed cost of a call', path: 'lists', query: { page_size: 100, filter: [{ column: 'id', operator: '=', value: 0 }] } },
];

/**
 * One GET with the bearer token, body read in full. node:http with a kept-alive connection by default: the client
 * shares the server's thread, and fetch (undici's WHATWG streams) costs more per call than a small list query does,
 * which would count a client's cost as the API's. `--client fetch` measures with fetch instead.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
async function get(url: string, token: string): Promise<{ status: number; body: string }> {
  if (args.client === 'fetch') {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: await res.text() };
  }
  return new Promise((resolve, reject) => {
    http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (n: number) => `${n.toFixed(2).padStart(7)} ms`;

/** Where the server finds the seeded database; sent to the server process as JSON. */
interface Target { databaseUrl?: string; sqliteFile?: string; schema?: string; port: number }
type ToServer = { type: 'capture'; on: boolean };
type FromServer = { type: 'ready'; pids: number[] } | { type: 'query'; sql: string; parameters: unknown[] } | { type: 'ack' };

async function run(label: string, databaseUrl?: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-bench-'));
  let schema: string | undefined;
  if (databaseUrl) {
    schema = `bench_${process.pid}`;
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    await c.end();
  }
  const sqliteFile = path.join(dir, 'bench.sqlite');
  // No statement timeout: seeding a million rows takes longer than the server's default allows one request.
  const db = connect(databaseUrl ? { databaseUrl, pgSchema: schema, statementTimeoutMs: 0 } : { sqliteFile });
  console.log(`\n${label}`);
  await migrateToLatest(db, schema);
  await seed(db, true);
  await seedRows(db);

  const target: Target = { databaseUrl, sqliteFile: databaseUrl ? undefined : sqliteFile, schema, port: await freePort() };
  const server = fork(fileURLToPath(import.meta.url), ['--serve', JSON.stringify(target)], { execArgv: ['--import', 'tsx', ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [])], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const captured: CompiledQuery[] = [];
  let acked: (() => void) | undefined;
  server.on('message', (m: FromServer) => {
    if (m.type === 'query') captured.push(CompiledQuery.raw(m.sql, m.parameters));
    if (m.type === 'ack') acked?.();
  });
  const ready = await new Promise<FromServer>((resolve, reject) => {
    server.once('message', resolve);
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  const serverPids = ready.type === 'ready' ? ready.pids : [];
  // Resolves once every worker has switched: messages from one process arrive in order, so the queries of a call
  // made before the switch off arrive before its acknowledgement.
  const capture = (on: boolean) => new Promise<void>((resolve) => {
    acked = resolve;
    server.send({ type: 'capture', on } satisfies ToServer);
  });
  const base = `http://127.0.0.1:${target.port}`;
  const token = await login(base);
  console.log(`  the app: ${serverPids.length - 1} worker process(es) (WORKERS=${process.env.WORKERS ?? 'default'}), client and raw SQL in this process`);

  console.log(`  ${'scenario'.padEnd(46)} ${'API p50'.padStart(10)} ${'API p95'.padStart(10)} ${'raw p50'.padStart(10)} ${'raw p95'.padStart(10)}  ratio p95  CPU/call API    raw`);
  const chosen = args.scenarios ? args.scenarios.split(',').map((n) => scenarios[Number(n) - 1]).filter(Boolean) : scenarios;
  for (const s of chosen) {
    const qs = new URLSearchParams(Object.entries(s.query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
    const url = `${base}${bench.route}/${s.path}?${qs}`;
    const call = async () => {
      // A long raw phase can leave the kept-alive connection idle past the server's timeout; one retry covers the reset.
      const res = await get(url, token).catch(() => get(url, token));
      if (res.status !== 200) throw new Error(`${s.name}: ${res.status} ${res.body}`);
    };
    for (let i = 0; i < 10; i++) await call(); // warm caches and the statement cache
    captured.length = 0;
    await capture(true);
    await call();
    await capture(false);
    const statements = captured.filter((q) => /bench_cases/.test(q.sql));
    if (!statements.length) throw new Error(`${s.name}: no statement captured`);
    if (process.env.BENCH_PLAN) for (const q of statements) {
      console.log('   ', q.sql, JSON.stringify(q.parameters));
      if (!isPostgres(db)) console.log('    plan:', JSON.stringify((await db.executeQuery(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]))).rows.map((r) => (r as { detail: unknown }).detail)));
    }

    // Heavy scenarios (hundreds of ms) get fewer runs so the benchmark ends in minutes; p95 stays meaningful at 50.
    const probe = performance.now();
    await call();
    const runs = performance.now() - probe > 50 ? Math.min(RUNS, 50) : RUNS;
    const api: number[] = [];
    const raw: number[] = [];
    // API and raw runs alternate, so a busy machine (other processes on the same cores) weighs on both alike.
    // CPU time per call as well (the server's processes for the API, this one for raw): unlike wall time, it hardly
    // moves when other processes share the cores.
    const cpu = { api: 0, raw: 0 };
    const cpuNow = () => { const u = process.cpuUsage(); return u.user + u.system; };
    for (let i = 0; i < runs; i++) {
      const before = processCpuMicros(serverPids);
      let t = performance.now();
      await call();
      api.push(performance.now() - t);
      cpu.api += processCpuMicros(serverPids) - before;
      const c = cpuNow();
      t = performance.now();
      // The same statements with the same parameters, run as the API runs them (concurrently), minus HTTP, auth and JSON.
      await Promise.all(statements.map((q) => db.executeQuery(q)));
      raw.push(performance.now() - t);
      cpu.raw += cpuNow() - c;
    }
    const perCall = (us: number) => `${(us / runs / 1000).toFixed(2).padStart(6)} ms`;
    console.log(`  ${`${s.name} ×${runs}`.padEnd(46)} ${ms(pct(api, 50))} ${ms(pct(api, 95))} ${ms(pct(raw, 50))} ${ms(pct(raw, 95))}  ${(pct(api, 95) / pct(raw, 95)).toFixed(2).padStart(5)}×   ${perCall(cpu.api)} ${perCall(cpu.raw)}`);
  }
  agent.destroy();
  await stop(server);
  if (schema) await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db);
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Logs in as admin the way the browser does: "nonce:password" sealed with the server's RSA key. */
async function login(base: string): Promise<string> {
  const challenge = JSON.parse((await get(`${base}/api/auth/challenge`, '')).body).data as { key_id: string; public_key: string; nonce: string };
  const password = publicEncrypt({ key: challenge.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`${challenge.nonce}:${DEMO_PASSWORDS.admin}`)).toString('base64');
  const body = JSON.stringify({ username: 'admin', password, key_id: challenge.key_id });
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString();
        if (res.statusCode !== 200) return reject(new Error(`login: ${res.statusCode} ${text}`));
        resolve(JSON.parse(text).data.access_token);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A port nobody listens on now, for the server's workers to share. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** User + system CPU of these processes so far, in microseconds (Linux /proc; clock ticks of 10 ms, summed over many calls). */
function processCpuMicros(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1e6) / 100;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * The server side, in its own processes: a primary that forks WORKERS workers (default: the number of cores), as
 * server/main.ts does, each serving the app plus the bench resource on the shared port. Queries a worker runs while
 * capture is on go to the client, which runs them raw.
 */
async function serve(target: Target): Promise<void> {
  const workers = Number(process.env.WORKERS) || os.availableParallelism();
  if (cluster.isPrimary) {
    let listening = 0;
    let acks = 0;
    for (let i = 0; i < workers; i++) {
      const worker = cluster.fork();
      worker.on('message', (m: FromServer) => {
        if (m.type !== 'ack') return void process.send!(m);
        if (++acks === workers) process.send!(m);
      });
      worker.once('listening', () => {
        if (++listening === workers) {
          const pids = [process.pid, ...Object.values(cluster.workers ?? {}).map((w) => w!.process.pid!)];
          process.send!({ type: 'ready', pids } satisfies FromServer);
        }
      });
    }
    process.on('message', (m: ToServer) => {
      acks = 0;
      for (const w of Object.values(cluster.workers ?? {})) w!.send(m);
    });
    process.on('SIGTERM', () => {
      for (const w of Object.values(cluster.workers ?? {})) w!.kill('SIGTERM');
      process.exit(0);
    });
    return;
  }
  let capturing = false;
  process.on('message', (m: ToServer) => {
    if (m.type !== 'capture') return;
    capturing = m.on;
    process.send!({ type: 'ack' } satisfies FromServer);
  });
  const log = (e: LogEvent) => {
    if (capturing && e.level === 'query') process.send!({ type: 'query', sql: e.query.sql, parameters: [...e.query.parameters] } satisfies FromServer);
  };
  const db = connect(target.databaseUrl ? { databaseUrl: target.databaseUrl, pgSchema: target.schema, log } : { sqliteFile: target.sqliteFile, log });
  const app = await buildApp({ db, config: { tokenTtlSeconds: 3600, distDir: '/nonexistent', logLevel: 'warn' }, logger: false });
  // The bench resource names no page and no hooks.
  resourceRoutes(app, db, [bench], { contracts: { contractFor: async (def) => contractOf(def), rulesFor: async () => () => undefined }, hooks: {}, openSealed: async (_fields, body) => body });
  await app.listen({ port: target.port, host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => db.destroy()).finally(() => process.exit(0)));
}

if (process.argv[2] === '--serve') {
  await serve(JSON.parse(process.argv[3]!) as Target);
} else {
  if (!args['pg-only']) await run(`SQLite, ${ROWS.toLocaleString()} rows, ${RUNS} runs per scenario`);
  if (args.pg) await run(`PostgreSQL, ${ROWS.toLocaleString()} rows, ${RUNS} runs per scenario`, args.pg);
}
