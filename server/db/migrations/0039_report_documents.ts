import type { Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * Signed reports as fixed documents (issue 27 B): each signing (a report signed, a supplementary report accepted)
 * stores what was signed — the report data its PDF was rendered from (JSON) and the PDF in each language the
 * hospital issues, each with its SHA-256 — and every way the report leaves the system serves those bytes. Stored in
 * the database, not the data dir, so the document is written in the signing's own transaction: a refused or
 * rolled-back signing leaves no file behind, and every API node sees the same bytes.
 *
 * Reports signed before this migration get no document here: rendering one now would freeze today's patient,
 * hospital and doctor fields as if they had been signed. They are served live, marked as such (report-documents.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('report_documents')
    .addColumn('id', (pg ? 'serial' : 'integer') as 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull())
    .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    // 'signed' (the case's report) or 'supplementary' (a supplementary report, accepted).
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    // The report version the signing wrote: one document per signing, whatever races.
    .addColumn('report_version', 'integer', (c) => c.notNull())
    // A supplementary report's document names the signed document it supplements.
    .addColumn('supplements_document_id', 'integer', (c) => c.references('report_documents.id').onDelete('set null'))
    .addColumn('verify_code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_sha256', 'varchar(64)', (c) => c.notNull())
    // "<key id>.<HMAC-SHA256 of content_sha256>": the verification page tells a stored document from an altered one.
    .addColumn('seal', 'varchar(128)', (c) => c.notNull())
    .addColumn('signed_by', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    // Set when the signing is recalled (hesitation period): kept and retrievable, no longer what the report is.
    .addColumn('superseded_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('report_documents_signing').on('report_documents').columns(['report_id', 'report_version']).unique().execute();
  await db.schema.createTable('report_document_pdfs')
    .addColumn('document_id', 'integer', (c) => c.notNull().references('report_documents.id').onDelete('cascade'))
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('pdf', (pg ? 'bytea' : 'blob') as 'text', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_document_pdfs_pk', ['document_id', 'language'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('report_document_pdfs').ifExists().execute();
  await db.schema.dropTable('report_documents').ifExists().execute();
}
