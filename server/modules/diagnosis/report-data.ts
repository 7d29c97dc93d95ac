import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import type { Language } from '../../i18n/translate.js';
import { currentDocument } from './document-queries.js';
import { mainReportOf, reportInScope, userNames, type ReportRow } from './queries.js';

/** The signed report a supplementary report supplements, as it was signed (what the supplementary one corrects). */
export interface Supplemented {
  report_id: number;
  /** Its signed document; null when it was signed before documents were kept. */
  document_id: number | null;
  sign_at: string | null;
  verify_code: string | null;
  diagnosis: string | null;
}

/** What a rendered report (PDF, Word, FHIR) says: the report, its case, its hospital, its doctors and images. */
export interface ReportDocument {
  report: ReportRow;
  case: {
    id: number; pathology_number: string; patient_name: string | null; gender: string | null; age: number | null; age_unit: string | null;
    inspection_department: string | null; inspection_doctor: string | null; specimen_name: string | null; clinical_diagnosis: string | null;
    outpatient_number: string | null; admission_number: string | null; bed_number: string | null; registration_at: string | null;
  };
  hospital: { id: number; name: string; en_name: string | null; logo: string | null };
  doctors: { first: string; audit: string; sign: string };
  images: { id: number; path: string; title: string }[];
  /** Supplementary reports: the signed report they supplement. */
  supplements?: Supplemented | null;
  lang: Language;
}

/** A report in the reader's scope: another hospital's, or one of a case outside their directories, is absent (the row scope narrows the case). */
export async function reportVisible(db: Db, id: number, hospitalIds: number[]): Promise<ReportRow> {
  return reportInScope(db, id, hospitalIds);
}

/** What `report` (already in the reader's scope: reportVisible) says, with its case, hospital, doctors and images as they are now. */
export async function reportDocument(db: Db, report: ReportRow, lang: Language): Promise<ReportDocument> {
  const c = await db.selectFrom('cases').select([
    'id', 'pathology_number', 'patient_name', 'gender', 'age', 'age_unit', 'inspection_department', 'inspection_doctor', 'specimen_name',
    'clinical_diagnosis', 'outpatient_number', 'admission_number', 'bed_number', 'registration_at',
  ]).where('id', '=', report.case_id).executeTakeFirst();
  // A report of a case outside the reader's subspecialty directories is as absent as another hospital's (the row scope).
  if (!c) throw new AppError(404, 'diagnosis.report_not_found');
  const hospital = await db.selectFrom('hospitals').select(['id', 'name', 'en_name', 'logo']).where('id', '=', report.hospital_id).executeTakeFirstOrThrow();
  const names = await userNames(db, [report.first_doctor, report.audit_doctor, report.sign_doctor]);
  const ids = report.images ? (JSON.parse(report.images) as number[]) : [];
  const rows = ids.length ? await db.selectFrom('case_images').select(['id', 'path', 'title']).where('id', 'in', ids).where('case_id', '=', report.case_id).execute() : [];
  const images = ids.map((i) => rows.find((r) => r.id === i)).filter((r): r is NonNullable<typeof r> => !!r);
  const name = (uid: number | null) => (uid ? names[uid] ?? '' : '');
  return {
    report, case: c, hospital, doctors: { first: name(report.first_doctor), audit: name(report.audit_doctor), sign: name(report.sign_doctor) }, images,
    ...(report.report_type === 2 ? { supplements: await supplemented(db, report.case_id) } : {}), lang,
  };
}

/** The case's signed report as its signed document has it (its live row for one signed before documents were kept). */
async function supplemented(db: Db, caseId: number): Promise<Supplemented | null> {
  const main = await mainReportOf(db, caseId);
  if (!main?.sign_at) return null;
  const document = await currentDocument(db, main.id);
  const signed = document ? (JSON.parse(document.content) as { report: ReportRow }).report : main;
  return { report_id: main.id, document_id: document?.id ?? null, sign_at: signed.sign_at, verify_code: signed.verify_code, diagnosis: signed.diagnosis };
}
