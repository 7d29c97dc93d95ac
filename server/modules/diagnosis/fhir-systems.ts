import { createHash } from 'node:crypto';

/**
 * The identifier systems of one hospital's records, rooted at FHIR_SYSTEM_BASE (default PUBLIC_URL/fhir/sid):
 * outpatient, admission and pathology numbers are the hospital's own, so each hospital of an installation has its
 * own system for them and a receiver holding several hospitals' patients never mixes two patients with one number.
 * Organizations (the hospitals themselves, by code) and users are the installation's.
 */
export interface IdentifierSystems {
  hospital: string;
  user: string;
  report: string;
  pathologyNumber: string;
  outpatientNumber: string;
  admissionNumber: string;
  /** A patient the hospital gave no outpatient or admission number, known by their case's pathology number. */
  casePatient: string;
  specimen: string;
  applicationNumber: string;
}

export function identifierSystems(systemBase: string, hospitalCode: string): IdentifierSystems {
  const root = systemBase.replace(/\/+$/, '');
  const own = `${root}/hospital/${encodeURIComponent(hospitalCode)}`;
  return {
    hospital: `${root}/hospital`,
    user: `${root}/user`,
    report: `${own}/report`,
    pathologyNumber: `${own}/pathology-number`,
    outpatientNumber: `${own}/outpatient-number`,
    admissionNumber: `${own}/admission-number`,
    casePatient: `${own}/case-patient`,
    specimen: `${own}/specimen`,
    applicationNumber: `${own}/application-number`,
  };
}

/**
 * A token search value `system|value` as it goes into `ifNoneExist` and a conditional URL: each part percent-encoded
 * (a number may hold `&`, `#`, `|` or Chinese), `:` and `/` left readable as FHIR's own examples write them.
 */
export function identifierQuery(system: string, value: string): string {
  const part = (s: string) => encodeURIComponent(s).replace(/%3A/gi, ':').replace(/%2F/gi, '/');
  return `identifier=${part(system)}|${part(value)}`;
}

/**
 * The `urn:uuid:` a Bundle entry is known by, derived from what identifies it (RFC 9562 version 8, from SHA-256), so
 * the same report sent again makes the same Bundle and an outbox reader can tell repeats.
 */
export function entryUrn(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `urn:uuid:${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

const FHIR_DATE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;

/**
 * A stored time as a FHIR dateTime: ISO times as they are (with their zone), a plain date as a date, anything else
 * that parses as a time in UTC; what does not parse is left out (undefined) rather than sent invalid.
 */
export function fhirDateTime(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (FHIR_DATE.test(v)) return v;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v))) return v;
  const ms = Date.parse(v.replace(' ', 'T'));
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** A FHIR instant (a time to the second, with its zone): what fhirDateTime gives when it is one, else undefined. */
export function fhirInstant(value: string | null | undefined): string | undefined {
  const v = fhirDateTime(value);
  return v && v.includes('T') ? v : undefined;
}
