import fs from 'node:fs';
import Sqlite from 'better-sqlite3';
import { databaseFacts, type DatabaseFacts } from './database-facts.js';

/**
 * A consistent copy of the live SQLite database while the app runs: `VACUUM INTO` reads the database inside one read
 * transaction (what was committed when it began, WAL included) and writes a new, compacted file; the app's writers
 * go on meanwhile. Never a copy of dsms.sqlite and its -wal file, which can be caught between a write and a checkpoint.
 */
export function snapshotSqlite(liveFile: string, outFile: string): void {
  if (!fs.existsSync(liveFile)) throw new Error(`${liveFile} is absent: is DATA_DIR the app's data directory?`);
  const live = new Sqlite(liveFile, { fileMustExist: true });
  try {
    // A writer's checkpoint can hold the lock a moment; wait for it as the app does.
    live.pragma('busy_timeout = 5000');
    live.prepare('vacuum into ?').run(outFile);
  } finally {
    live.close();
  }
}

/** The manifest's facts, read from a SQLite file opened read-only (the snapshot: its bytes stay as hashed). */
export async function sqliteFacts(file: string): Promise<DatabaseFacts> {
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    return await databaseFacts(async (sql) => db.prepare(sql).all() as Record<string, unknown>[]);
  } finally {
    db.close();
  }
}

/** A restored database's hospital areas moved (restore --area): each area's storage_url set to its new location. */
export function setAreaLocationsSqlite(file: string, moves: ReadonlyMap<number, string>): void {
  const db = new Sqlite(file, { fileMustExist: true });
  try {
    const update = db.prepare('update hospital_areas set storage_url = ? where id = ?');
    db.transaction(() => { for (const [id, url] of moves) update.run(url, id); })();
  } finally {
    db.close();
  }
}
