import type { Statement } from 'better-sqlite3';

/** What Kysely's SQLite driver asks of a statement. */
type DriverStatement = Pick<Statement, 'reader' | 'busy' | 'all' | 'iterate' | 'run'>;

/**
 * A reading statement whose rows come from SQLite as arrays (better-sqlite3's raw mode) and become objects here.
 * better-sqlite3 builds each row object property by property in C++, which costs more than SQLite's own work on a
 * page of a hundred rows (about 250 µs of the 580 µs of the list benchmark's page query); the same objects made in
 * JS, one shape for every row of the statement, cost a few microseconds. The objects are the same: the result
 * column names as keys, in order, the values untouched.
 * Left as they are: statements that write (no rows), and those whose columns the statement cannot fix once:
 * `*` (a schema change by another connection makes SQLite re-prepare it, maybe with other columns), a name given
 * twice or `__proto__` (a plain assignment would not make it a property).
 */
export function withRowsBuiltInJs(statement: Statement, sql: string): Statement {
  if (!statement.reader || sql.includes('*')) return statement;
  const names = statement.columns().map((c) => c.name);
  if (new Set(names).size !== names.length || names.includes('__proto__')) return statement;
  statement.raw(true);
  const toObject = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]] = values[i];
    return row;
  };
  const facade: DriverStatement = {
    reader: true,
    get busy() { return statement.busy; },
    all: (...params: unknown[]) => (statement.all(...params) as unknown[][]).map(toObject),
    *iterate(...params: unknown[]) {
      for (const values of statement.iterate(...params) as IterableIterator<unknown[]>) yield toObject(values);
    },
    run: (...params: unknown[]) => statement.run(...params),
  };
  return facade as Statement;
}
