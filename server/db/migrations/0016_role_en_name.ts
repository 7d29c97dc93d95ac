import type { Kysely } from 'kysely';
import { shippedStructure } from '../seed/structure.js';

/**
 * Roles get an English name, so role names follow the UI language like hospital names do. The shipped
 * roles are named from the seed (by identification); a role an administrator made keeps an empty English
 * name, and the UI shows its own name until someone gives it one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('roles').addColumn('en_name', 'varchar(255)').execute();
  for (const role of shippedStructure().roles) {
    if (role.en_name) await db.updateTable('roles').set({ en_name: role.en_name }).where('identification', '=', role.identification).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('roles').dropColumn('en_name').execute();
}
