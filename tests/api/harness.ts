import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { sql, type LogConfig } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../../server/app.js';
import { connect, type Db } from '../../server/db/connect.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { seed } from '../../server/db/seed/index.js';
import type { JobType } from '../../server/modules/jobs/registry.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import { slideIngestJob } from '../../server/modules/slides/ingest.js';
import { adminQuery, withDatabase } from './template-db.js';

/**
 * Every API suite runs once per real database: SQLite always, PostgreSQL when TEST_DATABASE_URL is
 * set. Use `describe.each(databases)('… [%s]', …)` so the output names the database of each test.
 * vitest.config.ts runs the files once per database, as projects `api-sqlite` and `api-postgres`
 * (DSMS_TEST_DB names the one); a file run outside them takes both.
 */
export const databases: string[] = process.env.DSMS_TEST_DB
  ? [process.env.DSMS_TEST_DB]
  : ['sqlite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

export interface Harness {
  app: FastifyInstance;
  db: Db;
  /** PostgreSQL: the URL of this harness's database, for a second handle on it (two apps on one database). */
  url?: string;
  close(): Promise<void>;
}

/** How a test's database handle is opened: its query log, and PostgreSQL's statement timeout (config.ts's dbStatementTimeoutMs). */
export interface DatabaseOptions { log?: LogConfig; statementTimeoutMs?: number }

/**
 * An empty database of the kind, not yet migrated: SQLite in memory, or a fresh PostgreSQL schema of its own.
 * `schema` is that schema (for the migrator); `drop` removes it and closes the connection.
 */
export async function emptyDatabase(kind: string, opts: DatabaseOptions = {}): Promise<{ db: Db; schema?: string; drop(): Promise<void> }> {
  if (kind !== 'postgres') {
    const db = connect({ sqliteFile: ':memory:', log: opts.log });
    return { db, drop: () => db.destroy() };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = connect({ databaseUrl: url, pgSchema: schema, log: opts.log, statementTimeoutMs: opts.statementTimeoutMs });
  return {
    db, schema,
    async drop() {
      await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db);
      await db.destroy();
    },
  };
}

/**
 * A migrated and seeded database of the kind, copied from the run's template (tests/api/template-db.ts) when the API
 * project made one, else migrated and seeded here. `url` (PostgreSQL) reaches the same database from a second handle.
 */
export async function seededDatabase(kind: string, opts: DatabaseOptions = {}): Promise<{ db: Db; url?: string; drop(): Promise<void> }> {
  if (kind !== 'postgres') {
    const image = inject('sqliteTemplate');
    if (image) {
      const db = connect({ sqliteImage: fs.readFileSync(image), log: opts.log });
      return { db, drop: () => db.destroy() };
    }
  } else {
    const template = inject('pgTemplate');
    if (template) {
      const server = process.env.TEST_DATABASE_URL!;
      const name = `dsms_t_${randomBytes(6).toString('hex')}`;
      await adminQuery(server, `CREATE DATABASE ${name} TEMPLATE ${template}`);
      // A test database outlives no crash: its commits need not wait for the disk (each one did, ~ms on a busy CI disk).
      await adminQuery(server, `ALTER DATABASE ${name} SET synchronous_commit = off`);
      const url = withDatabase(server, name);
      const db = connect({ databaseUrl: url, log: opts.log, statementTimeoutMs: opts.statementTimeoutMs });
      return {
        db, url,
        async drop() {
          await db.destroy();
          // Not FORCE at once: the pool's last connections may still be closing, and a backend terminated under
          // them raises an error nobody listens to. Plain DROP waits (up to 5 s) for them to go.
          await adminQuery(server, `DROP DATABASE IF EXISTS ${name}`)
            .catch(() => adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
        },
      };
    }
  }
  const { db, schema, drop } = await emptyDatabase(kind, opts);
  await migrateToLatest(db, schema);
  await seed(db, true);
  const url = schema ? `${process.env.TEST_DATABASE_URL}${process.env.TEST_DATABASE_URL!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}` : undefined;
  return { db, url, drop };
}

/** A migrated and seeded database of the kind and the app on it, ready; `config` as testApp takes it (a data dir, a public URL …). */
export async function startApp(kind: string, opts: DatabaseOptions & { config?: Partial<AppOptions['config']> } = {}): Promise<Harness> {
  const { db, url, drop } = await seededDatabase(kind, opts);
  const app = await testApp(db, opts.config);
  await app.ready();
  return {
    app,
    db,
    url,
    async close() {
      await app.close();
      await drop();
    },
  };
}

/**
 * The app as main.ts builds it, quiet, without a built site; `config` adds a data dir or limits. Not yet ready.
 * With a data dir it also runs slide ingest jobs (bind answers 'ingesting' and a job reads the file, as main.ts's
 * runner does), stopped when the app closes, unless `ingest: false`; conversions stay with the runners the tests start.
 */
export async function testApp(db: Db, config: Partial<AppOptions['config']> = {}, opts: { ingest?: boolean } = {}): Promise<FastifyInstance> {
  const app = await buildApp({ db, config: { tokenTtlSeconds: 3600, distDir: '/nonexistent', logLevel: 'warn', ...config }, logger: false });
  if (config.dataDir && opts.ingest !== false) {
    const release = ingestRunnerFor(db, config.dataDir);
    app.addHook('onClose', release);
  }
  return app;
}

/**
 * One ingest runner per database handle and data dir, shared by the apps on them and stopped with the last: as
 * main.ts runs one per machine, however many processes serve. A bind wakes it (the 'jobs.queued' event), so it polls
 * only as a fallback. A runner per app polling every few milliseconds held PostgreSQL pools full (10 connections
 * and hundreds of statements a second per suite) under the suites that open several apps on one database.
 */
const ingestRunners = new WeakMap<Db, Map<string, { runner: JobRunner; users: number }>>();

function ingestRunnerFor(db: Db, dataDir: string): () => Promise<void> {
  let byDir = ingestRunners.get(db);
  if (!byDir) ingestRunners.set(db, (byDir = new Map()));
  let entry = byDir.get(dataDir);
  if (!entry) {
    const quiet = process.env.DEBUG_JOBS ? console : { info() {}, warn() {}, error() {} };
    entry = { runner: startJobRunner(db, { types: [slideIngestJob(dataDir, 30_000) as JobType<unknown>], log: quiet, pollMs: 500 }), users: 0 };
    byDir.set(dataDir, entry);
  }
  const shared = entry;
  shared.users += 1;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    shared.users -= 1;
    if (shared.users > 0) return;
    byDir.delete(dataDir);
    await shared.runner.stop();
  };
}

/**
 * A bound slide once its ingest job has ended (status no longer 'ingesting'): the row as the API answers it then.
 * Tests that bind and then read the file's facts, tiles or thumbnail wait here first.
 */
export async function ingested(app: FastifyInstance, token: string, id: number, timeoutMs = 120_000): Promise<Record<string, any>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(app, 'GET', `/api/data/kfb/item/${id}`, { token });
    if (res.statusCode !== 200) throw new Error(`slide ${id}: ${res.statusCode} ${res.body}`);
    const row = res.json().data;
    if (row.status !== 'ingesting') return row;
    if (Date.now() > end) throw new Error(`slide ${id} still ingesting: ${(await call(app, 'GET', `/api/jobs/slide/${id}`, { token })).body}`);
    // Not so often that many waiting tests starve the runner sharing their event loop.
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Sealed { key_id: string; password: string }

/** Does what the browser does: fetch a challenge and seal `nonce:password` with RSA-OAEP SHA-256. */
export async function seal(app: FastifyInstance, password: string): Promise<Sealed> {
  const res = await app.inject({ method: 'GET', url: '/api/auth/challenge' });
  const { key_id, public_key, nonce } = res.json().data;
  const cipher = publicEncrypt({ key: public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`${nonce}:${password}`));
  return { key_id, password: cipher.toString('base64') };
}

export async function loginAs(app: FastifyInstance, username: string, password: string) {
  const sealed = await seal(app, password);
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, ...sealed } });
}

/** The seeded password of a demo account. */
export const passwordOf = (username: string) => (username === 'admin' ? DEMO_PASSWORDS.admin : DEMO_PASSWORDS.others);

/** A bearer token for a demo account (admin → dsms-admin, others → dsms-demo). */
export async function tokenFor(app: FastifyInstance, username: string): Promise<string> {
  const res = await loginAs(app, username, passwordOf(username));
  if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.body}`);
  return res.json().data.access_token;
}

export interface CallOptions {
  token?: string;
  /** Sent as `User-Language`; omitted means the server's default. */
  lang?: string;
  payload?: object;
  headers?: Record<string, string>;
}

/** One API request the way the browser sends it: bearer token and `User-Language` when given. */
export function call(app: FastifyInstance, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, opts: CallOptions = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.lang) headers['user-language'] = opts.lang;
  return app.inject({ method, url, headers, payload: opts.payload });
}

export async function userId(db: Db, name: string): Promise<number> {
  const row = await db.selectFrom('users').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return row.id;
}
