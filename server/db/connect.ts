import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import type pgModule from 'pg';
import { Kysely, PostgresAdapter, PostgresDialect, type LogConfig } from 'kysely';
import { ImmediateSqliteDialect } from './sqlite-immediate.js';
import type { Database } from './schema.js';
import { withStatementCache } from './statement-cache.js';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './statement-timeout.js';

export interface DbOptions {
  /** postgres://… selects PostgreSQL; otherwise the SQLite file `sqliteFile`. */
  databaseUrl?: string;
  sqliteFile?: string;
  /** A serialized SQLite database to open in memory instead of a file (tests copy a migrated, seeded template). */
  sqliteImage?: Buffer;
  /** PostgreSQL schema to use (tests isolate themselves in one). */
  pgSchema?: string;
  /** Kysely's query log; tests use it to see every statement that reaches the database. */
  log?: LogConfig;
  /** PostgreSQL cancels a statement running longer (0: never); default 15 s (the server passes DB_STATEMENT_TIMEOUT_MS: config.ts). */
  statementTimeoutMs?: number;
  /**
   * Nothing reaches the database until this resolves: the file is opened, or the pool made, at the first query
   * after it. A cluster worker builds its app while the setup process still migrates (server/main.ts).
   */
  openAfter?: Promise<unknown>;
  /**
   * SQLite: a new file nobody else has open, renamed into place once complete (fresh-database.ts): its commits skip
   * the flush to disk, as a crash loses only the unfinished file, rebuilt from nothing at the next start.
   */
  unpublished?: boolean;
}

export type Db = Kysely<Database>;

/** node-postgres, loaded only when DATABASE_URL selects PostgreSQL: a SQLite installation's processes never hold it. */
const pgDriver = () => createRequire(import.meta.url)('pg') as typeof pgModule;

export function connect(opts: DbOptions): Db {
  const { openAfter } = opts;
  if (opts.databaseUrl?.startsWith('postgres')) {
    const makePool = () => new (pgDriver().Pool)({
      connectionString: opts.databaseUrl,
      max: 10,
      // A runaway query (a costly filter, a lock never released) gives its connection back instead of holding
      // it for good; the request answers 503 (resource.query_timeout). SQLite's statements are bounded by
      // the list limits instead: better-sqlite3 runs them synchronously and cannot be interrupted from JS.
      statement_timeout: opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    const pool = openAfter ? async () => { await openAfter; return makePool(); } : makePool();
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: opts.log });
  }
  const open = () => {
    const file = opts.sqliteFile ?? ':memory:';
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    const sqlite = opts.sqliteImage ? new Sqlite(opts.sqliteImage) : new Sqlite(file);
    sqlite.pragma('journal_mode = WAL');
    // FULL: a commit reaches the disk before it is answered. NORMAL would keep WAL commits in the page cache until
    // a checkpoint, and a power cut could take back writes the user was told were saved.
    sqlite.pragma(opts.unpublished ? 'synchronous = OFF' : 'synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    return withStatementCache(sqlite);
  };
  const database = openAfter ? async () => { await openAfter; return open(); } : open();
  return new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database }), log: opts.log });
}

// Any database shape: migrations and index builds ask it too, before schema.ts describes their tables.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
