import type { ReportDocument } from './report-data.js';
import { diagnosticReport, withValue, type FhirResource } from './fhir.js';
import { entryUrn, fhirDateTime, identifierQuery, identifierSystems, type IdentifierSystems } from './fhir-systems.js';

/** A specimen of the case as the lab registered it (case_specimens). */
export interface SpecimenFacts {
  seq: number;
  name: string;
  status: string;
  fixative: string | null;
  fixed_at: string | null;
  location: string | null;
  leave_body_at: string | null;
  receive_at: string | null;
  rejection_reason: string | null;
}

/** The application the case was registered from (case_applications), when it came from one. */
export interface ApplicationFacts {
  apply_number: string;
  created_at: string;
}

export interface BundleInput {
  /** The report as it is served: a signed report's signed document (served.ts). */
  doc: ReportDocument;
  /** Its PDF: a signed report's stored bytes, never rendered again. */
  pdf: Buffer;
  /** The signed document the PDF is (null: a report signed before documents were kept). */
  documentId: number | null;
  hospitalCode: string;
  specimens: SpecimenFacts[];
  application: ApplicationFacts | null;
  /** PUBLIC_URL. */
  base: string;
  /** The root of the identifier systems (outbound-config.ts systemBaseOf). */
  systemBase: string;
  /** When the send happened (Bundle.timestamp). */
  sentAt: string;
}

export interface BundleEntry {
  fullUrl: string;
  resource: FhirResource;
  request: { method: 'POST' | 'PUT'; url: string; ifNoneExist?: string };
}

export type TransactionBundle = FhirResource & { resourceType: 'Bundle'; type: 'transaction'; entry: BundleEntry[] };

const ADMINISTRATIVE_GENDERS = new Set(['male', 'female', 'other', 'unknown']);
const IDENTIFIER_TYPE = 'http://terminology.hl7.org/CodeSystem/v2-0203';

/**
 * What a send delivers (issue 30): one FHIR R4 transaction Bundle a receiver can link, with the hospital
 * (Organization), the patient (Patient, by the hospital's outpatient / admission number), the request (ServiceRequest:
 * the application, or the case's registration), each specimen (Specimen) and the report (DiagnosticReport, the signed
 * PDF as presentedForm), every reference between them through the entries' `urn:uuid` fullUrls.
 *
 * Sent again (a retried post, a second send) it changes nothing twice: what the hospital's own systems own (the
 * organization, the patient, the order) is created only when no resource has its identifier (`ifNoneExist`), and
 * what the pathology department owns (its specimens, its report) is a conditional update on the identifier, so a
 * receiver keeps one of each. Identifiers use the hospital's systems (fhir-systems.ts).
 */
