import type { Insertable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';

/** One browser error report, as LogError lists it. */
export async function insertErrorLog(db: Db, row: Insertable<Database['error_logs']>): Promise<void> {
  await db.insertInto('error_logs').values(row).execute();
}
