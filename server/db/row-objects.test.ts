import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withRowsBuiltInJs } from './row-objects.js';

describe('rows built in JS', () => {
  const sqlite = new Sqlite(':memory:');
  sqlite.exec("CREATE TABLE t (id integer primary key, name text, score real, data blob, note text)");
  sqlite.exec("INSERT INTO t (name, score, data, note) VALUES ('a', 1.5, x'0102', NULL), ('b', NULL, NULL, '张三')");
  const both = (sql: string, ...params: unknown[]) => ({
    ours: withRowsBuiltInJs(sqlite.prepare(sql), sql).all(...params),
    theirs: sqlite.prepare(sql).all(...params),
  });

  it('answers the very rows better-sqlite3 answers: same keys in the same order, same values and types', () => {
    const { ours, theirs } = both('SELECT id, name, score, data, note, id + 1 AS next, upper(name) FROM t WHERE id >= ? ORDER BY id', 1);
    expect(ours).toEqual(theirs);
    expect(ours.map((r) => Object.keys(r as object))).toEqual(theirs.map((r) => Object.keys(r as object)));
    expect(Buffer.isBuffer((ours[0] as { data: unknown }).data)).toBe(true);
    expect(Object.getPrototypeOf(ours[0])).toBe(Object.prototype);
  });

  it('iterates the same rows, and a stopped iteration frees the statement', () => {
    const sql = 'SELECT id, name FROM t ORDER BY id';
    const statement = withRowsBuiltInJs(sqlite.prepare(sql), sql);
    const rows = statement.iterate();
    expect(rows.next().value).toEqual({ id: 1, name: 'a' });
    expect(statement.busy).toBe(true);
    rows.return?.();
    expect(statement.busy).toBe(false);
    expect([...statement.iterate()]).toEqual(sqlite.prepare(sql).all());
  });

  it('leaves alone what it cannot build once: writes, `*`, a name given twice, __proto__', () => {
    for (const sql of ["UPDATE t SET name = name WHERE id = 0", 'SELECT * FROM t', 'SELECT t.*, 1 AS x FROM t', 'SELECT id, name AS id FROM t', 'SELECT id AS __proto__ FROM t']) {
      const statement = sqlite.prepare(sql);
      expect(withRowsBuiltInJs(statement, sql)).toBe(statement);
    }
    // A name given twice: the last value wins, as better-sqlite3 answers it.
    expect(withRowsBuiltInJs(sqlite.prepare('SELECT id, name AS id FROM t'), 'x').all()).toEqual(sqlite.prepare('SELECT id, name AS id FROM t').all());
  });
});
