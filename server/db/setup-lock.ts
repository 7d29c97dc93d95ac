import { createRequire } from 'node:module';
import type pgModule from 'pg';

/** PostgreSQL advisory lock key of the start-up setup ("DSMS setup" as a 64-bit number). */
const SETUP_LOCK = '4920041986051330899';

/**
 * Runs the start-up setup (migrations, indexes, seed) one node at a time on a shared PostgreSQL: nodes of a cluster
 * started together would otherwise seed the same demo slides twice (the second dies on 409 slide.already_bound).
 * The lock is held by a connection of its own for the whole setup and goes with it, also when the holder is killed,
 * so a later node waits, then finds the work done. SQLite has one node and needs none.
 */
export async function withSetupLock<T>(databaseUrl: string | undefined, run: () => Promise<T>): Promise<T> {
  if (!databaseUrl) return run();
  const pg = createRequire(import.meta.url)('pg') as typeof pgModule;
  const holder = new pg.Client({ connectionString: databaseUrl, application_name: 'dsms setup lock' });
  await holder.connect();
  try {
    await holder.query('select pg_advisory_lock($1::bigint)', [SETUP_LOCK]);
    return await run();
  } finally {
    await holder.end();
  }
}
