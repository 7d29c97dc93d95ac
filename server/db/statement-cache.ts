import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import { withRowsBuiltInJs } from './row-objects.js';

/** Distinct statement texts kept prepared; the app issues a few hundred shapes, an `in (…)` list one per length. */
const DEFAULT_CAPACITY = 500;

/** Statements that change the schema: never kept, and they drop what is kept (a kept plan may name what they changed). */
const SCHEMA_CHANGE = /^\s*(create|alter|drop|vacuum|attach|detach|reindex|analyze|pragma)\b/i;

/**
 * The `database` Kysely's SqliteDialect drives, with better-sqlite3 statements reused by SQL text. Kysely prepares
 * every statement it runs afresh, and preparing costs SQLite a parse and a plan each time: on a list query of about
 * a millisecond that is a tenth of the work (profile of scripts/bench/list.ts). A kept statement is re-planned by
 * SQLite itself when the schema changes under it, so reuse never runs a stale plan.
 * Kept statements are used one at a time: Kysely's SQLite driver runs one query at a time on its single connection,
 * and a statement still being iterated (a streamed query) gets a fresh one instead of its kept twin.
 * Statements that read hand their rows over as JS builds them (row-objects.ts), not as better-sqlite3 does.
 */
export function withStatementCache(sqlite: SqliteDatabase, capacity = DEFAULT_CAPACITY): Pick<SqliteDatabase, 'prepare' | 'close'> {
  // A Map iterates in insertion order: re-inserting on use makes its first key the least recently used.
  const kept = new Map<string, Statement>();
  return {
    prepare(sql: string) {
      if (SCHEMA_CHANGE.test(sql)) {
        kept.clear();
        return sqlite.prepare(sql);
      }
      const found = kept.get(sql);
      if (found && !found.busy) {
        kept.delete(sql);
        kept.set(sql, found);
        return found;
      }
      const statement = withRowsBuiltInJs(sqlite.prepare(sql), sql);
      if (!found) {
        kept.set(sql, statement);
        if (kept.size > capacity) kept.delete(kept.keys().next().value!);
      }
      return statement;
    },
    close() {
      kept.clear();
      return sqlite.close();
    },
  } as Pick<SqliteDatabase, 'prepare' | 'close'>;
}
