import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import type { ReportDocumentTable } from '../../db/schema/reports.js';
import type { ReportRow } from './queries.js';

type Trx = Kysely<Database>;
export type DocumentRow = Selectable<ReportDocumentTable>;

/** A signing ready to store: what was signed, its PDFs, their hashes and the seal (freeze.ts makes it). */
export interface Frozen {
  kind: 'signed' | 'supplementary';
  content: string;
  contentSha256: string;
  seal: string;
  supplementsDocumentId: number | null;
  pdfs: { language: string; pdf: Buffer; sha256: string }[];
}

/**
 * Stores a signing's document in the signing's own transaction, after its report write succeeded (so a refused
 * signing stores nothing); `row` is the report as that write left it. The unique (report, version) index makes a
 * second document of one signing impossible even if two writes slipped past the version check.
 */
export async function insertDocument(trx: Trx, frozen: Frozen, row: ReportRow, now: string): Promise<number> {
  const { id } = await trx.insertInto('report_documents').values({
    hospital_id: row.hospital_id, report_id: row.id, kind: frozen.kind, report_version: row.version, supplements_document_id: frozen.supplementsDocumentId,
    verify_code: row.verify_code!, content: frozen.content, content_sha256: frozen.contentSha256, seal: frozen.seal, signed_by: row.sign_doctor,
    created_at: now, superseded_at: null,
  }).returning('id').executeTakeFirstOrThrow();
  for (const p of frozen.pdfs) {
    await trx.insertInto('report_document_pdfs').values({ document_id: id, language: p.language, pdf: p.pdf, sha256: p.sha256, size: p.pdf.length }).execute();
  }
  return id;
}

/** A recall ends what the signing was; its document stays, marked, and a new signing makes a new one. */
export const supersedeDocuments = (trx: Trx, reportId: number, now: string) =>
  trx.updateTable('report_documents').set({ superseded_at: now }).where('report_id', '=', reportId).where('superseded_at', 'is', null).execute();

/** The document the report is now: its latest signing not recalled. */
export const currentDocument = (db: Db | Trx, reportId: number) =>
  db.selectFrom('report_documents').selectAll().where('report_id', '=', reportId).where('superseded_at', 'is', null).orderBy('id', 'desc').executeTakeFirst();

export const documentOfReport = (db: Db, reportId: number, documentId: number) =>
  db.selectFrom('report_documents').selectAll().where('id', '=', documentId).where('report_id', '=', reportId).executeTakeFirst();

export const documentByCode = (db: Db, code: string) =>
  db.selectFrom('report_documents').selectAll().where('verify_code', '=', code).executeTakeFirst();

/** Every document of a report, oldest first, with the languages of its PDFs (not their bytes). */
export async function documentsOf(db: Db, reportId: number) {
  const docs = await db.selectFrom('report_documents')
    .select(['id', 'kind', 'report_version', 'supplements_document_id', 'verify_code', 'content_sha256', 'signed_by', 'created_at', 'superseded_at'])
    .where('report_id', '=', reportId).orderBy('id').execute();
  const pdfs = docs.length
    ? await db.selectFrom('report_document_pdfs').select(['document_id', 'language', 'sha256', 'size']).where('document_id', 'in', docs.map((d) => d.id)).execute()
    : [];
  return docs.map((d) => ({ ...d, pdfs: pdfs.filter((p) => p.document_id === d.id).map(({ document_id: _id, ...p }) => p) }));
}

export const documentPdf = (db: Db | Trx, documentId: number, language: string) =>
  db.selectFrom('report_document_pdfs').select(['language', 'pdf', 'sha256']).where('document_id', '=', documentId).where('language', '=', language).executeTakeFirst();

export const documentPdfs = (db: Db, documentId: number) =>
  db.selectFrom('report_document_pdfs').select(['language', 'pdf', 'sha256']).where('document_id', '=', documentId).execute();
