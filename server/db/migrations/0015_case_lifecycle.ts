import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * The case lifecycle in the lab (issue 10, spec §3, §4): the case's status fields, the application that
 * precedes a case, its specimens, the material (wax) blocks cut from each specimen, the glass slides of
 * each block (slide_sections gains block_id), technical orders (special examinations and additional
 * requests), the case timeline and pathology numbering rules with their counters.
 * `cases.version` is bumped by every transition: a transition checks the case it read and updates it only
 * when the version is still the one it read, so two users running the same step at once cannot both win.
 */

type AnyDb = Kysely<any>;

const CASE_COLUMNS: [string, string, ((c: any) => any)?][] = [
  ['status', 'varchar(32)'],
  ['library', 'varchar(32)'],
  ['apply_id', 'integer'],
  ['treat_type', 'varchar(16)'],
  ['bed_number', 'varchar(32)'],
  ['doctor_advice', 'text'],
  ['special_check', 'text'],
  ['cell_block_pathology', 'text'],
  ['has_technology_advice', 'integer', (c) => c.notNull().defaultTo(0)],
  ['has_spec_advice', 'integer', (c) => c.notNull().defaultTo(0)],
  ['has_supplementary', 'integer', (c) => c.notNull().defaultTo(0)],
  ['supplement_type', 'integer'],
  ['report_type', 'integer'],
  ['archive_status', 'varchar(16)', (c) => c.notNull().defaultTo('not_filed')],
  ['report_status', 'varchar(32)'],
  ['print_deliver_status', 'integer', (c) => c.notNull().defaultTo(0)],
  ['release_status', 'varchar(8)'],
  ['print_at', 'varchar(32)'],
  ['deliver_at', 'varchar(32)'],
  ['is_draft', 'integer', (c) => c.notNull().defaultTo(0)],
  ['receive_at', 'varchar(32)'],
  ['receive_doctor', 'integer'],
  ['sample_at', 'varchar(32)'],
  ['sample_doctor', 'integer'],
  ['slide_ready_at', 'varchar(32)'],
  ['allocation_at', 'varchar(32)'],
  ['allocation_doctor', 'integer'],
  ['first_doctor', 'integer'],
  ['phase_at', 'varchar(32)'],
  ['version', 'integer', (c) => c.notNull().defaultTo(0)],
];

const id = (pg: boolean) => [(pg ? 'serial' : 'integer') as 'integer', (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement())] as const;

