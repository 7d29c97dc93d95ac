import Sqlite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.js';

describe('statement cache', () => {
  const sqlite = new Sqlite(':memory:');
  sqlite.exec('CREATE TABLE t (id integer primary key, name text)');
  sqlite.exec("INSERT INTO t (name) VALUES ('a'), ('b'), ('c')");
  afterEach(() => sqlite.exec('DROP TABLE IF EXISTS u'));

  it('hands back the same prepared statement for the same text, with fresh parameters each run', () => {
    const db = withStatementCache(sqlite);
    const first = db.prepare('SELECT name FROM t WHERE id = ?');
    expect(db.prepare('SELECT name FROM t WHERE id = ?')).toBe(first);
    expect(first.all([1])).toEqual([{ name: 'a' }]);
    expect(db.prepare('SELECT name FROM t WHERE id = ?').all([3])).toEqual([{ name: 'c' }]);
  });

  it('prepares a fresh statement while the kept one is still being iterated', () => {
    const db = withStatementCache(sqlite);
    const kept = db.prepare('SELECT id FROM t ORDER BY id');
    const rows = kept.iterate();
    rows.next();
    const other = db.prepare('SELECT id FROM t ORDER BY id');
    expect(other).not.toBe(kept);
    expect(other.all()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    rows.return?.();
    expect(db.prepare('SELECT id FROM t ORDER BY id')).toBe(kept);
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const db = withStatementCache(sqlite, 2);
    const one = db.prepare('SELECT 1');
    const two = db.prepare('SELECT 2');
    expect(db.prepare('SELECT 1')).toBe(one); // now the most recent
    db.prepare('SELECT 3');
    expect(db.prepare('SELECT 1')).toBe(one);
    expect(db.prepare('SELECT 2')).not.toBe(two);
  });

  it('forgets everything when the schema changes, and a kept statement sees the new schema', () => {
    const db = withStatementCache(sqlite);
    db.prepare('CREATE TABLE u (id integer)').run();
    const select = db.prepare('SELECT * FROM u');
    db.prepare('INSERT INTO u (id) VALUES (1)').run();
    expect(select.all()).toEqual([{ id: 1 }]);
    db.prepare('ALTER TABLE u ADD COLUMN name text').run();
    expect(db.prepare('SELECT * FROM u')).not.toBe(select);
    // Even a statement held across the change is re-planned by SQLite and answers the new columns.
    expect(select.all()).toEqual([{ id: 1, name: null }]);
  });
});
