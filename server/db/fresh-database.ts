import fs from 'node:fs';
import path from 'node:path';

/**
 * A first start builds its SQLite database under another name and renames it into place once migrated and seeded:
 * one flush to disk instead of one per migration, index and seed statement (on a busy disk those flushes were most
 * of a first start's time), and a start stopped half-way (kill -9, power cut) leaves no half-built database, only
 * the unfinished file, which the next start removes and builds again.
 */
export const unfinishedFile = (sqliteFile: string) => `${sqliteFile}.building`;

/** Removes what an earlier, interrupted build left; the name to build the new database under. */
export function startBuilding(sqliteFile: string): string {
  const file = unfinishedFile(sqliteFile);
  for (const leftover of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(leftover, { force: true });
  return file;
}

/** Flushes the closed, complete database to disk and gives it its real name (atomically: rename, then the folder flushed). */
export function publish(sqliteFile: string): void {
  const file = unfinishedFile(sqliteFile);
  for (const leftover of [`${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(leftover) && fs.statSync(leftover).size > 0 && leftover.endsWith('-wal')) {
      throw new Error(`${leftover} was not checkpointed: the database was not closed`);
    }
    fs.rmSync(leftover, { force: true });
  }
  const flush = (target: string) => { const fd = fs.openSync(target, 'r'); try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); } };
  flush(file);
  fs.renameSync(file, sqliteFile);
  flush(path.dirname(sqliteFile));
}
