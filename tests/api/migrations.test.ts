import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connect.js';
import { migrateUpTo } from '../../server/db/migrate.js';
import { databases, emptyDatabase } from './harness.js';

/** Upgrades: a database an older release left behind keeps its rows visible after the new migrations. */
describe.each(databases)('migrations [%s]', (kind) => {
  let db: Db;
  let schema: string | undefined;
  let drop = async () => {};
  afterEach(async () => {
    await drop();
  });

  const open = async () => {
    const fresh = await emptyDatabase(kind);
    ({ schema, drop } = fresh);
    return fresh.db;
  };

  it('0005 gives slides stored without a hospital to the first hospital (they are hospital-scoped now)', async () => {
    db = await open();
    await migrateUpTo(db, '0004_slides', schema);
    const now = new Date().toISOString();
    const [first] = await db.insertInto('hospitals').values([
      { code: 'A', name: 'A', en_name: 'A', logo: null, created_at: now },
      { code: 'B', name: 'B', en_name: 'B', logo: null, created_at: now },
    ]).returning('id').execute();
    const slide = (name: string, hospital: number) => ({ hospital_id: hospital, case_id: null, name, file_path: `slides/${name}.tiff`, file_size: 1, status: 'ready' as const, has_label: 0, has_macro: 0, created_at: now, updated_at: now });
    await db.insertInto('slides').values([slide('old', 0), slide('kept', first.id + 1)]).execute();
    await migrateUpTo(db, undefined, schema);
    const rows = await db.selectFrom('slides').select(['name', 'hospital_id']).orderBy('name').execute();
    expect(rows).toEqual([{ name: 'kept', hospital_id: first.id + 1 }, { name: 'old', hospital_id: first.id }]);
  });
});
