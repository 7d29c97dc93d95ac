import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportBundle, type BundleInput, type TransactionBundle } from '../../server/modules/diagnosis/fhir-bundle.js';
import { ADDENDUM_OF, diagnosticReport } from '../../server/modules/diagnosis/fhir.js';
import { entryUrn, fhirDateTime, identifierQuery, identifierSystems } from '../../server/modules/diagnosis/fhir-systems.js';
import type { ReportDocument } from '../../server/modules/diagnosis/report-data.js';
import { bundleErrors, fhirSchema } from '../support/fhir-schema.js';

/**
 * Issue 30: what a send delivers is one FHIR R4 transaction Bundle a receiver can link (Organization, Patient,
 * ServiceRequest, Specimens, DiagnosticReport), each resource valid against HL7's official R4 JSON schema, every
 * reference resolving inside the Bundle, identifiers in the hospital's own systems, conditional entries so a second
 * post changes nothing twice, Chinese text as it was, a supplementary report as amended / appended naming the report
 * it supplements.
 */
const PDF = Buffer.from('%PDF-1.7\n病理报告\n%%EOF');
const BASE = 'https://dsms.example.org';
const SID = `${BASE}/fhir/sid`;

function doc(over: { report?: Partial<ReportDocument['report']>; case?: Partial<ReportDocument['case']>; supplements?: ReportDocument['supplements'] } = {}): ReportDocument {
  return {
    report: {
      id: 41, hospital_id: 1, case_id: 7, report_type: 1, supplement_type: null, sub_phase: 'signed', is_draft: 0, release_status: 'yes',
      gross_description: '灰白组织一块', microscopic: '腺体结构紊乱', diagnosis: '（胃窦）中分化腺癌，侵及黏膜下层。', advice: null, postscript: null, images: null,
      first_doctor: 11, first_at: '2026-05-01T08:00:00.000Z', audit_doctor: 12, audit_at: '2026-05-01T09:00:00.000Z', sign_doctor: 13, sign_at: '2026-05-01T10:00:00.000Z',
      return_reason: null, returned_count: 0, issue_at: '2026-05-01T10:00:00.000Z', print_at: null, deliver_at: null, delayed: 0, delay_reason: null, delay_at: null,
      delay_doctor: null, delay_status: null, follow_up: null, evaluation: 'unassessed', verify_code: 'abc', verify_hash: null, version: 5, created_by: 11,
      created_at: '2026-05-01T07:00:00.000Z', updated_at: '2026-05-01T10:00:00.000Z', ...over.report,
    },
    case: {
      id: 7, pathology_number: 'P2026-0001', patient_name: '欧阳娜娜', gender: 'female', age: 47, age_unit: 'year', inspection_department: '消化内科',
      inspection_doctor: '张医生', specimen_name: '胃窦活检', clinical_diagnosis: '胃窦溃疡', outpatient_number: 'MZ-1001', admission_number: null,
      bed_number: null, registration_at: '2026-04-30T06:00:00.000Z', ...over.case,
    },
    hospital: { id: 1, name: '示范医院总院', en_name: 'Demo General Hospital', logo: null },
    doctors: { first: '陈初诊', audit: '刘复诊', sign: '赵签发' },
    images: [],
    ...(over.supplements !== undefined ? { supplements: over.supplements } : {}),
    lang: 'zh-CN',
  };
}

function input(over: Partial<BundleInput> = {}): BundleInput {
  return {
    doc: doc(), pdf: PDF, documentId: 3, hospitalCode: 'H001',
    specimens: [
      { seq: 1, name: '胃窦活检', status: 'received', fixative: '10% 中性福尔马林', fixed_at: '2026-04-30 08:10', location: '胃窦前壁', leave_body_at: '2026-04-30T07:55:00.000Z', receive_at: '2026-04-30T09:00:00.000Z', rejection_reason: null },
      { seq: 2, name: '胃体活检', status: 'used_up', fixative: null, fixed_at: null, location: null, leave_body_at: null, receive_at: null, rejection_reason: null },
    ],
    application: { apply_number: 'SQ-2026-77', created_at: '2026-04-29T03:00:00.000Z' },
    base: BASE, systemBase: SID, sentAt: '2026-05-02T01:00:00.000Z', ...over,
  };
}

