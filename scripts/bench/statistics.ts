/**
 * Statistics benchmark (issue 16). Seeds one million cases over a year on SQLite, then times a year's workload
 * chart (registered, sampled and signed per month, GET /api/statistic/workload) through HTTP against the very same
 * SQL, captured from the app's own query log, run directly on a better-sqlite3 connection of its own. Prints the
 * median and p95 of each and the ratio app / raw.
 *
 *   node --import tsx scripts/bench/statistics.ts [--rows 1000000] [--runs 20]
 *
 * Target: the app answers the year's chart in under a second at one million cases.
 */
import { constants, publicEncrypt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import Sqlite from 'better-sqlite3';
import { sql, type LogEvent } from 'kysely';
import { buildApp } from '../../server/app.js';
import { connect } from '../../server/db/connect.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seed } from '../../server/db/seed/index.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';

const { values: args } = parseArgs({ args: process.argv.slice(2), options: {
  rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '20' },
} });
const ROWS = Number(args.rows);
const RUNS = Number(args.runs);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-bench-stat-'));
const file = path.join(dir, 'dsms.sqlite');
const captured: { sql: string; parameters: readonly unknown[] }[] = [];
let capturing = false;
const log = (e: LogEvent) => { if (capturing && e.level === 'query') captured.push({ sql: e.query.sql, parameters: e.query.parameters }); };

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: s[Math.floor(s.length / 2)], p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] };
};

async function main() {
  const db = connect({ sqliteFile: file, log });
  await migrateToLatest(db);
  await seed(db, true);
  const hospital = (await db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const doctor = (await db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow()).id;

  // One INSERT … SELECT of a recursive counter: a million cases spread evenly over 2025, four in five signed 36 h
  // after registration, sampled 4 h after, three case types, a few doctors.
  let t0 = process.hrtime.bigint();
  const spread = 365 * 86_400 / ROWS;
  await sql`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
    INSERT INTO cases (hospital_id, pathology_number, case_type, main_phase, expedite_status, registration_at, registration_doctor,
      sample_at, sample_doctor, sign_at, doctor_id, extra, created_at, updated_at)
    SELECT ${hospital}, 'B' || i, CASE i % 3 WHEN 0 THEN 'routine' WHEN 1 THEN 'frozen' ELSE 'cell' END, 'diagnosis', 0,
      strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || CAST(i * ${spread} AS INTEGER) || ' seconds'), ${doctor},
      strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || CAST(i * ${spread} + 14400 AS INTEGER) || ' seconds'), ${doctor},
      CASE WHEN i % 5 = 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || CAST(i * ${spread} + 129600 AS INTEGER) || ' seconds') END,
      CASE WHEN i % 5 = 0 THEN NULL ELSE ${doctor} + (i % 3) END, '{}', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'
    FROM n`.execute(db);
  await sql`ANALYZE`.execute(db);
  console.log(`seeded ${ROWS.toLocaleString('en-US')} cases in ${(ms(t0) / 1000).toFixed(1)} s`);

  const app = await buildApp({ db, config: { tokenTtlSeconds: 3600, distDir: '/nonexistent', logLevel: 'warn' }, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const challenge = (await (await fetch(`${base}/api/auth/challenge`)).json()).data;
  const sealed = publicEncrypt({ key: challenge.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`${challenge.nonce}:${DEMO_PASSWORDS.admin}`));
  const login = await (await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', key_id: challenge.key_id, password: sealed.toString('base64') }),
  })).json();
  const headers = { authorization: `Bearer ${login.data.access_token}` };
  const url = `${base}/api/statistic/workload?from=2025-01-01&to=2025-12-31&utc_offset=480&hospital_id=${hospital}`;

  // Warm up once, capturing the statements the route runs.
  capturing = true;
  const first = await (await fetch(url, { headers })).json();
  capturing = false;
  const statements = captured.filter((q) => /from "cases"/i.test(q.sql) && /count\(\*\)/i.test(q.sql));
  if (statements.length !== 3) throw new Error(`expected three statements, captured ${statements.length}`);
  console.log(`year's totals: ${JSON.stringify(first.data.totals)} in ${first.data.rows.length} ${first.data.range.bucket} buckets`);

  const appTimes: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    t0 = process.hrtime.bigint();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    appTimes.push(ms(t0));
  }

  // The same SQL on a connection of its own, no Kysely, no HTTP: the floor the route stands on.
  const raw = new Sqlite(file, { readonly: true });
  const prepared = statements.map((q) => ({ stmt: raw.prepare(q.sql), parameters: q.parameters }));
  const rawTimes: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    t0 = process.hrtime.bigint();
    for (const p of prepared) p.stmt.all(...(p.parameters as unknown[]));
    rawTimes.push(ms(t0));
  }
  raw.close();
  await app.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });

  const a = stats(appTimes);
  const b = stats(rawTimes);
  console.log(`a year's workload chart, ${ROWS.toLocaleString('en-US')} cases, ${RUNS} runs each`);
  console.log(`  app (HTTP)  p50 ${a.p50.toFixed(1)} ms  p95 ${a.p95.toFixed(1)} ms`);
  console.log(`  raw SQL     p50 ${b.p50.toFixed(1)} ms  p95 ${b.p95.toFixed(1)} ms`);
  console.log(`  ratio app / raw (p50) ${(a.p50 / b.p50).toFixed(2)}; target: app under 1000 ms → ${a.p95 < 1000 ? 'met' : 'NOT met'}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
