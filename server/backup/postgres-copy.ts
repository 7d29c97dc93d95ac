import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { databaseFacts, type DatabaseFacts } from './database-facts.js';

const run = promisify(execFile);

/**
 * PostgreSQL through Debian's client tools (`postgresql-client`): pg_dump's custom format (-Fc) out, pg_restore in.
 * pg_dump must be at least the server's major version (it refuses an older one); pg_restore at least pg_dump's.
 * The password is handed over in PGPASSWORD, not on the command line where `ps` shows it.
 */
function clientArgs(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function connectPg(url: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

export interface PostgresDump extends DatabaseFacts { pgDump: string; serverVersion: string }

/**
 * pg_dump of one snapshot: a read-only repeatable-read transaction exports its snapshot, pg_dump dumps exactly that
 * (--snapshot), and the manifest's facts are read in the same transaction, so they describe the dump, however the app
 * writes meanwhile.
 */
export async function dumpPostgres(url: string, outFile: string): Promise<PostgresDump> {
  const client = await connectPg(url);
  try {
    await client.query('begin isolation level repeatable read read only');
    const snapshot = String((await client.query('select pg_export_snapshot() as s')).rows[0].s);
    const serverVersion = String((await client.query('show server_version')).rows[0].server_version);
    const facts = await databaseFacts(async (sql) => (await client.query(sql)).rows as Record<string, unknown>[]);
    const { dbname, env } = clientArgs(url);
    await run('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${outFile}`, `--dbname=${dbname}`], { env });
    const pgDump = (await run('pg_dump', ['--version'])).stdout.trim();
    await client.query('commit');
    return { ...facts, pgDump, serverVersion };
  } finally {
    await client.end();
  }
}

/** Tables the database holds in its public schema: a restore goes only into an empty database unless forced. */
export async function postgresTableCount(url: string): Promise<number> {
  const client = await connectPg(url);
  try {
    return Number((await client.query("select count(*) as n from information_schema.tables where table_schema = 'public'")).rows[0].n);
  } finally {
    await client.end();
  }
}

/**
 * pg_restore in one transaction: the database has all of the dump or none of it. Objects are owned by the user
 * restoring (--no-owner, --no-privileges), as the target's roles need not be the source's. `clean` (a forced
 * restore) drops what the dump holds first.
 */
export async function restorePostgres(url: string, dumpFile: string, clean: boolean): Promise<void> {
  const { dbname, env } = clientArgs(url);
  await run('pg_restore', [
    '--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges',
    ...(clean ? ['--clean', '--if-exists'] : []), `--dbname=${dbname}`, dumpFile,
  ], { env, maxBuffer: 16 * 2 ** 20 });
}

/** A restored database's hospital areas moved (restore --area): each area's storage_url set to its new location, in one transaction. */
export async function setAreaLocationsPostgres(url: string, moves: ReadonlyMap<number, string>): Promise<void> {
  const client = await connectPg(url);
  try {
    await client.query('begin');
    for (const [id, location] of moves) await client.query('update hospital_areas set storage_url = $1 where id = $2', [location, id]);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}
