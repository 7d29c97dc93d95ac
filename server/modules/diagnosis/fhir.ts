import { createHash } from 'node:crypto';
import type { ReportDocument } from './report-data.js';
import { fhirDateTime, fhirInstant, type IdentifierSystems } from './fhir-systems.js';

export type FhirResource = { resourceType: string } & Record<string, unknown>;

/** R4's core extension naming the report a supplementary one adds to (R6 has DiagnosticReport.relatesTo instead). */
export const ADDENDUM_OF = 'http://hl7.org/fhir/StructureDefinition/diagnosticReport-addendumOf';

/** Where, in a transaction Bundle, the report's subject, specimens, order and performer are (their entries' fullUrl). */
export interface ReportLinks {
  patient: string;
  specimens: string[];
  serviceRequest: string;
  organization: string;
}

/**
 * The report's status in FHIR terms. The case's report: `final` once issued. A supplementary report, once accepted,
 * follows a final report it leaves standing: `appended` when it adds stain results (IHC, special stain), `amended`
 * when it is a plain supplement (a correction of what was said).
 */
export function reportStatus(r: Pick<ReportDocument['report'], 'report_type' | 'supplement_type' | 'release_status' | 'sub_phase'>): string {
  if (r.report_type === 2) {
    if (r.release_status !== 'yes' && r.sub_phase !== 'accept') return 'preliminary';
    return r.supplement_type === 1 || r.supplement_type === 2 ? 'appended' : 'amended';
  }
  return r.release_status === 'yes' ? 'final' : 'preliminary';
}

/**
 * The report as an HL7 FHIR R4 DiagnosticReport (http://hl7.org/fhir/R4/diagnosticreport.html): surgical pathology
 * (v2-0074 SP), LOINC 60567-5 "Comprehensive pathology report panel", the case's patient as the subject, the hospital
 * as performer, the doctors as resultsInterpreter, the diagnosis as conclusion and the report PDF as presentedForm
 * (with its size and base64 SHA-1, as Attachment.hash has it). A signed report's PDF is its signed document's
 * (served.ts). A supplementary report names the report it supplements (R4's `diagnosticReport-addendumOf`).
 *
 * Alone (GET …/fhir) it carries its logical id and names the patient by identifier; in a transaction Bundle
 * (`links`, fhir-bundle.ts) it has no id (the receiver's conditional update finds it by identifier) and refers to
 * the Bundle's Patient, Specimens, ServiceRequest and Organization.
 */
export function diagnosticReport(doc: ReportDocument, pdf: Buffer | null, opts: { base: string; systems: IdentifierSystems; links?: ReportLinks }): FhirResource {
  const r = doc.report;
  const { systems, links } = opts;
  const issued = fhirInstant(r.sign_at ?? r.updated_at);
  const patientNumber = doc.case.admission_number
    ? { system: systems.admissionNumber, value: doc.case.admission_number }
    : doc.case.outpatient_number ? { system: systems.outpatientNumber, value: doc.case.outpatient_number } : null;
  const supplemented = doc.supplements
    ? links
      ? { type: 'DiagnosticReport', identifier: { system: systems.report, value: String(doc.supplements.report_id) } }
      : { reference: `DiagnosticReport/dsms-report-${doc.supplements.report_id}` }
    : null;
  const interpreters: [number | null, string][] = [[r.first_doctor, doc.doctors.first], [r.audit_doctor, doc.doctors.audit], [r.sign_doctor, doc.doctors.sign]];
  return {
    resourceType: 'DiagnosticReport',
    ...(links ? {} : { id: `dsms-report-${r.id}` }),
    ...(supplemented ? { extension: [{ url: ADDENDUM_OF, valueReference: supplemented }] } : {}),
    language: doc.lang,
    identifier: [
      { system: systems.report, value: String(r.id) },
      { system: systems.pathologyNumber, value: doc.case.pathology_number },
    ],
    ...(links ? { basedOn: [{ reference: links.serviceRequest }] } : {}),
    status: reportStatus(r),
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'SP', display: 'Surgical Pathology' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '60567-5', display: 'Comprehensive pathology report panel' }], text: r.report_type === 2 ? 'Supplementary pathology report' : 'Pathology report' },
    subject: links
      ? { reference: links.patient, display: doc.case.patient_name ?? '' }
      : { display: doc.case.patient_name ?? '', ...(patientNumber ? { identifier: patientNumber } : {}) },
    ...withValue('effectiveDateTime', fhirDateTime(doc.case.registration_at ?? r.created_at)),
    ...withValue('issued', issued),
    performer: [links ? { reference: links.organization, display: doc.hospital.name } : { display: doc.hospital.name }],
    resultsInterpreter: interpreters.filter(([, name]) => name).map(([id, display]) => (
      links && id ? { type: 'Practitioner', identifier: { system: systems.user, value: String(id) }, display } : { display })),
    ...(links ? { specimen: links.specimens.map((reference) => ({ reference })) } : {}),
    ...(r.diagnosis ? { conclusion: r.diagnosis } : {}),
    ...(pdf ? {
      presentedForm: [{
        contentType: 'application/pdf', language: doc.lang, data: pdf.toString('base64'), size: pdf.length,
        hash: createHash('sha1').update(pdf).digest('base64'), title: `${doc.case.pathology_number}.pdf`, ...withValue('creation', issued),
      }],
    } : {}),
  };
}

/** `{ [key]: value }` when there is a value: FHIR has no nulls, an absent element is left out. */
export const withValue = <K extends string, V>(key: K, value: V | null | undefined): Partial<Record<K, V>> =>
  (value === null || value === undefined || value === '' ? {} : { [key]: value }) as Partial<Record<K, V>>;
