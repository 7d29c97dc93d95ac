import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobTypesFor } from '../../server/modules/job-types.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import type { FhirOutboundConfig } from '../../server/modules/diagnosis/outbound-config.js';
import { ADDENDUM_OF } from '../../server/modules/diagnosis/fhir.js';
import { REPORT_OUTBOUND_JOB } from '../../server/modules/diagnosis/outbound-job.js';
import { bundleErrors, fhirSchema } from '../support/fhir-schema.js';
import { call, databases, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';
import { caseAtFirstDiagnosis, type Send } from './diagnosis-setup.js';
import { startFhirReceiver, type FhirReceiver } from './fhir-receiver.js';
import { quiet, until } from './job-helpers.js';

/**
 * Issue 30, FHIR R4 out: sending a signed report delivers one transaction Bundle (Organization, Patient,
 * ServiceRequest, Specimen, DiagnosticReport with the signed PDF). REPORT_OUTBOUND=outbox writes it under
 * DATA_DIR/outbox/fhir; REPORT_OUTBOUND=fhir queues it in the send's transaction and the job queue posts it to
 * FHIR_BASE_URL (a loopback receiver here): retried with back-off on 503, a post repeated after the receiver stored it
 * duplicating nothing, a refusal failing the delivery at once with the job's status and an operation log line, and
 * another hospital's user unable to send it. Every resource posted is valid against HL7's R4 JSON schema.
 */
interface Report { id: number; version: number; deliver_at: string | null }
interface Delivery { id: number; status: string; attempts: number; error_text: string | null; run_after: string }
type Bundle = { resourceType: string; type: string; entry: { fullUrl: string; resource: { resourceType: string } & Record<string, any>; request: Record<string, string> }[] };

const PDF_WORK_MS = 180_000;

describe.each(databases)('FHIR R4 out [%s]', (kind) => {
  let h: Harness;
  let outboxApp: FastifyInstance;
  let receiver: FhirReceiver;
  let runner: JobRunner | undefined;
  let dataDir: string;
  let cfg: FhirOutboundConfig & { baseUrl: string };
  const t: Record<string, string> = {};
  let primaryId: number;
  let general: number;

  const send: Send = async (who, method, url, payload) => {
    const res = await call(h.app, method, url, { token: t[who], lang: 'zh-CN', payload });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const act = async (who: string, report: { id: number; version: number }, action: string, app = h.app, extra: object = {}) => {
    const res = await call(app, 'POST', `/api/diagnosis/reports/${report.id}/actions/${action}`, { token: t[who], lang: 'zh-CN', payload: { version: report.version, ...extra } });
    if (res.statusCode !== 200) throw new Error(`${action} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json().data as Report;
  };
  const deliveries = async (id: number, lang = 'zh-CN', who = 'signer') => {
    const res = await call(h.app, 'GET', `/api/diagnosis/reports/${id}/deliveries`, { token: t[who], lang });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Delivery[];
  };
  const jobsOf = (id: number) => h.db.selectFrom('jobs').selectAll().where('type', '=', REPORT_OUTBOUND_JOB).where('dedupe_key', '=', `report-outbound:${id}`).orderBy('id').execute();
  /** The queue's back-off is minutes long: the test moves the retry's due time to now, as if that time had passed. */
  const dueNow = (jobId: number) => h.db.updateTable('jobs').set({ run_after: new Date().toISOString() }).where('id', '=', jobId).execute();
  const logsOf = (reportId: number) => h.db.selectFrom('operation_logs').selectAll().where('route', '=', `job:${REPORT_OUTBOUND_JOB}`).orderBy('id').execute()
    .then((rows) => rows.filter((r) => (JSON.parse(r.payload ?? '{}') as { report_id?: number }).report_id === reportId));
  const pdfOf = async (id: number) => (await call(h.app, 'GET', `/api/diagnosis/reports/${id}/pdf`, { token: t.signer })).rawPayload;
  /** A signed and issued report of a new case. */
  const signed = async (patient: string, diagnosis: string, extra: Record<string, unknown> = {}) => {
    const caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: patient, gender: 'female', age: 52, age_unit: 'year', ...extra });
    let r = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis }) as unknown as Report;
    r = await act('primary', r, 'submit');
    r = await act('auditor', r, 'approve');
    return { caseId, report: await act('signer', r, 'sign', h.app, { issue: 'now' }) };
  };
  const startRunner = (c: FhirOutboundConfig) => {
    // The job type as the installation registers it (jobs/registry.ts), with this test's receiver.
    const types = jobTypesFor({ dataDir, jobLeaseMs: 30_000, fhirOutbound: c }).filter((x) => x.type === REPORT_OUTBOUND_JOB);
    expect(types).toHaveLength(1);
    runner = startJobRunner(h.db, { types, log: quiet, pollMs: 50 });
  };

  let main: { caseId: number; report: Report };

  beforeAll(async () => {
    fhirSchema('Bundle');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-fhir-out-'));
    receiver = await startFhirReceiver();
    cfg = { baseUrl: receiver.url, token: 'fhir-secret', timeoutMs: 5_000, maxAttempts: 3 };
    h = await startApp(kind, { config: { dataDir, reportOutbound: 'fhir', fhirOutbound: cfg } });
    // The same installation configured with the outbox, on the same database (a second node of it).
    outboxApp = await testApp(h.db, { dataDir, reportOutbound: 'outbox' });
    await outboxApp.ready();
    for (const u of ['admin', 'registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer']) t[u] = await tokenFor(h.app, u);
    primaryId = await userId(h.db, 'primary');
    general = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow()).id;
    // A signer of the branch hospital only.
    const branch = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow()).id;
    const model = await h.db.selectFrom('users').selectAll().where('name', '=', 'signer').executeTakeFirstOrThrow();
    const { id: _drop, ...copy } = model;
    const { id } = await h.db.insertInto('users').values({ ...copy, name: 'branchsigner', realname: '分院签发', email: 'branchsigner@demo.dsms' }).returning('id').executeTakeFirstOrThrow();
    for (const role of await h.db.selectFrom('user_roles').select('role_id').where('user_id', '=', model.id).execute()) {
      await h.db.insertInto('user_roles').values({ user_id: id, role_id: role.role_id }).execute();
    }
    await h.db.insertInto('user_hospitals').values({ user_id: id, hospital_id: branch }).execute();
    t.branchsigner = await tokenFor(h.app, 'branchsigner');
    main = await signed('欧阳娜娜', '（胃窦）中分化腺癌，侵及黏膜下层。', { outpatient_number: 'MZ-3001' });
  }, PDF_WORK_MS);
  afterAll(async () => {
    await runner?.stop();
    await outboxApp?.close();
    await h?.close();
    await receiver?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('outbox: a send writes the transaction Bundle, every resource valid R4, the signed PDF, Chinese as it was', async () => {
    const sent = await act('signer', main.report, 'send', outboxApp);
    main.report = sent;
    expect(sent.deliver_at).toBeTruthy();
    const dir = path.join(dataDir, 'outbox', 'fhir');
    const files = fs.readdirSync(dir).filter((f) => f.startsWith(`dsms-report-${main.report.id}-`) && f.endsWith('.json'));
    expect(files).toHaveLength(1);
    const raw = fs.readFileSync(path.join(dir, files[0]));
    expect(raw.includes(Buffer.from('欧阳娜娜', 'utf8'))).toBe(true);
    const bundle = JSON.parse(raw.toString('utf8')) as Bundle;
    expect(bundle.type).toBe('transaction');
    expect(bundle.entry.map((e) => e.resource.resourceType)).toEqual(['Organization', 'Patient', 'ServiceRequest', 'Specimen', 'DiagnosticReport']);
    expect(bundleErrors(bundle)).toEqual([]);
    const report = bundle.entry[4].resource;
    expect(Buffer.from(report.presentedForm[0].data, 'base64').equals(await pdfOf(main.report.id))).toBe(true);
    expect(report).toMatchObject({ status: 'final', conclusion: '（胃窦）中分化腺癌，侵及黏膜下层。', subject: { reference: bundle.entry[1].fullUrl, display: '欧阳娜娜' }, performer: [{ display: '示范医院总院' }] });
    expect(bundle.entry[1].resource.identifier[0]).toMatchObject({ system: 'http://localhost:8001/fhir/sid/hospital/H001/outpatient-number', value: 'MZ-3001' });
    expect(bundle.entry[3].resource).toMatchObject({ type: { text: '胃窦活检' }, processing: [{ description: '10% NBF' }] });
    // The outbox app queued nothing: its delivery is the file.
    expect(await jobsOf(main.report.id)).toEqual([]);
  }, PDF_WORK_MS);

  it('fhir: posted from the job queue; a 503 is retried after the back-off, a post the receiver stored but did not confirm duplicates nothing, then delivered', async () => {
    startRunner(cfg);
    receiver.script.push('503', 'store-then-503');
    const before = receiver.requests.length;
    main.report = await act('signer', main.report, 'send');
    // Answered at once; the post is the queue's.
    let [job] = await jobsOf(main.report.id);
    expect(job).toBeDefined();
    await until(async () => (await jobsOf(main.report.id))[0].attempts === 1 && (await jobsOf(main.report.id))[0].status === 'queued');
    [job] = await jobsOf(main.report.id);
    // Tried again after the queue's back-off (30 s after a first failure), with the receiver's answer kept.
    expect(Date.parse(job.run_after) - Date.now()).toBeGreaterThan(20_000);
    const waiting = (await deliveries(main.report.id))[0];
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
    expect(waiting.error_text).toContain('FHIR 接收方暂时无法接收报告（状态 503：busy, try later）');
    await dueNow(job.id);
    await until(async () => (await jobsOf(main.report.id))[0].attempts === 2 && (await jobsOf(main.report.id))[0].status === 'queued');
    expect(receiver.of('DiagnosticReport')).toHaveLength(1);
    await dueNow(job.id);
    await until(async () => (await jobsOf(main.report.id))[0].status === 'done');
    expect((await deliveries(main.report.id, 'en-US'))[0]).toMatchObject({ status: 'done', attempts: 3, error_text: null });

    // Three posts of the same Bundle, as FHIR JSON in UTF-8 with the token.
    const posts = receiver.requests.slice(before);
    expect(posts).toHaveLength(3);
    for (const p of posts) {
      expect(p.auth).toBe('Bearer fhir-secret');
      expect(p.contentType).toBe('application/fhir+json; charset=utf-8');
      expect(p.raw.equals(posts[0].raw)).toBe(true);
    }
    const bundle = posts[0].body as Bundle;
    expect(bundleErrors(bundle)).toEqual([]);
    // The receiver holds one of each, linked: the report's subject, specimen and request are the stored resources.
    for (const type of ['Organization', 'Patient', 'ServiceRequest', 'Specimen', 'DiagnosticReport']) expect(receiver.of(type), type).toHaveLength(1);
    const [patient] = receiver.of('Patient');
    const [report] = receiver.of('DiagnosticReport');
    expect(patient).toMatchObject({ name: [{ text: '欧阳娜娜' }], identifier: [{ value: 'MZ-3001' }] });
    expect(report).toMatchObject({
      subject: { reference: `Patient/${patient.id}` }, specimen: [{ reference: `Specimen/${receiver.of('Specimen')[0].id}` }],
      basedOn: [{ reference: `ServiceRequest/${receiver.of('ServiceRequest')[0].id}` }], conclusion: '（胃窦）中分化腺癌，侵及黏膜下层。',
    });
    expect(Buffer.from((report.presentedForm as { data: string }[])[0].data, 'base64').equals(await pdfOf(main.report.id))).toBe(true);
    // The operation log of the report's hospital says who sent it, where, and that it arrived.
    const logs = await logsOf(main.report.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ username: 'signer', method: 'POST', path: receiver.url, status_code: 200, hospital_id: general });
    expect(JSON.parse(logs[0].payload!)).toMatchObject({ report_id: main.report.id, job_id: job.id, outcome: 'delivered', attempt: 3 });
  }, PDF_WORK_MS);

  it('a second send updates the same report; an accepted supplementary report goes as appended, linked to the same patient', async () => {
    main.report = await act('signer', main.report, 'send');
    await until(async () => (await jobsOf(main.report.id)).every((j) => j.status === 'done') && (await jobsOf(main.report.id)).length === 2);
    expect(receiver.of('DiagnosticReport')).toHaveLength(1);
    expect(receiver.of('Patient')).toHaveLength(1);

    let sup = await send('primary', 'POST', `/api/diagnosis/${main.caseId}/reports`, { report_type: 2, supplement_type: 1, diagnosis: 'ER(+90%)，PR(+60%)，HER2(1+)' }) as unknown as Report;
    sup = await act('primary', sup, 'supplement_submit');
    sup = await act('signer', sup, 'accept');
    sup = await act('signer', sup, 'send');
    await until(async () => (await jobsOf(sup.id))[0]?.status === 'done');
    const posted = receiver.requests[receiver.requests.length - 1].body as Bundle;
    expect(bundleErrors(posted)).toEqual([]);
    expect(receiver.of('DiagnosticReport')).toHaveLength(2);
    expect(receiver.of('Patient')).toHaveLength(1);
    const added = receiver.of('DiagnosticReport').find((r) => r.identifier?.some((i) => i.value === String(sup.id)))!;
    expect(added).toMatchObject({
      status: 'appended', conclusion: 'ER(+90%)，PR(+60%)，HER2(1+)', subject: { reference: `Patient/${receiver.of('Patient')[0].id}` },
      extension: [{ url: ADDENDUM_OF, valueReference: { type: 'DiagnosticReport', identifier: { value: String(main.report.id) } } }],
    });
    expect(Buffer.from((added.presentedForm as { data: string }[])[0].data, 'base64').equals(await pdfOf(sup.id))).toBe(true);
  }, PDF_WORK_MS);

  it('a receiver that refuses the Bundle fails the delivery at once, visibly: the job, its reason translated, the operation log', async () => {
    const other = await signed('钱多多', '结肠管状腺瘤');
    receiver.script.push('400');
    const sent = await act('signer', other.report, 'send');
    await until(async () => (await jobsOf(sent.id))[0]?.status === 'failed');
    const [failed] = await deliveries(sent.id, 'en-US');
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.error_text).toBe('The FHIR receiver refused the report (status 400: Specimen.type: code not in the receiving value set) and it is not tried again; ask the interface administrator, then send it again');
    const logs = await logsOf(sent.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ username: 'signer', status_code: 400, hospital_id: general });
    expect(JSON.parse(logs[0].payload!)).toMatchObject({ outcome: 'failed', attempts: 1 });
    // Sending again is the way to try once more: a new delivery, which a receiver that never answers fails after its timeout and retries.
    await runner!.stop();
    startRunner({ ...cfg, timeoutMs: 300 });
    receiver.script.push('hang');
    const again = await act('signer', sent, 'send');
    await until(async () => (await jobsOf(again.id)).length === 2 && (await jobsOf(again.id))[1].attempts === 1 && (await jobsOf(again.id))[1].status === 'queued');
    const retrying = (await jobsOf(again.id))[1];
    expect((await deliveries(again.id, 'en-US'))[0].error_text).toContain('no answer within 300 ms');
    await dueNow(retrying.id);
    await until(async () => (await jobsOf(again.id))[1].status === 'done');
    expect(receiver.of('DiagnosticReport').filter((r) => r.identifier?.some((i) => i.value === String(sent.id)))).toHaveLength(1);
  }, PDF_WORK_MS);

  it("another hospital's user can neither send the report nor see its deliveries; nothing is queued or posted", async () => {
    const before = { posts: receiver.requests.length, jobs: (await jobsOf(main.report.id)).length };
    const refused = await call(h.app, 'POST', `/api/diagnosis/reports/${main.report.id}/actions/send`, { token: t.branchsigner, lang: 'en-US', payload: { version: main.report.version } });
    expect(refused.statusCode).toBe(404);
    expect((await call(h.app, 'GET', `/api/diagnosis/reports/${main.report.id}/deliveries`, { token: t.branchsigner })).statusCode).toBe(404);
    // Nor does a user who may read but not send.
    const unsent = await call(h.app, 'POST', `/api/diagnosis/reports/${main.report.id}/actions/send`, { token: t.registrar, lang: 'en-US', payload: { version: main.report.version } });
    expect(unsent.statusCode).toBe(403);
    await new Promise((r) => setTimeout(r, 300));
    expect((await jobsOf(main.report.id)).length).toBe(before.jobs);
    expect(receiver.requests.length).toBe(before.posts);
  });
});
