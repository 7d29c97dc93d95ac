import type Docxtemplater from 'docxtemplater';
import { AppError } from '../../http/errors.js';
import type { ReportDocument } from './report-data.js';
import { reportFieldWords } from './report-fields.js';

/**
 * Word report templates (spec §7 config/report/template word/*): a .docx whose `{parameter}` tags docxtemplater
 * fills. The parameters a template uses are read from it at upload (`word/param` lists them); filling takes the
 * report's values by the same names (reportParameters), missing ones printed empty, never as "undefined".
 */
export async function templateParameters(docx: Buffer): Promise<string[]> {
  const doc = await open(docx);
  const text = doc.getFullText();
  return [...new Set([...text.matchAll(/\{([A-Za-z_][A-Za-z0-9_.]*)\}/g)].map((m) => m[1]))];
}

export async function fillTemplate(docx: Buffer, values: Record<string, string>): Promise<Buffer> {
  const doc = await open(docx);
  try {
    doc.render(values);
  } catch (e) {
    throw new AppError(422, 'diagnosis.word_template_invalid', { detail: (e as Error).message.slice(0, 200) });
  }
  return doc.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

async function open(docx: Buffer): Promise<Docxtemplater> {
  // Loaded by the first template, not at every process's start: only these calls need them.
  const [{ default: Docx }, { default: PizZip }] = await Promise.all([import('docxtemplater'), import('pizzip')]);
  try {
    return new Docx(new PizZip(docx), { paragraphLoop: true, linebreaks: true, nullGetter: () => '' });
  } catch (e) {
    throw new AppError(422, 'diagnosis.word_template_invalid', { detail: (e as Error).message.slice(0, 200) });
  }
}

/**
 * The values a report offers to templates (the names `word/param` answers and report keys may map), worded as the PDF
 * words them (report-fields.ts): `{gender}` is 女 / Female, `{age}{age_unit}` is 47岁 / 47 y, in the report's language.
 */
export function reportParameters(doc: ReportDocument): Record<string, string> {
  const c = doc.case;
  const r = doc.report;
  const words = reportFieldWords(doc);
  return {
    hospital_name: words.hospitalName, pathology_number: c.pathology_number, patient_name: c.patient_name ?? '', gender: words.gender,
    age: c.age != null ? String(c.age) : '', age_unit: words.ageUnit, department: c.inspection_department ?? '', inspection_doctor: c.inspection_doctor ?? '',
    specimen_name: c.specimen_name ?? '', clinical_diagnosis: c.clinical_diagnosis ?? '', outpatient_number: c.outpatient_number ?? '',
    admission_number: c.admission_number ?? '', bed_number: c.bed_number ?? '',
    gross_description: r.gross_description ?? '', microscopic: r.microscopic ?? '', diagnosis: r.diagnosis ?? '', advice: r.advice ?? '', postscript: r.postscript ?? '',
    first_doctor: doc.doctors.first, audit_doctor: doc.doctors.audit, sign_doctor: doc.doctors.sign, sign_at: words.signAt,
  };
}

export const REPORT_PARAMETERS = [
  'hospital_name', 'pathology_number', 'patient_name', 'gender', 'age', 'age_unit', 'department', 'inspection_doctor', 'specimen_name', 'clinical_diagnosis',
  'outpatient_number', 'admission_number', 'bed_number', 'gross_description', 'microscopic', 'diagnosis', 'advice', 'postscript', 'first_doctor', 'audit_doctor',
  'sign_doctor', 'sign_at',
] as const;
