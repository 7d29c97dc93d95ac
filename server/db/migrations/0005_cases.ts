import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Pathology cases (spec §3 Case): the number, the patient and the workflow phase. Registration,
 * sampling and diagnosis add their own tables; a hospital's extra form fields land in `extra`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('cases')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pathology_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('case_type', 'varchar(16)', (c) => c.notNull().defaultTo('routine'))
    .addColumn('patient_name', 'varchar(128)')
    .addColumn('gender', 'varchar(8)')
    .addColumn('age', 'integer')
    .addColumn('age_unit', 'varchar(8)')
    .addColumn('id_number', 'varchar(32)')
    .addColumn('phone', 'varchar(32)')
    .addColumn('outpatient_number', 'varchar(64)')
    .addColumn('admission_number', 'varchar(64)')
    .addColumn('inspection_hospital', 'varchar(255)')
    .addColumn('inspection_department', 'varchar(255)')
    .addColumn('inspection_doctor', 'varchar(128)')
    .addColumn('inspection_date', 'varchar(32)')
    .addColumn('specimen_name', 'varchar(255)')
    .addColumn('clinical_diagnosis', 'text')
    .addColumn('main_phase', 'varchar(16)', (c) => c.notNull().defaultTo('registration'))
    .addColumn('sub_phase', 'varchar(32)')
    .addColumn('expedite_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('registration_at', 'varchar(32)')
    .addColumn('registration_doctor', 'integer')
    .addColumn('extra', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // One number per hospital: a sub-centre may reuse another centre's sequence.
  await db.schema.createIndex('cases_hospital_number').on('cases').columns(['hospital_id', 'pathology_number']).unique().execute();
  await db.schema.createIndex('cases_registration_at').on('cases').column('registration_at').execute();
  // Slides are hospital-scoped from now on; rows stored without a hospital belong to the first one,
  // or they would vanish from every list.
  await db.updateTable('slides').set({ hospital_id: db.selectFrom('hospitals').select((eb) => eb.fn.min('id').as('id')) })
    .where('hospital_id', '=', 0).where(({ exists, selectFrom }) => exists(selectFrom('hospitals').select('id'))).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cases').ifExists().execute();
}
