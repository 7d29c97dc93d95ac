import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connect } from '../../server/db/connect.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seed } from '../../server/db/seed/index.js';
import { withMigrationSecrets } from '../../server/security/sealed-secrets.js';

/**
 * Global set-up of the API projects: migrates and seeds one database of the project's kind (DSMS_TEST_DB) once per
 * run, which every `startApp` then copies instead of migrating and seeding again (about 0.2 s on SQLite, 0.6 s on
 * PostgreSQL, a few hundred times a run). SQLite: the serialized database in a file, opened in memory by each test
 * (better-sqlite3 deserializes it). PostgreSQL: a database each test clones with CREATE DATABASE … TEMPLATE.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** SQLite: the file holding the template's serialized bytes. */
    sqliteTemplate?: string;
    /** PostgreSQL: the template database's name, on TEST_DATABASE_URL's server. */
    pgTemplate?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = project.config.env?.DSMS_TEST_DB;
  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `dsms_tpl_${randomBytes(5).toString('hex')}`;
    await adminQuery(url, `CREATE DATABASE ${name}`);
    const db = connect({ databaseUrl: withDatabase(url, name), statementTimeoutMs: 0 });
    await migrateToLatest(db);
    await seed(db, true);
    await db.destroy();
    // Only a database no one is connected to can be a template; marking it one keeps anyone from writing to it.
    await adminQuery(url, `ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    project.provide('pgTemplate', name);
    return async () => {
      await adminQuery(url, `ALTER DATABASE ${name} WITH IS_TEMPLATE false`);
      await adminQuery(url, `DROP DATABASE IF EXISTS ${name}`);
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-api-template-'));
  const file = path.join(dir, 'template.sqlite');
  await seededSqliteFile(file);
  // Each test opens the bytes in memory.
  const sqlite = new Sqlite(file);
  const image = path.join(dir, 'template.image');
  fs.writeFileSync(image, sqlite.serialize());
  sqlite.close();
  project.provide('sqliteTemplate', image);
  return async () => fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * A migrated, demo-seeded SQLite file, out of WAL mode so that the one file is the whole database (the API and e2e
 * templates). `dataDir`: the migrations run with that directory's secrets key, as server/setup.ts runs them.
 */
export async function seededSqliteFile(file: string, dataDir?: string): Promise<void> {
  const db = connect({ sqliteFile: file });
  await (dataDir ? withMigrationSecrets({ dataDir }, () => migrateToLatest(db)) : migrateToLatest(db));
  await seed(db, true);
  await db.destroy();
  const sqlite = new Sqlite(file);
  sqlite.pragma('journal_mode = DELETE');
  sqlite.close();
}

export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try { await client.query(text); } finally { await client.end(); }
}

/** The same server and credentials, another database. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
