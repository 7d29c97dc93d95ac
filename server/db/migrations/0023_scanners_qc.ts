import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Scanners, scan jobs, slide quality control and the automatic focus check (issue 16, spec §3, §9).
 * - `scanners`: one per device of a hospital area; its API key is kept as a SHA-256 hash (the key is shown once),
 *   `key_revoked_at` ends it. `status` and `heartbeat_at` are what the heartbeat writes; silence is read as offline.
 * - `scan_jobs`: what a scanner scanned (label barcode, level, scale, result, timings) and the slide it produced,
 *   bound to the case's glass slide by barcode or left `not_bound`; `rescan` marks a slide QC sent back.
 * - `slide_qc`: one row per scanned slide: the focus check's share of blurred tissue, the QC grade and reasons,
 *   the A–D evaluation.
 * - `slide_focus`: the low-resolution focus map (one byte a cell) the viewer draws.
 * - `qc_dict`: the QC dictionary (config/dict/qc), typed lists with a rank.
 */

type AnyDb = Kysely<any>;
const id = (pg: boolean) => [(pg ? 'serial' : 'integer') as 'integer', (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement())] as const;
const ts = 'varchar(32)';

export async function up(db: AnyDb): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('scanners')
    .addColumn('id', ...id(pg))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('area', 'varchar(128)')
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('model', 'varchar(128)')
    .addColumn('serial_number', 'varchar(128)')
    .addColumn('location', 'varchar(255)')
    .addColumn('storage_path', 'varchar(500)')
    .addColumn('queue_names', 'varchar(500)')
    .addColumn('code', 'varchar(64)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('offline'))
    .addColumn('status_at', ts)
    .addColumn('heartbeat_at', ts)
    .addColumn('message', 'varchar(500)')
    .addColumn('key_hash', 'varchar(64)')
    .addColumn('key_prefix', 'varchar(16)')
    .addColumn('key_revoked_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scanners_key_hash').on('scanners').column('key_hash').unique().execute();
  await db.schema.createIndex('scanners_hospital_status').on('scanners').columns(['hospital_id', 'status']).execute();

  await db.schema.createTable('scan_jobs')
    .addColumn('id', ...id(pg))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('scanner_id', 'integer', (c) => c.notNull().references('scanners.id').onDelete('cascade'))
    .addColumn('barcode', 'varchar(128)')
    .addColumn('scan_level', 'integer')
    .addColumn('scale', 'real')
    .addColumn('result', 'varchar(24)', (c) => c.notNull().defaultTo('not_scanned'))
    .addColumn('started_at', ts)
    .addColumn('finished_at', ts)
    .addColumn('duration_ms', 'integer')
    .addColumn('slide_id', 'integer', (c) => c.references('slides.id').onDelete('set null'))
    .addColumn('case_id', 'integer')
    .addColumn('section_id', 'integer')
    .addColumn('bind_status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('rescan', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'varchar(500)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scan_jobs_scanner_created').on('scan_jobs').columns(['scanner_id', 'created_at']).execute();
  await db.schema.createIndex('scan_jobs_hospital_created').on('scan_jobs').columns(['hospital_id', 'created_at']).execute();
  await db.schema.createIndex('scan_jobs_slide').on('scan_jobs').column('slide_id').execute();

  await db.schema.createTable('slide_qc')
    .addColumn('id', ...id(pg))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('slide_id', 'integer', (c) => c.notNull().references('slides.id').onDelete('cascade'))
    .addColumn('blur_share', 'real')
    .addColumn('focus_status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('grade', 'varchar(24)')
    .addColumn('reasons', 'varchar(255)')
    .addColumn('suggested_reasons', 'varchar(255)')
    .addColumn('judge', 'varchar(1)')
    .addColumn('remark', 'varchar(500)')
    .addColumn('qc_by', 'integer')
    .addColumn('qc_at', ts)
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('slide_qc_slide').on('slide_qc').column('slide_id').unique().execute();
  await db.schema.createIndex('slide_qc_hospital_blur').on('slide_qc').columns(['hospital_id', 'blur_share']).execute();
  await db.schema.createIndex('slide_qc_hospital_qc_at').on('slide_qc').columns(['hospital_id', 'qc_at']).execute();

  await db.schema.createTable('slide_focus')
    .addColumn('slide_id', 'integer', (c) => c.primaryKey().references('slides.id').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('cols', 'integer', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('cell_width', 'real', (c) => c.notNull())
    .addColumn('cell_height', 'real', (c) => c.notNull())
    .addColumn('threshold', 'real', (c) => c.notNull())
    .addColumn('tissue_cells', 'integer', (c) => c.notNull())
    .addColumn('blurred_cells', 'integer', (c) => c.notNull())
    .addColumn('blur_share', 'real', (c) => c.notNull())
    /** One byte a cell, base64: 0 glass, 1–126 out of focus, 127–255 in focus. */
    .addColumn('map', 'text', (c) => c.notNull())
    .addColumn('ms', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await db.schema.createTable('qc_dict')
    .addColumn('id', ...id(pg))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('en_name', 'varchar(255)')
    .addColumn('code', 'varchar(64)')
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('qc_dict_hospital_type_rank').on('qc_dict').columns(['hospital_id', 'type', 'rank']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ['qc_dict', 'slide_focus', 'slide_qc', 'scan_jobs', 'scanners']) await db.schema.dropTable(t).ifExists().execute();
}