const byType = (b: TransactionBundle, type: string) => b.entry.filter((e) => e.resource.resourceType === type);
const one = (b: TransactionBundle, type: string) => {
  const found = byType(b, type);
  expect(found, type).toHaveLength(1);
  return found[0];
};

/** Every `reference` anywhere in the value. */
function references(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => references(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'reference' && typeof v === 'string') out.push(v);
      else references(v, out);
    }
  }
  return out;
}

describe('the FHIR R4 transaction Bundle of a sent report (issue 30)', () => {
  const systems = identifierSystems(SID, 'H001');
  // HL7's schema is 2.8 MB (a Bundle entry may be any resource): compiled once, outside the tests' own time.
  beforeAll(() => { fhirSchema('Bundle'); }, 180_000);

  it('holds Organization, Patient, ServiceRequest, each Specimen and the DiagnosticReport, every one valid against the R4 schema', () => {
    const b = reportBundle(input());
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'transaction', timestamp: '2026-05-02T01:00:00.000Z' });
    expect(b.entry.map((e) => e.resource.resourceType)).toEqual(['Organization', 'Patient', 'ServiceRequest', 'Specimen', 'Specimen', 'DiagnosticReport']);
    expect(bundleErrors(b)).toEqual([]);
    // The same schema refuses what is not R4 (a status DiagnosticReport does not have).
    const broken = structuredClone(b);
    broken.entry[5].resource.status = 'done';
    expect(bundleErrors(broken).length).toBeGreaterThan(0);
  });

  it('links: every reference is an entry of the Bundle, the report names its patient, specimens, request and performer', () => {
    const b = reportBundle(input());
    const urls = new Set(b.entry.map((e) => e.fullUrl));
    for (const ref of references(b.entry.map((e) => e.resource))) expect(urls, ref).toContain(ref);
    for (const u of urls) expect(u).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const [org, patient, request] = ['Organization', 'Patient', 'ServiceRequest'].map((t) => one(b, t).fullUrl);
    const specimens = byType(b, 'Specimen').map((e) => e.fullUrl);
    const report = one(b, 'DiagnosticReport').resource;
    expect(report).toMatchObject({
      status: 'final', conclusion: '（胃窦）中分化腺癌，侵及黏膜下层。',
      subject: { reference: patient, display: '欧阳娜娜' }, basedOn: [{ reference: request }],
      specimen: specimens.map((reference) => ({ reference })), performer: [{ reference: org, display: '示范医院总院' }],
      resultsInterpreter: [
        { type: 'Practitioner', identifier: { system: systems.user, value: '11' }, display: '陈初诊' },
        { type: 'Practitioner', identifier: { system: systems.user, value: '12' }, display: '刘复诊' },
        { type: 'Practitioner', identifier: { system: systems.user, value: '13' }, display: '赵签发' },
      ],
    });
    expect(report).not.toHaveProperty('id');
    const form = (report.presentedForm as { data: string; size: number; hash: string; contentType: string }[])[0];
    expect(Buffer.from(form.data, 'base64').equals(PDF)).toBe(true);
    expect(form).toMatchObject({ contentType: 'application/pdf', size: PDF.length, hash: createHash('sha1').update(PDF).digest('base64') });
    expect(one(b, 'ServiceRequest').resource).toMatchObject({
      status: 'completed', intent: 'order', subject: { reference: patient }, specimen: specimens.map((reference) => ({ reference })),
      requester: { display: '消化内科 张医生' }, reasonCode: [{ text: '胃窦溃疡' }], authoredOn: '2026-04-29T03:00:00.000Z',
      requisition: { system: systems.applicationNumber, value: 'SQ-2026-77' },
    });
    expect(byType(b, 'Specimen')[0].resource).toMatchObject({
      identifier: [{ system: systems.specimen, value: 'P2026-0001-1' }], accessionIdentifier: { system: systems.pathologyNumber, value: 'P2026-0001' },
      status: 'available', type: { text: '胃窦活检' }, subject: { reference: patient }, request: [{ reference: request }],
      collection: { collectedDateTime: '2026-04-30T07:55:00.000Z', bodySite: { text: '胃窦前壁' } }, receivedTime: '2026-04-30T09:00:00.000Z',
    });
    expect(byType(b, 'Specimen')[1].resource.status).toBe('unavailable');
  });

  it("identifies the patient by the hospital's numbers, in the hospital's systems; created only when the receiver has none", () => {
    const b = reportBundle(input({ doc: doc({ case: { admission_number: 'ZY-88', outpatient_number: 'MZ-1001' } }) }));
    const patient = one(b, 'Patient');
    expect(patient.resource).toMatchObject({
      identifier: [
        { system: `${SID}/hospital/H001/admission-number`, value: 'ZY-88', type: { text: '住院号' } },
        { system: `${SID}/hospital/H001/outpatient-number`, value: 'MZ-1001', type: { text: '门诊号' } },
      ],
      name: [{ text: '欧阳娜娜' }], gender: 'female',
    });
    expect(patient.request).toEqual({ method: 'POST', url: 'Patient', ifNoneExist: `identifier=${SID}/hospital/H001/admission-number|ZY-88` });
    expect(one(b, 'Organization').request).toEqual({ method: 'POST', url: 'Organization', ifNoneExist: `identifier=${SID}/hospital|H001` });
    expect(one(b, 'ServiceRequest').request).toEqual({ method: 'POST', url: 'ServiceRequest', ifNoneExist: `identifier=${SID}/hospital/H001/pathology-number|P2026-0001` });
    // What the pathology department owns is a conditional update on its identifier: sent again, it is updated, not doubled.
    expect(byType(b, 'Specimen').map((e) => e.request)).toEqual([1, 2].map((n) => ({ method: 'PUT', url: `Specimen?identifier=${SID}/hospital/H001/specimen|P2026-0001-${n}` })));
    expect(one(b, 'DiagnosticReport').request).toEqual({ method: 'PUT', url: `DiagnosticReport?identifier=${SID}/hospital/H001/report|41` });
    // Another hospital's patient with the same number is another patient.
    const other = reportBundle(input({ hospitalCode: 'H002', doc: doc({ case: { admission_number: 'ZY-88' } }) }));
    expect(one(other, 'Patient').request.ifNoneExist).toBe(`identifier=${SID}/hospital/H002/admission-number|ZY-88`);
    expect(one(other, 'Patient').fullUrl).not.toBe(patient.fullUrl);
  });

  it('a patient with no number is known by their case; a case without an application is requested by its registration', () => {
    const b = reportBundle(input({ doc: doc({ case: { outpatient_number: null, admission_number: null, gender: null } }), application: null, specimens: [] }));
    expect(bundleErrors(b)).toEqual([]);
    expect(one(b, 'Patient').resource).toMatchObject({ identifier: [{ system: systems.casePatient, value: 'P2026-0001' }], gender: 'unknown' });
    const request = one(b, 'ServiceRequest').resource;
    expect(request.identifier).toEqual([{ system: systems.pathologyNumber, value: 'P2026-0001' }]);
    expect(request).not.toHaveProperty('requisition');
    expect(request.authoredOn).toBe('2026-04-30T06:00:00.000Z');
    expect(one(b, 'DiagnosticReport').resource.specimen).toEqual([]);
  });

  it('a supplementary report goes as appended (stain results) or amended (a plain supplement), naming the report it supplements', () => {
    const supplements = { report_id: 41, document_id: 3, sign_at: '2026-05-01T10:00:00.000Z', verify_code: 'abc', diagnosis: '（胃窦）中分化腺癌' };
    const sup = (type: number) => reportBundle(input({ doc: doc({ report: { id: 42, report_type: 2, supplement_type: type, sub_phase: 'accept', release_status: 'no', diagnosis: 'HER2(1+)' }, supplements }) }));
    for (const [type, status] of [[1, 'appended'], [2, 'appended'], [0, 'amended']] as const) {
      const b = sup(type);
      expect(bundleErrors(b)).toEqual([]);
      const report = one(b, 'DiagnosticReport');
      expect(report.resource.status, `supplement_type ${type}`).toBe(status);
      expect(report.resource.extension).toEqual([{ url: ADDENDUM_OF, valueReference: { type: 'DiagnosticReport', identifier: { system: systems.report, value: '41' } } }]);
      expect(report.request.url).toBe(`DiagnosticReport?identifier=${SID}/hospital/H001/report|42`);
    }
    // The same patient, request and specimens as the report it supplements: the receiver links both to one patient.
    const main = reportBundle(input());
    expect(['Patient', 'ServiceRequest', 'Organization'].map((t) => one(sup(0), t).fullUrl)).toEqual(['Patient', 'ServiceRequest', 'Organization'].map((t) => one(main, t).fullUrl));
  });

  it('Chinese text survives as UTF-8, and the same send makes the same Bundle', () => {
    const b = reportBundle(input());
    const bytes = Buffer.from(JSON.stringify(b), 'utf8');
    const back = JSON.parse(bytes.toString('utf8')) as TransactionBundle;
    expect(one(back, 'Patient').resource.name).toEqual([{ text: '欧阳娜娜' }]);
    expect(one(back, 'DiagnosticReport').resource.conclusion).toBe('（胃窦）中分化腺癌，侵及黏膜下层。');
    expect(bytes.includes(Buffer.from('欧阳娜娜', 'utf8'))).toBe(true);
    expect(reportBundle(input())).toEqual(b);
  });

  it('the report alone (GET …/fhir) keeps its id and names the patient by identifier; valid too', () => {
    const alone = diagnosticReport(doc(), PDF, { base: BASE, systems });
    expect(fhirSchema('DiagnosticReport')(alone)).toBe(true);
    expect(alone).toMatchObject({ id: 'dsms-report-41', subject: { display: '欧阳娜娜', identifier: { system: systems.outpatientNumber, value: 'MZ-1001' } }, performer: [{ display: '示范医院总院' }] });
  });
});

