import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * The installation's DICOM UID namespace (issue 30, DICOMweb): 48 random bits that begin every Study, Series and
 * SOP Instance UID DSMS makes (src/core/dicomUid.ts), so UIDs stay the same across restarts and nodes and differ
 * from every other installation's. Kept in the settings table under a key the settings API does not declare: no
 * one edits it (a new value would give every slide new UIDs). A backup carries it with the database.
 */
const KEY = 'dicom_uid_namespace';

export async function up(db: Kysely<any>): Promise<void> {
  const exists = await db.selectFrom('settings').select('key').where('key', '=', KEY).executeTakeFirst();
  if (exists) return;
  await db.insertInto('settings')
    .values({ key: KEY, value: JSON.stringify(randomBytes(6).toString('hex')), is_public: 0, updated_at: new Date().toISOString() })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('settings').where('key', '=', KEY).execute();
}
