import type { HL7Message } from 'hl7v2';
import type { HisPatient } from '../his/adapter.js';
import { value } from './message.js';

/**
 * The patient of an order or a registration, as DSMS's forms hold it, from PID and PV1. Which number is which: PV1-2
 * patient class `I` (inpatient) makes the visit an admission, anything else (O, E, …) an outpatient visit; the number
 * is PV1-19 (visit number), else PID-3's first identifier. Each value is cut to what its column holds, as the HTTP
 * HIS adapter does (his/http-adapter.ts), so a message cannot put more into a form than a user could.
 */
export function patientOf(msg: HL7Message, now: Date): HisPatient {
  const pid = msg.getSegment('PID');
  const pv1 = msg.getSegment('PV1');
  const inpatient = value(pv1, 2).toUpperCase() === 'I';
  const number = cut(value(pv1, 19) || value(pid, 3), 64);
  const family = value(pid, 5, 1);
  const given = value(pid, 5, 2);
  // Chinese names come whole in the family name component, or as family and given name without a space.
  const joiner = /[\u3400-\u9fff]/.test(family + given) ? '' : ' ';
  const age = ageOf(value(pid, 7), now);
  return {
    patient_name: cut([family, given].filter(Boolean).join(joiner), 128) ?? '',
    gender: GENDERS[value(pid, 8).toUpperCase()] ?? 'unknown',
    age: age?.age ?? null,
    age_unit: age?.unit ?? null,
    id_number: cut(idNumber(msg), 32),
    phone: cut(value(pid, 13), 32),
    outpatient_number: inpatient ? null : number,
    admission_number: inpatient ? number : null,
    treat_type: inpatient ? 'hospital' : pv1 ? 'clinic' : null,
    bed_number: cut(value(pv1, 3, 3), 32),
    inspection_department: cut(value(pv1, 3, 1) || value(pv1, 10), 255),
    inspection_doctor: cut(doctor(msg), 128),
    clinical_diagnosis: cut(value(msg.getSegment('OBR'), 13) || value(msg.getSegment('DG1'), 4), 2000),
  };
}

const GENDERS: Record<string, HisPatient['gender']> = { F: 'female', M: 'male', O: 'unknown', U: 'unknown', A: 'unknown', N: 'unknown' };

const cut = (v: string, max: number): string | null => (v ? v.slice(0, max) : null);

/** The national id: PID-3's identifier typed NNCHN (China's resident id) or a PID-19-style SSN, if any. */
function idNumber(msg: HL7Message): string {
  const pid = msg.getSegment('PID');
  const reps = pid?.field(3)?.repetitions.length ?? 0;
  for (let i = 0; i < reps; i++) if (/^(NN[A-Z]{3}|NI|SS)$/.test(value(pid, 3, 5, i).toUpperCase())) return value(pid, 3, 1, i);
  return value(pid, 19);
}

/** The ordering doctor (ORC-12, else OBR-16), or PV1-7 the attending one: family and given name. */
function doctor(msg: HL7Message): string {
  for (const [seg, field] of [['ORC', 12], ['OBR', 16], ['PV1', 7]] as const) {
    const s = msg.getSegment(seg);
    const family = value(s, field, 2);
    const given = value(s, field, 3);
    const name = [family, given].filter(Boolean).join(/[\u3400-\u9fff]/.test(family + given) ? '' : ' ');
    if (name) return name;
  }
  return '';
}

/** Age at `now` from an HL7 date of birth (YYYYMMDD…): years, or months under one year, or days under one month. */
export function ageOf(birth: string, now: Date): { age: number; unit: 'year' | 'month' | 'day' } | null {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(birth);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const born = new Date(Date.UTC(y, mo - 1, d));
  if (Number.isNaN(born.getTime()) || born.getUTCMonth() !== mo - 1 || born > now) return null;
  let years = now.getUTCFullYear() - y;
  let months = now.getUTCMonth() - (mo - 1);
  if (now.getUTCDate() < d) months -= 1;
  if (months < 0) { years -= 1; months += 12; }
  if (years >= 1) return years > 200 ? null : { age: years, unit: 'year' };
  if (months >= 1) return { age: months, unit: 'month' };
  return { age: Math.floor((now.getTime() - born.getTime()) / 86_400_000), unit: 'day' };
}
