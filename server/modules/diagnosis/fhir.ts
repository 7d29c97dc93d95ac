import type { ReportDocument } from './report-data.js';

/**
 * The report as an HL7 FHIR R4 DiagnosticReport (http://hl7.org/fhir/R4/diagnosticreport.html): surgical pathology
 * (v2-0074 SP), LOINC 60567-5 "Comprehensive pathology report panel", the case's patient as the subject, the doctors
 * as performer / resultsInterpreter, the diagnosis as conclusion and the report PDF as presentedForm.
 * Checked against the official R4 JSON schema in tests/api/diagnosis-output.test.ts.
 */
export function diagnosticReport(doc: ReportDocument, pdf: Buffer | null, base: string): Record<string, unknown> {
  const r = doc.report;
  const status = r.release_status === 'yes' ? (r.report_type === 2 ? 'appended' : 'final') : 'preliminary';
  const issued = r.sign_at ?? r.updated_at;
  return {
    resourceType: 'DiagnosticReport',
    id: `dsms-report-${r.id}`,
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
    ...(pdf ? { presentedForm: [{ contentType: 'application/pdf', language: doc.lang, data: pdf.toString('base64'), title: `${doc.case.pathology_number}.pdf`, creation: issued }] } : {}),
  };
}
