import { createHash } from 'node:crypto';
import type { ReportDocument } from './report-data.js';

/**
 * The report as an HL7 FHIR R4 DiagnosticReport (http://hl7.org/fhir/R4/diagnosticreport.html): surgical pathology
 * (v2-0074 SP), LOINC 60567-5 "Comprehensive pathology report panel", the case's patient as the subject, the doctors
 * as performer / resultsInterpreter, the diagnosis as conclusion and the report PDF as presentedForm (with its size and
 * base64 SHA-1, as Attachment.hash has it). A signed report's PDF is its signed document's (served.ts). A supplementary
 * report is `appended` once accepted and names the report it supplements (an extension: R4 has no element for it).
 * Checked against the official R4 JSON schema in tests/api/diagnosis-output.test.ts.
 */
export function diagnosticReport(doc: ReportDocument, pdf: Buffer | null, base: string): Record<string, unknown> {
  const r = doc.report;
  const status = r.report_type === 2
    ? (r.release_status === 'yes' || r.sub_phase === 'accept' ? 'appended' : 'preliminary')
    : r.release_status === 'yes' ? 'final' : 'preliminary';
  const issued = r.sign_at ?? r.updated_at;
  return {
    resourceType: 'DiagnosticReport',
    id: `dsms-report-${r.id}`,
    ...(doc.supplements ? { extension: [{ url: `${base}/fhir/StructureDefinition/supplements`, valueReference: { reference: `DiagnosticReport/dsms-report-${doc.supplements.report_id}` } }] } : {}),
    language: doc.lang,
    identifier: [
      { system: `${base}/fhir/report-id`, value: String(r.id) },
      { system: `${base}/fhir/pathology-number`, value: doc.case.pathology_number },
    ],
    status,
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'SP', display: 'Surgical Pathology' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '60567-5', display: 'Comprehensive pathology report panel' }], text: r.report_type === 2 ? 'Supplementary pathology report' : 'Pathology report' },
    subject: {
      display: doc.case.patient_name ?? '',
      ...(doc.case.admission_number || doc.case.outpatient_number
        ? { identifier: { system: `${base}/fhir/${doc.case.admission_number ? 'admission' : 'outpatient'}-number`, value: (doc.case.admission_number || doc.case.outpatient_number)! } }
        : {}),
    },
    effectiveDateTime: doc.case.registration_at ?? r.created_at,
    issued,
    performer: [{ display: doc.hospital.name }],
    resultsInterpreter: [doc.doctors.first, doc.doctors.audit, doc.doctors.sign].filter(Boolean).map((display) => ({ display })),
    ...(r.diagnosis ? { conclusion: r.diagnosis } : {}),
    ...(pdf ? {
      presentedForm: [{
        contentType: 'application/pdf', language: doc.lang, data: pdf.toString('base64'), size: pdf.length,
        hash: createHash('sha1').update(pdf).digest('base64'), title: `${doc.case.pathology_number}.pdf`, creation: issued,
      }],
    } : {}),
  };
}