export function reportBundle(input: BundleInput): TransactionBundle {
  const { doc, hospitalCode } = input;
  const c = doc.case;
  const r = doc.report;
  const systems = identifierSystems(input.systemBase, hospitalCode);
  const entries: BundleEntry[] = [];

  const orgId = { system: systems.hospital, value: hospitalCode };
  const organization = entryUrn('Organization', orgId.system, orgId.value);
  entries.push(createOnce(organization, orgId, {
    resourceType: 'Organization', identifier: [orgId], active: true, name: doc.hospital.name,
    ...(doc.hospital.en_name && doc.hospital.en_name !== doc.hospital.name ? { alias: [doc.hospital.en_name] } : {}),
  }));

  const patientIds = patientIdentifiers(doc, systems);
  const patient = entryUrn('Patient', patientIds[0].system, patientIds[0].value);
  entries.push(createOnce(patient, patientIds[0], {
    resourceType: 'Patient', identifier: patientIds,
    ...(c.patient_name ? { name: [{ text: c.patient_name }] } : {}),
    gender: c.gender && ADMINISTRATIVE_GENDERS.has(c.gender) ? c.gender : 'unknown',
    managingOrganization: { reference: organization, display: doc.hospital.name },
  }));

  const caseRequest = { system: systems.pathologyNumber, value: c.pathology_number };
  const serviceRequest = entryUrn('ServiceRequest', caseRequest.system, caseRequest.value);
  const specimens = input.specimens.map((s) => ({ s, id: { system: systems.specimen, value: `${c.pathology_number}-${s.seq}` } }))
    .map(({ s, id }) => ({ s, id, urn: entryUrn('Specimen', id.system, id.value) }));
  entries.push(createOnce(serviceRequest, caseRequest, {
    resourceType: 'ServiceRequest',
    identifier: [caseRequest, ...(input.application ? [{ system: systems.applicationNumber, value: input.application.apply_number }] : [])],
    ...(input.application ? { requisition: { system: systems.applicationNumber, value: input.application.apply_number } } : {}),
    status: 'completed', intent: 'order',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
    code: { text: doc.lang === 'zh-CN' ? '病理检查' : 'Pathology examination' },
    subject: { reference: patient, display: c.patient_name ?? '' },
    ...withValue('authoredOn', fhirDateTime(input.application?.created_at ?? c.registration_at)),
    ...withValue('requester', requester(c.inspection_department, c.inspection_doctor)),
    performer: [{ reference: organization, display: doc.hospital.name }],
    ...(c.clinical_diagnosis ? { reasonCode: [{ text: c.clinical_diagnosis }] } : {}),
    ...(specimens.length ? { specimen: specimens.map((x) => ({ reference: x.urn })) } : {}),
  }));

  for (const { s, id, urn } of specimens) {
    entries.push(updateBy(urn, 'Specimen', id, {
      resourceType: 'Specimen', identifier: [id], accessionIdentifier: caseRequest,
      status: specimenStatus(s.status), type: { text: s.name },
      subject: { reference: patient, display: c.patient_name ?? '' },
      ...withValue('receivedTime', fhirDateTime(s.receive_at)),
      request: [{ reference: serviceRequest }],
      ...collection(s),
      ...(s.fixative ? { processing: [{ description: s.fixative, ...withValue('timeDateTime', fhirDateTime(s.fixed_at)) }] } : {}),
      ...(s.rejection_reason ? { note: [{ text: s.rejection_reason }] } : {}),
    }));
  }

  const reportId = { system: systems.report, value: String(r.id) };
  const report = entryUrn('DiagnosticReport', reportId.system, reportId.value);
  entries.push(updateBy(report, 'DiagnosticReport', reportId, diagnosticReport(doc, input.pdf, {
    base: input.base, systems, links: { patient, specimens: specimens.map((x) => x.urn), serviceRequest, organization },
  })));

  return {
    resourceType: 'Bundle',
    identifier: { system: `${systems.report}-send`, value: `${r.id}-${input.documentId ?? 0}` },
    type: 'transaction',
    timestamp: input.sentAt,
    entry: entries,
  };
}

/** The patient's identifiers: the hospital's admission and outpatient numbers, else their case's pathology number. */
function patientIdentifiers(doc: ReportDocument, systems: IdentifierSystems): { system: string; value: string; type?: unknown }[] {
  const mr = (text: string) => ({ coding: [{ system: IDENTIFIER_TYPE, code: 'MR', display: 'Medical record number' }], text });
  const ids = [
    ...(doc.case.admission_number ? [{ use: 'usual', type: mr(doc.lang === 'zh-CN' ? '住院号' : 'Admission number'), system: systems.admissionNumber, value: doc.case.admission_number }] : []),
    ...(doc.case.outpatient_number ? [{ use: 'usual', type: mr(doc.lang === 'zh-CN' ? '门诊号' : 'Outpatient number'), system: systems.outpatientNumber, value: doc.case.outpatient_number }] : []),
  ];
  return ids.length ? ids : [{ system: systems.casePatient, value: doc.case.pathology_number }];
}

/** Created only if the receiver has no resource with this identifier (the hospital's own record wins). */
function createOnce(fullUrl: string, id: { system: string; value: string }, resource: FhirResource): BundleEntry {
  return { fullUrl, resource, request: { method: 'POST', url: resource.resourceType, ifNoneExist: identifierQuery(id.system, id.value) } };
}

/** Created, or updated in place, as the one resource with this identifier (a conditional update). */
function updateBy(fullUrl: string, type: string, id: { system: string; value: string }, resource: FhirResource): BundleEntry {
  return { fullUrl, resource, request: { method: 'PUT', url: `${type}?${identifierQuery(id.system, id.value)}` } };
}

function requester(department: string | null, doctor: string | null): { display: string } | undefined {
  const display = [department, doctor].filter(Boolean).join(' ');
  return display ? { display } : undefined;
}

/** case_specimens.status as Specimen.status: used up is no longer available, a rejected specimen unsatisfactory. */
function specimenStatus(status: string): string {
  if (status === 'used_up') return 'unavailable';
  if (status === 'rejected') return 'unsatisfactory';
  return 'available';
}

function collection(s: SpecimenFacts): Record<string, unknown> {
  const c = { ...withValue('collectedDateTime', fhirDateTime(s.leave_body_at)), ...(s.location ? { bodySite: { text: s.location } } : {}) };
  return Object.keys(c).length ? { collection: c } : {};
}