describe('FHIR identifier helpers', () => {
  it('token queries percent-encode what a number may hold, leaving the system readable', () => {
    expect(identifierQuery('https://h.example/sid', 'A&B|C 门诊')).toBe('identifier=https://h.example/sid|A%26B%7CC%20%E9%97%A8%E8%AF%8A');
    expect(new URLSearchParams(identifierQuery('https://h.example/sid', 'A&B|C 门诊')).get('identifier')).toBe('https://h.example/sid|A&B|C 门诊');
  });

  it('entry ids are stable UUIDs of what they name', () => {
    expect(entryUrn('Patient', 's', 'v')).toBe(entryUrn('Patient', 's', 'v'));
    expect(entryUrn('Patient', 's', 'v')).not.toBe(entryUrn('Patient', 's', 'w'));
  });

  it('stored times become FHIR dateTimes, or are left out', () => {
    expect(fhirDateTime('2026-05-01T10:00:00.000Z')).toBe('2026-05-01T10:00:00.000Z');
    expect(fhirDateTime('2026-05-01')).toBe('2026-05-01');
    expect(fhirDateTime('2026-05-01 10:20')).toMatch(/^2026-05-01T\d{2}:20:00\.000Z$/);
    expect(fhirDateTime('yesterday')).toBeUndefined();
    expect(fhirDateTime(null)).toBeUndefined();
  });
});
