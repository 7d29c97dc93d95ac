import type { Kysely } from 'kysely';

/**
 * Statistics (issue 16): every chart counts rows of one hospital whose event time falls in a range of shift days,
 * so each event column gets a (hospital_id, time) index; the range is a plain comparison of ISO text and the
 * database reads only the period's rows from the index. Section logs have no hospital; views are read by action.
 */
const INDEXES: [name: string, table: string, columns: string[]][] = [
  ['stat_cases_registration', 'cases', ['hospital_id', 'registration_at']],
  ['stat_cases_sample', 'cases', ['hospital_id', 'sample_at']],
  ['stat_cases_sign', 'cases', ['hospital_id', 'sign_at']],
  ['stat_slides_created', 'slides', ['hospital_id', 'created_at']],
  ['stat_scan_jobs_created', 'scan_jobs', ['hospital_id', 'created_at']],
  ['stat_slide_qc_at', 'slide_qc', ['hospital_id', 'qc_at']],
  ['stat_specimens_updated', 'case_specimens', ['hospital_id', 'status', 'updated_at']],
  ['stat_specimens_received', 'case_specimens', ['hospital_id', 'receive_at']],
  ['stat_section_logs_action', 'section_logs', ['action', 'created_at']],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, table, columns] of INDEXES) await db.schema.createIndex(name).ifNotExists().on(table).columns(columns).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
}
