import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ImmediateSqliteDialect } from './sqlite-immediate.js';

interface Tables { t: { id: number; n: number } }

/**
 * Two connections to one file stand for two app processes. The transaction reads, another process commits a
 * write, then the transaction writes: with a deferred begin its write is the one refused (SQLITE_BUSY_SNAPSHOT at once, no
 * busy wait); with `begin immediate` the other writer waits for the lock instead (here refused after its own short
 * busy timeout, since both connections share one thread) and the transaction's write stands.
 */
describe('SQLite transactions across processes', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-immediate-'));
  const file = path.join(dir, 'db.sqlite');
  const open: Kysely<Tables>[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  });

  const setUp = (Dialect: typeof SqliteDialect) => {
    const a = new Sqlite(file);
    a.pragma('journal_mode = WAL');
    a.exec('create table t (id integer primary key, n integer); insert into t values (1, 0)');
    const db = new Kysely<Tables>({ dialect: new Dialect({ database: a }) });
    const other = new Sqlite(file);
    other.pragma('busy_timeout = 50');
    open.push(db);
    return { db, other };
  };
  const readThenWrite = (db: Kysely<Tables>, between: () => void) => db.transaction().execute(async (trx) => {
    const { n } = await trx.selectFrom('t').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
    between();
    await trx.updateTable('t').set({ n: n + 10 }).where('id', '=', 1).execute();
  });

  it('a deferred begin loses its write to a commit between its read and its write', async () => {
    const { db, other } = setUp(SqliteDialect);
    await expect(readThenWrite(db, () => other.prepare('update t set n = n + 1').run())).rejects.toMatchObject({ code: 'SQLITE_BUSY_SNAPSHOT' });
    expect(other.prepare('select n from t').get()).toEqual({ n: 1 });
    other.close();
  });

  it('begin immediate keeps the write: the other writer waits its turn', async () => {
    const { db, other } = setUp(ImmediateSqliteDialect);
    let otherRefused: unknown;
    await readThenWrite(db, () => {
      try { other.prepare('update t set n = n + 1').run(); } catch (err) { otherRefused = err; }
    });
    expect(otherRefused).toMatchObject({ code: 'SQLITE_BUSY' });
    other.prepare('update t set n = n + 1').run();
    expect(other.prepare('select n from t').get()).toEqual({ n: 11 });
    expect((await sql<{ n: number }>`select n from t`.execute(db)).rows).toEqual([{ n: 11 }]);
    other.close();
  });
});
