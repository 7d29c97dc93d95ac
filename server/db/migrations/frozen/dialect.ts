import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * The migrations' own copy of db/connect's dialect test: a migration reads only what lives beside it, so what it
 * does never changes with today's code.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
