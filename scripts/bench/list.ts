/**
 * List benchmark (issue: schema engine). Seeds 1,000,000 case-sized rows, then times filtered, sorted,
 * paginated `lists` + `count` calls through HTTP against the very same SQL run directly on the database
 * (captured from the API's own query log), and prints p50/p95 and the ratio API / raw.
 *
 *   node --import tsx scripts/bench/list.ts [--rows 1000000] [--runs 200] [--pg postgres://…] [--pg-only] [--scenarios 1,4] [--client http|fetch]
 *
 * Target: API p95 ≤ 1.5 × raw, and < 50 ms for a filtered, sorted page of 100 with its count at 1M rows on SQLite.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { sql, type CompiledQuery, type LogEvent } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../server/app.js';
import { connect, isPostgres, type Db } from '../../server/db/connect.js';
import { ensureResourceIndexes } from '../../server/db/indexes.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seed } from '../../server/db/seed/index.js';
import { checkResource, contractOf, type ResourceDef } from '../../server/resources/definition.js';
import { resourceRoutes } from '../../server/resources/routes.js';
import { tokenFor } from '../../tests/api/harness.js';

const { values: args } = parseArgs({ options: {
  rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '200' }, pg: { type: 'string' },
  // --pg-only: skip SQLite; --scenarios 1,4: only those rows of the table (a quicker look at one of them).
  'pg-only': { type: 'boolean', default: false }, scenarios: { type: 'string' },
  client: { type: 'string', default: 'http' },
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

async function run(label: string, databaseUrl?: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-bench-'));
  let capturing = false;
  const captured: CompiledQuery[] = [];
  const log = (e: LogEvent) => { if (capturing && e.level === 'query' && /bench_cases/.test(e.query.sql)) captured.push(e.query); };
  let schema: string | undefined;
  if (databaseUrl) {
    schema = `bench_${process.pid}`;
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    await c.end();
  }
  // No statement timeout: seeding a million rows takes longer than the server's default allows one request.
  const db = connect(databaseUrl ? { databaseUrl, pgSchema: schema, log, statementTimeoutMs: 0 } : { sqliteFile: path.join(dir, 'bench.sqlite'), log });
  console.log(`\n${label}`);
  await migrateToLatest(db, schema);
  await seed(db, true);
  await seedRows(db);

  const app = await buildApp({ db, config: { tokenTtlSeconds: 3600, distDir: '/nonexistent', logLevel: 'warn' }, logger: false });
  // The bench resource has no hospital extension and no hooks.
  resourceRoutes(app, db, [bench], { contracts: { contractFor: async (def) => contractOf(def), rulesFor: async () => () => undefined }, hooks: {}, openSealed: async (_fields, body) => body });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const token = await tokenFor(app, 'admin');

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
    capturing = true;
    await call();
    capturing = false;
    const statements = [...captured];
    if (process.env.BENCH_PLAN) for (const q of statements) {
      console.log('   ', q.sql, JSON.stringify(q.parameters));
      if (!isPostgres(db)) console.log('    plan:', JSON.stringify((await db.executeQuery({ ...q, sql: `EXPLAIN QUERY PLAN ${q.sql}` } as CompiledQuery)).rows.map((r) => (r as { detail: unknown }).detail)));
    }

    // Heavy scenarios (hundreds of ms) get fewer runs so the benchmark ends in minutes; p95 stays meaningful at 50.
    const probe = performance.now();
    await call();
    const runs = performance.now() - probe > 50 ? Math.min(RUNS, 50) : RUNS;
    const api: number[] = [];
    const raw: number[] = [];
    // API and raw runs alternate, so a busy machine (other processes on the same cores) weighs on both alike.
    // This process's CPU time per call as well: unlike wall time, it hardly moves when other processes share the cores.
    const cpu = { api: 0, raw: 0 };
    const cpuNow = () => { const u = process.cpuUsage(); return u.user + u.system; };
    for (let i = 0; i < runs; i++) {
      let c = cpuNow();
      let t = performance.now();
      await call();
      api.push(performance.now() - t);
      cpu.api += cpuNow() - c;
      c = cpuNow();
      t = performance.now();
      // The same statements with the same parameters, run as the API runs them (concurrently), minus HTTP, auth and JSON.
      await Promise.all(statements.map((q) => db.executeQuery(q)));
      raw.push(performance.now() - t);
      cpu.raw += cpuNow() - c;
    }
    const perCall = (us: number) => `${(us / runs / 1000).toFixed(2).padStart(6)} ms`;
    console.log(`  ${`${s.name} ×${runs}`.padEnd(46)} ${ms(pct(api, 50))} ${ms(pct(api, 95))} ${ms(pct(raw, 50))} ${ms(pct(raw, 95))}  ${(pct(api, 95) / pct(raw, 95)).toFixed(2).padStart(5)}×   ${perCall(cpu.api)} ${perCall(cpu.raw)}`);
  }
  await app.close();
  if (schema) await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db);
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}

if (!args['pg-only']) await run(`SQLite, ${ROWS.toLocaleString()} rows, ${RUNS} runs per scenario`);
if (args.pg) await run(`PostgreSQL, ${ROWS.toLocaleString()} rows, ${RUNS} runs per scenario`, args.pg);