export async function up(db: AnyDb): Promise<void> {
  const pg = isPostgres(db);
  // 'ex_paraffin_block' (spec §1) is longer than the 16 characters case_type had; SQLite does not enforce lengths.
  if (pg) await db.schema.alterTable('cases').alterColumn('case_type', (c) => c.setDataType('varchar(32)')).execute();
  for (const [name, type, build] of CASE_COLUMNS) {
    await db.schema.alterTable('cases').addColumn(name, type as 'text', build ?? ((c) => c)).execute();
  }

  // Spec §4 slide application: 0 applied, 1 dispatched, 2 received, 3 registered, -1 rejected.
  await db.schema.createTable('case_applications')
    .addColumn('id', ...id(pg))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('apply_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('case_type', 'varchar(32)', (c) => c.notNull().defaultTo('routine'))
    .addColumn('patient_name', 'varchar(128)')
    .addColumn('gender', 'varchar(8)')
    .addColumn('age', 'integer')
    .addColumn('age_unit', 'varchar(8)')
    .addColumn('outpatient_number', 'varchar(64)')
    .addColumn('admission_number', 'varchar(64)')
    .addColumn('inspection_department', 'varchar(255)')
    .addColumn('inspection_doctor', 'varchar(128)')
    .addColumn('specimen_name', 'varchar(255)')
    .addColumn('clinical_diagnosis', 'text')
    .addColumn('reject_reason', 'varchar(500)')
    .addColumn('case_id', 'integer', (c) => c.references('cases.id'))
    .addColumn('applied_by', 'integer')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('case_applications_number').on('case_applications').columns(['hospital_id', 'apply_number']).unique().execute();

  // Spec §3 specimen fields; status: received / rejected / used_up (nothing left to re-sample) or null (awaiting receipt).
  await db.schema.createTable('case_specimens')
    .addColumn('id', ...id(pg))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('specimen_type', 'integer')
    .addColumn('fixative', 'varchar(64)')
    .addColumn('fixed_at', 'varchar(32)')
    .addColumn('location', 'varchar(255)')
    .addColumn('leave_body_at', 'varchar(32)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('receive_at', 'varchar(32)')
    .addColumn('receive_doctor', 'integer')
    .addColumn('rejection_reason', 'varchar(500)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('case_specimens_case_seq').on('case_specimens').columns(['case_id', 'seq']).unique().execute();

  // Material (wax) blocks; `outside`: 1 for blocks sent in from another hospital (no doctor orders on them, spec §5).
  await db.schema.createTable('case_blocks')
    .addColumn('id', ...id(pg))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id'))
    .addColumn('specimen_id', 'integer', (c) => c.references('case_specimens.id'))
    .addColumn('block_number', 'varchar(32)', (c) => c.notNull())
    .addColumn('tissue_count', 'integer')
    .addColumn('description', 'varchar(500)')
    .addColumn('outside', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sampled_by', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('case_blocks_number').on('case_blocks').columns(['case_id', 'block_number']).unique().execute();

  // No foreign key: SQLite cannot drop a column that has one, and `down` must work; the lab commands set it.
  await db.schema.alterTable('slide_sections').addColumn('block_id', 'integer').execute();
  await db.schema.alterTable('slide_sections').addColumn('outside', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  // Technical orders: category special (immunohistochemisty, special_stain, molecular_pathology, with a reagent)
  // or additional (re_sample, re_cut … other). `open_key` is set while the order is open: the unique index
  // refuses a repeated open order even when two doctors send it at once.
  await db.schema.createTable('technical_orders')
    .addColumn('id', ...id(pg))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id'))
    .addColumn('category', 'varchar(16)', (c) => c.notNull())
    .addColumn('order_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('specimen_id', 'integer', (c) => c.references('case_specimens.id'))
    .addColumn('block_id', 'integer', (c) => c.references('case_blocks.id'))
    .addColumn('reagent_id', 'integer')
    .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('note', 'varchar(500)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('open'))
    .addColumn('open_key', 'varchar(160)')
    .addColumn('ordered_by', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('done_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('technical_orders_open').on('technical_orders').columns(['case_id', 'open_key']).unique().execute();

  await db.schema.createTable('case_timeline')
    .addColumn('id', ...id(pg))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('case_id', 'integer', (c) => c.notNull().references('cases.id'))
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('from_phase', 'varchar(32)')
    .addColumn('to_phase', 'varchar(32)')
    .addColumn('from_sub_phase', 'varchar(32)')
    .addColumn('to_sub_phase', 'varchar(32)')
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'varchar(128)')
    .addColumn('detail', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('case_timeline_case').on('case_timeline').columns(['case_id', 'id']).execute();

  // Spec §3/§9 numbering per library and hospital: prefix + middle (a date pattern or literal) + connector + serial.
  await db.schema.createTable('numbering_rules')
    .addColumn('id', ...id(pg))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('library', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)')
    .addColumn('prefix', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('middle', 'varchar(16)', (c) => c.notNull().defaultTo('YYYY'))
    .addColumn('connector', 'varchar(4)', (c) => c.notNull().defaultTo('-'))
    .addColumn('length', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('regex', 'varchar(200)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('numbering_rules_library').on('numbering_rules').columns(['hospital_id', 'library']).unique().execute();

  // One counter per rule and period (the middle number's current value): UPDATE … RETURNING hands out each value once.
  await db.schema.createTable('numbering_counters')
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('numbering_rules.id').onDelete('cascade'))
    .addColumn('period', 'varchar(32)', (c) => c.notNull())
    .addColumn('value', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('numbering_counters_pk', ['rule_id', 'period'] as never)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ['numbering_counters', 'numbering_rules', 'case_timeline', 'technical_orders']) await db.schema.dropTable(t).ifExists().execute();
  await db.schema.alterTable('slide_sections').dropColumn('outside').execute();
  await db.schema.alterTable('slide_sections').dropColumn('block_id').execute();
  for (const t of ['case_blocks', 'case_specimens', 'case_applications']) await db.schema.dropTable(t).ifExists().execute();
  for (const [name] of [...CASE_COLUMNS].reverse()) await db.schema.alterTable('cases').dropColumn(name).execute();
}
