import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Diagnosis and reports (issue 15): the reports of a case (first → audit → sign, print and send, supplementary
 * reports), the diagnostic templates (a tree) and phrases the editor inserts, and the report configuration of
 * spec §7: report templates (structured or Word), report keys, structured report fields, report rules.
 * `cases.latest_report` holds the status fields of the case's latest report (JSON, written in the report's own
 * transaction), so the spec §4 case status, which reads the latest report, is counted and filtered in SQL.
 */

type AnyDb = Kysely<any>;
type Col = [string, string, ((c: any) => any)?];

const id = (pg: boolean) => [(pg ? 'serial' : 'integer') as 'integer', (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement())] as const;
const notNull = (c: any) => c.notNull();
const stamps: Col[] = [['created_at', 'varchar(32)', notNull], ['updated_at', 'varchar(32)', notNull]];

const TABLES: Record<string, Col[]> = {
  reports: [
    ['hospital_id', 'integer', notNull],
    ['case_id', 'integer', (c) => c.notNull().references('cases.id').onDelete('cascade')],
    ['report_type', 'integer', (c) => c.notNull().defaultTo(1)],
    ['supplement_type', 'integer'],
    ['sub_phase', 'varchar(32)', notNull],
    ['is_draft', 'integer', (c) => c.notNull().defaultTo(1)],
    ['release_status', 'varchar(8)', (c) => c.notNull().defaultTo('no')],
    ['gross_description', 'text'],
    ['microscopic', 'text'],
    ['diagnosis', 'text'],
    ['advice', 'text'],
    ['postscript', 'text'],
    ['images', 'text'],
    ['first_doctor', 'integer'],
    ['first_at', 'varchar(32)'],
    ['audit_doctor', 'integer'],
    ['audit_at', 'varchar(32)'],
    ['sign_doctor', 'integer'],
    ['sign_at', 'varchar(32)'],
    ['return_reason', 'text'],
    ['returned_count', 'integer', (c) => c.notNull().defaultTo(0)],
    ['issue_at', 'varchar(32)'],
    ['print_at', 'varchar(32)'],
    ['deliver_at', 'varchar(32)'],
    ['delayed', 'integer', (c) => c.notNull().defaultTo(0)],
    ['delay_reason', 'text'],
    ['delay_at', 'varchar(32)'],
    ['delay_doctor', 'integer'],
    ['delay_status', 'varchar(16)'],
    ['follow_up', 'varchar(16)'],
    ['evaluation', 'varchar(16)', (c) => c.notNull().defaultTo('unassessed')],
    ['verify_code', 'varchar(64)'],
    ['verify_hash', 'varchar(128)'],
    ['version', 'integer', (c) => c.notNull().defaultTo(0)],
    ['created_by', 'integer'],
    ...stamps,
  ],
  diagnosis_templates: [
    ['hospital_id', 'integer', notNull],
    ['parent_id', 'integer'],
    ['name', 'varchar(128)', notNull],
    ['gross_description', 'text'],
    ['microscopic', 'text'],
    ['diagnosis', 'text'],
    ['advice', 'text'],
    ['rank', 'integer', (c) => c.notNull().defaultTo(0)],
    ...stamps,
  ],
  diagnosis_phrases: [
    ['hospital_id', 'integer', notNull],
    ['category', 'varchar(64)'],
    ['text', 'varchar(1000)', notNull],
    ['rank', 'integer', (c) => c.notNull().defaultTo(0)],
    ...stamps,
  ],
  report_templates: [
    ['hospital_id', 'integer', notNull],
    ['template_name', 'varchar(128)', notNull],
    ['type', 'varchar(32)', (c) => c.notNull().defaultTo('routine')],
    ['sub_type', 'varchar(32)'],
    ['is_word_template', 'integer', (c) => c.notNull().defaultTo(0)],
    ['layout', 'text'],
    ['word_file', 'text'],
    ['word_file_name', 'varchar(255)'],
    ['key_words_list', 'text'],
    ['is_default', 'integer', (c) => c.notNull().defaultTo(0)],
    ...stamps,
  ],
  report_keys: [
    ['hospital_id', 'integer', notNull],
    ['key', 'varchar(64)', notNull],
    ['label', 'varchar(128)', notNull],
    ['source', 'varchar(64)', notNull],
    ...stamps,
  ],
  report_structs: [
    ['hospital_id', 'integer', notNull],
    ['name', 'varchar(128)', notNull],
    ['field', 'varchar(64)', notNull],
    ['type', 'varchar(32)', (c) => c.notNull().defaultTo('text')],
    ['rank', 'integer', (c) => c.notNull().defaultTo(0)],
    ...stamps,
  ],
  dict_rules: [
    ['hospital_id', 'integer', notNull],
    ['type', 'varchar(64)', notNull],
    ['result', 'text'],
    ['rules', 'text'],
    ...stamps,
  ],
};

export async function up(db: AnyDb): Promise<void> {
  const pg = isPostgres(db);
  for (const [name, cols] of Object.entries(TABLES)) {
    let t = db.schema.createTable(name).addColumn('id', ...id(pg));
    for (const [col, type, build] of cols) t = t.addColumn(col, type as 'text', build ?? ((c) => c));
    await t.execute();
  }
  await db.schema.createIndex('reports_case').on('reports').columns(['case_id', 'id']).execute();
  await db.schema.createIndex('reports_issue').on('reports').columns(['release_status', 'issue_at']).execute();
  await db.schema.createIndex('reports_verify').on('reports').column('verify_code').unique().execute();
  await db.schema.createIndex('diagnosis_templates_hospital').on('diagnosis_templates').columns(['hospital_id', 'parent_id']).execute();
  await db.schema.createIndex('report_keys_unique').on('report_keys').columns(['hospital_id', 'key']).unique().execute();
  await db.schema.createIndex('dict_rules_type').on('dict_rules').columns(['hospital_id', 'type']).unique().execute();
  await db.schema.alterTable('cases').addColumn('latest_report', 'text').execute();
  await db.schema.alterTable('cases').addColumn('sign_at', 'varchar(32)').execute();
  await db.schema.alterTable('cases').addColumn('doctor_id', 'integer').execute();
  await db.schema.alterTable('cases').addColumn('report_supplementary', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const c of ['report_supplementary', 'doctor_id', 'sign_at', 'latest_report']) await db.schema.alterTable('cases').dropColumn(c).execute();
  for (const name of Object.keys(TABLES).reverse()) await db.schema.dropTable(name).execute();
}
