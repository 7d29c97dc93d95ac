import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from './connect.js';
import { publish, startBuilding, unfinishedFile } from './fresh-database.js';

const dirs: string[] = [];
const tempDir = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-fresh-')); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

describe('a first start builds its database under another name', () => {
  it('publishes the complete database, in WAL mode, under its real name and leaves nothing else', async () => {
    const file = path.join(tempDir(), 'dsms.sqlite');
    const db = connect({ sqliteFile: startBuilding(file), unpublished: true });
    await db.schema.createTable('t').addColumn('v', 'integer').execute();
    await db.insertInto('t' as never).values({ v: 7 } as never).execute();
    expect(fs.existsSync(file)).toBe(false);
    await db.destroy();
    publish(file);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['dsms.sqlite']);
    const reopened = connect({ sqliteFile: file });
    const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(reopened);
    expect(rows[0]?.journal_mode).toBe('wal');
    expect(await reopened.selectFrom('t' as never).selectAll().execute()).toEqual([{ v: 7 }]);
    await reopened.destroy();
  });

  it('starts again from nothing after a build that was interrupted', () => {
    const file = path.join(tempDir(), 'dsms.sqlite');
    for (const f of [unfinishedFile(file), `${unfinishedFile(file)}-wal`, `${unfinishedFile(file)}-shm`]) fs.writeFileSync(f, 'half');
    expect(startBuilding(file)).toBe(unfinishedFile(file));
    expect(fs.readdirSync(path.dirname(file))).toEqual([]);
  });

  it('refuses to publish a database that was not closed', async () => {
    const file = path.join(tempDir(), 'dsms.sqlite');
    const db = connect({ sqliteFile: startBuilding(file), unpublished: true });
    await db.schema.createTable('t').addColumn('v', 'integer').execute();
    expect(() => publish(file)).toThrow(/not checkpointed/);
    expect(fs.existsSync(file)).toBe(false);
    await db.destroy();
  });
});
