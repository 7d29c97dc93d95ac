import type { HisAdapter, HisPatient, HisQuery } from './adapter.js';

/** Where the HTTP adapter asks, and how long it waits (HIS_URL, HIS_TOKEN, HIS_TIMEOUT_MS). */
export interface HttpHisOptions {
  url: string;
  token?: string;
  timeoutMs?: number;
}

/** The HIS answered something other than a patient or "unknown": registration shows it and lets the user type. */
export class HisUnavailable extends Error {}

const GENDERS = new Set(['male', 'female', 'unknown']);
const AGE_UNITS = new Set(['year', 'month', 'day']);
const TREAT_TYPES = new Set(['clinic', 'hospital', 'physical_examination']);

/** A text field of the answer, trimmed and cut to what the case's column holds; anything else is null. */
const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : typeof v === 'number' ? String(v).slice(0, max) : null);
const oneOf = <T extends string>(v: unknown, allowed: Set<string>): T | null => (typeof v === 'string' && allowed.has(v) ? (v as T) : null);

/**
 * The answer as a patient, whatever else the HIS sends: only the fields registration fills, each of its type
 * and length (the same bounds as the register command), so a HIS cannot put more into the form than a user could.
 */
export function patientFromAnswer(body: unknown): HisPatient | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const name = text(b.patient_name, 128);
  if (!name) return null;
  const age = typeof b.age === 'number' && Number.isInteger(b.age) && b.age >= 0 && b.age <= 200 ? b.age : null;
  return {
    patient_name: name,
    gender: oneOf<HisPatient['gender']>(b.gender, GENDERS) ?? 'unknown',
    age,
    age_unit: age === null ? null : oneOf<'year' | 'month' | 'day'>(b.age_unit, AGE_UNITS) ?? 'year',
    id_number: text(b.id_number, 32),
    phone: text(b.phone, 32),
    outpatient_number: text(b.outpatient_number, 64),
    admission_number: text(b.admission_number, 64),
    treat_type: oneOf<NonNullable<HisPatient['treat_type']>>(b.treat_type, TREAT_TYPES),
    bed_number: text(b.bed_number, 32),
    inspection_department: text(b.inspection_department, 255),
    inspection_doctor: text(b.inspection_doctor, 128),
    clinical_diagnosis: text(b.clinical_diagnosis, 2000),
  };
}

/**
 * A HIS reached over HTTP with JSON (HIS_ADAPTER=http): `GET {HIS_URL}/patient?outpatient_number=…` (or
 * `admission_number=…`), optionally with `Authorization: Bearer {HIS_TOKEN}`. 200 with the patient's fields
 * (adapter.ts names them) fills the form; 404 means the HIS does not know the number. Anything else, or no
 * answer within the timeout, is HisUnavailable. A hospital whose HIS speaks another protocol puts a small
 * gateway in front of it, or adds its own adapter beside this one (index.ts).
 */
export function httpHisAdapter(options: HttpHisOptions): HisAdapter {
  const base = new URL(options.url.endsWith('/') ? options.url : `${options.url}/`);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`HIS_URL must be http(s), not ${base.protocol}`);
  return {
    name: 'http',
    async lookup(query: HisQuery) {
      const url = new URL('patient', base);
      if (query.outpatient_number) url.searchParams.set('outpatient_number', query.outpatient_number);
      else if (query.admission_number) url.searchParams.set('admission_number', query.admission_number);
      let res: Response;
      try {
        res = await fetch(url, {
          headers: { accept: 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
          redirect: 'error',
          signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        });
      } catch (e) {
        throw new HisUnavailable((e as Error).message);
      }
      if (res.status === 404) return null;
      if (!res.ok) throw new HisUnavailable(`HIS answered ${res.status}`);
      const body = await res.json().catch(() => { throw new HisUnavailable('HIS answered no JSON'); });
      return patientFromAnswer(body);
    },
  };
}
