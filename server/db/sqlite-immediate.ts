import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type SqliteDialectConfig } from 'kysely';

/**
 * SQLite transactions that take the write lock when they begin. Kysely's `begin` is deferred: a transaction that
 * reads and then writes (a report step reads the case's phase, then updates the report) holds a read snapshot, and
 * if another process commits meanwhile (the workers share the file) its first write fails at once with SQLITE_BUSY_SNAPSHOT,
 * which the busy timeout does not wait out: an intermittent 500. `begin immediate` waits for the lock up front, within
 * the busy timeout, and the transaction then reads what it will write over.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
