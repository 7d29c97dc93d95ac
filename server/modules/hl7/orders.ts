import { Value } from '@sinclair/typebox/value';
import type { HL7Message } from 'hl7v2';
import { ApplyBody, type ApplyInput } from '../cases/lifecycle-bodies.js';
import { Hl7Refusal, value } from './message.js';
import { patientOf } from './patient-fields.js';

/**
 * An ORM^O01 new order (ORC-1 `NW`) as the application the clinic would file through the API: the placer order
 * number (ORC-2, else OBR-2) is the application number, the patient from PID/PV1 (patient-fields.ts), the specimen
 * from SPM-4 / OBR-15 / OBR-4's text, the clinical information from OBR-13. Checked against the API's own body schema
 * (ApplyBody), so an order can carry nothing the form could not; what fails is refused with the reason (AE).
 */
export function applicationOf(msg: HL7Message, now: Date): ApplyInput {
  const orc = msg.getSegment('ORC');
  const obr = msg.getSegment('OBR');
  if (!orc) throw new Hl7Refusal('AE', 101, 'ORC segment missing');
  const control = value(orc, 1).toUpperCase();
  if (control !== 'NW') throw new Hl7Refusal('AR', 201, `order control ${control || '(empty)'} is not supported: only NW (new order)`);
  if (!msg.getSegment('PID')) throw new Hl7Refusal('AE', 101, 'PID segment missing');
  const applyNumber = value(orc, 2) || value(obr, 2);
  if (!applyNumber) throw new Hl7Refusal('AE', 101, 'placer order number (ORC-2) missing');
  const p = patientOf(msg, now);
  const specimen = value(msg.getSegment('SPM'), 4, 2) || value(msg.getSegment('SPM'), 4, 1) || value(obr, 15) || value(obr, 4, 2);
  const input: Record<string, unknown> = {
    apply_number: applyNumber,
    patient_name: p.patient_name || undefined, gender: p.gender, age: p.age ?? undefined, age_unit: p.age_unit ?? undefined,
    outpatient_number: p.outpatient_number ?? undefined, admission_number: p.admission_number ?? undefined,
    inspection_department: p.inspection_department ?? undefined, inspection_doctor: p.inspection_doctor ?? undefined,
    clinical_diagnosis: p.clinical_diagnosis ?? undefined, specimen_name: specimen ? specimen.slice(0, 255) : undefined,
  };
  const body = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const problem = Value.Errors(ApplyBody, body).First();
  if (problem) throw new Hl7Refusal('AE', 102, `${problem.path.slice(1) || 'order'}: ${problem.message}`);
  return body as ApplyInput;
}
