import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from './connect.js';

/** "No accepted write is ever lost": the embedded database answers a commit only once it is on the disk. */
describe('SQLite connection', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-connect-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('uses WAL with synchronous FULL, foreign keys and a busy timeout for several processes', async () => {
    const db = connect({ sqliteFile: path.join(dir, 'dsms.sqlite') });
    try {
      const one = async (pragma: string) => Object.values((await sql.raw(`PRAGMA ${pragma}`).execute(db)).rows[0] as object)[0];
      expect(await one('journal_mode')).toBe('wal');
      expect(await one('synchronous')).toBe(2); // FULL
      expect(await one('foreign_keys')).toBe(1);
      expect(await one('busy_timeout')).toBe(5000);
    } finally {
      await db.destroy();
    }
  });
});
