import type { BundleInput } from '../diagnosis/fhir-bundle.js';
import { OUR_VERSION, ourMessage } from './message.js';

/** What an ORU^R01 is built from: the facts a send gathers for its FHIR Bundle (fhir-bundle.ts), less the PDF. */
export type ResultFacts = Pick<BundleInput, 'doc' | 'hospitalCode' | 'application' | 'sentAt'>;

/** LOINC codes of the report's sections (OBX-3). */
const SECTIONS = [
  { field: 'diagnosis', code: '22637-3', name: 'Pathology report final diagnosis' },
  { field: 'gross_description', code: '22634-0', name: 'Pathology report gross observation' },
  { field: 'microscopic', code: '22635-7', name: 'Pathology report microscopic observation' },
] as const;

const GENDER: Record<string, string> = { female: 'F', male: 'M' };

/** An HL7 timestamp (YYYYMMDDHHMMSS, UTC offset +0000) of an ISO time; '' for none. */
export function hl7Time(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;
}

/**
 * A sent report as one ORU^R01 (v2.5.1) to the HIS (issue 30): PID/PV1 the patient by the case's outpatient or
 * admission number (PV1-2 `I` with PV1-19 the admission number, `O` the outpatient one: the convention the listener
 * reads, patient-fields.ts), ORC/OBR the order by the HIS's placer number (the application's number, from its ORM)
 * and our filler number (the pathology number), one OBX per section of the report (diagnosis, gross, microscopic),
 * each line of the text a repetition of OBX-5 (TX). A supplementary report is a correction (OBR-25 `C`).
 */
export function resultMessage(facts: ResultFacts, controlId: string, to: { application: string; facility: string }): string {
  const { doc } = facts;
  const c = doc.case;
  const r = doc.report;
  const msg = ourMessage(OUR_VERSION, ['ORU', 'R01', 'ORU_R01'], to, { facility: facts.hospitalCode }, controlId);
  msg.header.field(7).setValue(hl7Time(facts.sentAt));
  const inpatient = Boolean(c.admission_number) && !c.outpatient_number;
  const number = c.outpatient_number ?? c.admission_number ?? '';

  const pid = msg.addSegment('PID');
  pid.field(1).setValue('1');
  if (number) {
    pid.field(3).setValue(number, 1);
    pid.field(3).setValue(facts.hospitalCode, 4);
    pid.field(3).setValue(inpatient ? 'IP' : 'OP', 5);
  }
  pid.field(5).setValue(c.patient_name ?? '', 1);
  pid.field(8).setValue(GENDER[c.gender ?? ''] ?? 'U');

  const pv1 = msg.addSegment('PV1');
  pv1.field(1).setValue('1');
  pv1.field(2).setValue(inpatient ? 'I' : 'O');
  if (c.inspection_department) pv1.field(3).setValue(c.inspection_department, 1);
  if (c.bed_number) pv1.field(3).setValue(c.bed_number, 3);
  if (number) pv1.field(19).setValue(number);

  const placer = facts.application?.apply_number ?? '';
  const orc = msg.addSegment('ORC');
  orc.field(1).setValue('RE');
  if (placer) orc.field(2).setValue(placer);
  orc.field(3).setValue(c.pathology_number);
  orc.field(5).setValue('CM');

  const obr = msg.addSegment('OBR');
  obr.field(1).setValue('1');
  if (placer) obr.field(2).setValue(placer);
  obr.field(3).setValue(c.pathology_number);
  obr.field(4).setValue('PATH', 1);
  obr.field(4).setValue(doc.lang === 'zh-CN' ? '病理检查' : 'Pathology examination', 2);
  obr.field(4).setValue('L', 3);
  obr.field(7).setValue(hl7Time(c.registration_at));
  if (c.clinical_diagnosis) obr.field(13).setValue(c.clinical_diagnosis);
  obr.field(22).setValue(hl7Time(r.sign_at));
  obr.field(25).setValue(r.report_type === 2 ? 'C' : 'F');

  let seq = 0;
  for (const section of SECTIONS) {
    const text = r[section.field]?.trim();
    if (!text) continue;
    const obx = msg.addSegment('OBX');
    obx.field(1).setValue(String(++seq));
    obx.field(2).setValue('TX');
    obx.field(3).setValue(section.code, 1);
    obx.field(3).setValue(section.name, 2);
    obx.field(3).setValue('LN', 3);
    text.split(/\r\n|\r|\n/).forEach((line, i) => (i === 0 ? obx.field(5).rep(0) : obx.field(5).add()).setValue(line));
    obx.field(11).setValue(r.report_type === 2 ? 'C' : 'F');
    obx.field(14).setValue(hl7Time(r.sign_at));
    // XCN: the signing doctor's name as the family name component (no id of theirs is shared with the HIS).
    if (doc.doctors.sign) obx.field(16).setValue(doc.doctors.sign, 2);
  }
  return msg.toHL7String();
}
