import type { Kysely } from 'kysely';

/** The English names of the roles the seed shipped when this migration was written. */
const SHIPPED_EN_NAMES: Record<string, string> = {
  admin: 'Administrator', registrar: 'Registrar', sampler: 'Grossing doctor', technician: 'Technician',
  primary_doctor: 'First-diagnosis doctor', follow_up_doctor: 'Audit doctor', auditing_doctor: 'Sign-out doctor',
  allocation: 'Case allocator', quality_controller: 'Quality controller', scanner_operator: 'Scanner operator',
  clinician: 'Clinician', sub_center_admin: 'Sub-centre administrator', sub_center_user: 'Sub-centre user',
};

/**
 * Roles get an English name, so role names follow the UI language like hospital names do. The shipped
 * roles are named as that release's seed named them (by identification); a role an administrator made keeps an empty English
 * name, and the UI shows its own name until someone gives it one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('roles').addColumn('en_name', 'varchar(255)').execute();
  for (const [identification, enName] of Object.entries(SHIPPED_EN_NAMES)) {
    await db.updateTable('roles').set({ en_name: enName }).where('identification', '=', identification).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('roles').dropColumn('en_name').execute();
}
