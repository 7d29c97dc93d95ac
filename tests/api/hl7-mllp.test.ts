import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Message } from 'node-hl7-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HL7_DEFAULTS, type Hl7Config } from '../../server/modules/hl7/config.js';
import { HL7_RESULT_JOB } from '../../server/modules/hl7/result-job.js';
import { startHl7Listener } from '../../server/modules/hl7/start.js';
import type { MllpListener } from '../../server/modules/hl7/listener.js';
import { jobTypesFor } from '../../server/modules/job-types.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';
import { caseAtFirstDiagnosis, type Send } from './diagnosis-setup.js';
import { hisMessage, hisReceiver, hisSender, type HisReceiver, type HisSender } from './hl7-peer.js';
import { quiet, until } from './job-helpers.js';

/**
 * Issue 30, HL7 v2 with the HIS over MLLP, against a peer built on npm's node-hl7-client / node-hl7-server (none of
 * our HL7 code on that side): an ORM^O01 sent to DSMS's listener is acknowledged AA and is an application the lab
 * dispatches, receives and registers like one filed through the API; bad messages get AE/AR with the reason; a
 * message resent with its control id gets the same ACK and makes nothing twice; an ADT^A04 makes the patient
 * registration's `hl7` HIS adapter finds; a sent report reaches the HIS's listener as an ORU^R01 whose fields the
 * peer reads back; with the HIS down the result waits in the queue and is delivered once it is up again.
 */
interface Report { id: number; version: number }

const PDF_WORK_MS = 180_000;

const field = (m: Message, p: string) => m.get(p).toString();

describe.each(databases)('HL7 v2 round trip with the npm peer [%s]', (kind) => {
  let h: Harness;
  let listener: MllpListener;
  let his: HisSender;
  let receiver: HisReceiver;
  let runner: JobRunner | undefined;
  let dataDir: string;
  let cfg: Hl7Config;
  let general: number;
  let primaryId: number;
  const t: Record<string, string> = {};

  const send: Send = async (who, method, url, payload) => {
    const res = await call(h.app, method, url, { token: t[who], lang: 'zh-CN', payload });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const act = async (who: string, report: Report, action: string, extra: object = {}) => (await send(who, 'POST', `/api/diagnosis/reports/${report.id}/actions/${action}`, { version: report.version, ...extra })) as unknown as Report;
  const logRows = () => h.db.selectFrom('hl7_messages').selectAll().orderBy('id').execute();
  const resultJobs = () => h.db.selectFrom('jobs').selectAll().where('type', '=', HL7_RESULT_JOB).orderBy('id').execute();
  /** The queue's back-off is minutes long: the test moves the retry's due time to now, as if that time had passed. */
  const dueNow = (jobId: number) => h.db.updateTable('jobs').set({ run_after: new Date().toISOString() }).where('id', '=', jobId).execute();

  /** An order of the HIS for a patient seen in the outpatient clinic, as node-hl7-client builds it. */
  const order = (controlId: string, placer: string, facility = 'H001') => {
    const m = hisMessage(['ORM', 'O01', 'ORM_O01'], controlId, facility);
    const pid = m.addSegment('PID');
    pid.set('1', '1');
    pid.set('3.1', 'MZ-7001');
    pid.set('3.5', 'MR');
    pid.set('5.1', '李雷');
    pid.set('7', '19800315');
    pid.set('8', 'M');
    const pv1 = m.addSegment('PV1');
    pv1.set('2', 'O');
    pv1.set('3.1', '消化内科');
    pv1.set('19', 'MZ-7001');
    const orc = m.addSegment('ORC');
    orc.set('1', 'NW');
    if (placer) orc.set('2.1', placer);
    orc.set('12.1', 'D01');
    orc.set('12.2', '韩');
    orc.set('12.3', '梅梅');
    const obr = m.addSegment('OBR');
    obr.set('1', '1');
    if (placer) obr.set('2.1', placer);
    obr.set('4.1', 'PATH');
    obr.set('4.2', '病理检查');
    obr.set('13', '胃窦占位|待查');
    obr.set('15.1', '胃窦活检');
    return m;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-hl7-'));
    receiver = await hisReceiver();
    cfg = { ...HL7_DEFAULTS, hisHost: '127.0.0.1', hisPort: receiver.port, ackTimeoutMs: 5_000, maxAttempts: 3 };
    h = await startApp(kind, { config: { dataDir, reportOutbound: 'hl7', hl7: cfg, his: { adapter: 'hl7' } } });
    listener = await startHl7Listener(h.db, { ...cfg, listenPort: 0, listenHost: '127.0.0.1' }, quiet);
    his = hisSender(listener.port);
    for (const u of ['admin', 'clinician', 'registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer']) t[u] = await tokenFor(h.app, u);
    primaryId = await userId(h.db, 'primary');
    general = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow()).id;
  }, PDF_WORK_MS);
  afterAll(async () => {
    await runner?.stop();
    await his?.close();
    await listener?.close();
    await receiver?.stop();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('ORM^O01 from the peer: AA, and an application the lab takes through like one filed through the API', async () => {
    const ack = await his.send(order('ORM-0001', 'HIS-A-1001'));
    expect(field(ack, 'MSA.1')).toBe('AA');
    expect(field(ack, 'MSA.2')).toBe('ORM-0001');
    expect(field(ack, 'MSH.9.1')).toBe('ACK');
    expect(field(ack, 'MSH.5')).toBe('HIS');
    expect(field(ack, 'MSH.6')).toBe('H001');

    const app = await h.db.selectFrom('case_applications').selectAll().where('apply_number', '=', 'HIS-A-1001').executeTakeFirstOrThrow();
    expect(app).toMatchObject({
      hospital_id: general, status: 0, case_type: 'routine', patient_name: '李雷', gender: 'male', age_unit: 'year', outpatient_number: 'MZ-7001',
      admission_number: null, inspection_department: '消化内科', inspection_doctor: '韩梅梅', specimen_name: '胃窦活检', clinical_diagnosis: '胃窦占位|待查', applied_by: null,
    });
    expect(app.age).toBeGreaterThanOrEqual(46);
    // The write is logged: the message log and the hospital's operation log.
    const [row] = await logRows();
    expect(row).toMatchObject({ direction: 'in', hospital_id: general, message_type: 'ORM^O01', control_id: 'ORM-0001', peer: 'HIS^H001', status: 'accepted', ack_code: 'AA' });
    expect(row.raw).toContain('ORC|NW|HIS-A-1001');
    const logged = await h.db.selectFrom('operation_logs').selectAll().where('route', '=', 'hl7:ORM^O01').execute();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ hospital_id: general, method: 'HL7', username: 'HL7 HIS^H001' });
    expect(JSON.parse(logged[0].payload!)).toMatchObject({ application_id: app.id, apply_number: 'HIS-A-1001', control_id: 'ORM-0001' });

    // The clinic dispatches it and the lab receives it through the API, as any application.
    // An HIS order has no applicant in DSMS, so no clinician's own reach holds it: the desk dispatches it.
    expect((await send('registrar', 'POST', `/api/pathology/applications/${app.id}/dispatch`)).status).toBe(1);
    expect((await send('registrar', 'POST', `/api/pathology/applications/${app.id}/receive`)).status).toBe(2);
  });

  it('the same control id again: the same ACK, no second application', async () => {
    const before = (await logRows()).length;
    const first = (await logRows())[0].ack!;
    const ack = await his.send(order('ORM-0001', 'HIS-A-1001'));
    expect(ack.toString()).toBe(first.replace(/\r$/, ''));
    expect(field(ack, 'MSA.1')).toBe('AA');
    expect(await h.db.selectFrom('case_applications').select('id').where('apply_number', '=', 'HIS-A-1001').execute()).toHaveLength(1);
    expect((await logRows()).length).toBe(before);
    // A new message (another control id) with the same placer number is refused: the number is taken.
    const again = await his.send(order('ORM-0002', 'HIS-A-1001'));
    expect(field(again, 'MSA.1')).toBe('AE');
    expect(field(again, 'MSA.3')).toContain('HIS-A-1001 already used');
    expect(await h.db.selectFrom('case_applications').select('id').where('apply_number', '=', 'HIS-A-1001').execute()).toHaveLength(1);
  });

  it('bad messages: AE or AR with the reason, logged, nothing made', async () => {
    const count = async () => Number((await h.db.selectFrom('case_applications').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();

    const noPlacer = await his.send(order('ORM-0101', ''));
    expect(field(noPlacer, 'MSA.1')).toBe('AE');
    expect(field(noPlacer, 'MSA.2')).toBe('ORM-0101');
    expect(field(noPlacer, 'MSA.3')).toContain('placer order number (ORC-2) missing');
    expect(field(noPlacer, 'ERR.3.1')).toBe('101');

    const stranger = await his.send(order('ORM-0102', 'HIS-A-1002', 'NOWHERE'));
    expect(field(stranger, 'MSA.1')).toBe('AE');
    expect(field(stranger, 'MSA.3')).toContain('NOWHERE');

    const query = hisMessage(['QRY', 'Q01', 'QRY_Q01'], 'QRY-0103', 'H001');
    query.addSegment('QRD').set('1', '20261202');
    const unsupported = await his.send(query);
    expect(field(unsupported, 'MSA.1')).toBe('AR');
    expect(field(unsupported, 'MSA.3')).toContain('QRY is not supported');

    const cancel = order('ORM-0104', 'HIS-A-1004');
    cancel.set('ORC.1', 'CA');
    expect(field(await his.send(cancel), 'MSA.1')).toBe('AR');

    const long = order('ORM-0105', 'HIS-A-1005');
    long.set('PID.5.1', '名'.repeat(200));
    expect(field(await his.send(long), 'MSA.1')).toBe('AA');
    expect((await h.db.selectFrom('case_applications').select('patient_name').where('apply_number', '=', 'HIS-A-1005').executeTakeFirstOrThrow()).patient_name).toHaveLength(128);

    const badNumber = order('ORM-0106', 'HIS A/1006');
    const refused = await his.send(badNumber);
    expect(field(refused, 'MSA.1')).toBe('AE');
    expect(field(refused, 'MSA.3')).toContain('apply_number');

    expect(await count()).toBe(before + 1);
    const rows = await logRows();
    expect(rows.filter((r) => ['ORM-0101', 'ORM-0102', 'QRY-0103', 'ORM-0104', 'ORM-0106'].includes(r.control_id)).map((r) => [r.control_id, r.status, r.ack_code])).toEqual([
      ['ORM-0101', 'error', 'AE'], ['ORM-0102', 'error', 'AE'], ['QRY-0103', 'rejected', 'AR'], ['ORM-0104', 'rejected', 'AR'], ['ORM-0106', 'error', 'AE'],
    ]);
    // A message of no hospital of ours is the administrators' only.
    expect(rows.find((r) => r.control_id === 'ORM-0102')!.hospital_id).toBeNull();
  });

  it('ADT^A04: the patient registration looks up through the hl7 HIS adapter; A08 updates it', async () => {
    const adt = (controlId: string, event: string, name: string) => {
      const m = hisMessage(['ADT', event, 'ADT_A01'], controlId, 'H001');
      m.addSegment('EVN').set('1', event);
      const pid = m.addSegment('PID');
      pid.set('3.1', 'ZY-8002');
      pid.set('5.1', name);
      pid.set('7', '19620704');
      pid.set('8', 'F');
      pid.set('13.1', '13900000002');
      const pv1 = m.addSegment('PV1');
      pv1.set('2', 'I');
      pv1.set('3.1', '胸外科');
      pv1.set('3.3', '12-3');
      pv1.set('19', 'ZY-8002');
      return m;
    };
    expect(field(await his.send(adt('ADT-0201', 'A04', '韩梅')), 'MSA.1')).toBe('AA');
    const look = async () => call(h.app, 'GET', '/api/pathology/his/lookup?admission_number=ZY-8002', { token: t.registrar, lang: 'en-US' });
    let res = await look();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ patient_name: '韩梅', gender: 'female', admission_number: 'ZY-8002', outpatient_number: null, bed_number: '12-3', inspection_department: '胸外科', treat_type: 'hospital', phone: '13900000002', age_unit: 'year' });
    expect(field(await his.send(adt('ADT-0202', 'A08', '韩梅梅')), 'MSA.1')).toBe('AA');
    res = await look();
    expect(res.json().data.patient_name).toBe('韩梅梅');
    expect((await call(h.app, 'GET', '/api/pathology/his/lookup?admission_number=ZY-0000', { token: t.registrar })).statusCode).toBe(404);
    expect(await h.db.selectFrom('operation_logs').select('id').where('route', 'in', ['hl7:ADT^A04', 'hl7:ADT^A08']).execute()).toHaveLength(2);
  });

  it('a sent report reaches the peer as ORU^R01; with the peer down it is retried and delivered once it is up', async () => {
    runner = startJobRunner(h.db, { types: jobTypesFor({ dataDir, jobLeaseMs: 30_000, hl7: cfg }).filter((x) => x.type === HL7_RESULT_JOB), log: quiet, pollMs: 50 });
    const app = await h.db.selectFrom('case_applications').selectAll().where('apply_number', '=', 'HIS-A-1001').executeTakeFirstOrThrow();
    // Registered from the HIS's application: the result names its placer number.
    const caseId = await caseAtFirstDiagnosis(send, primaryId, { application_id: app.id, patient_name: '李雷', gender: 'male', age: 46, age_unit: 'year', outpatient_number: 'MZ-7001' });
    const pathologyNumber = (await h.db.selectFrom('cases').select('pathology_number').where('id', '=', caseId).executeTakeFirstOrThrow()).pathology_number!;
    let r = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis: '（胃窦）慢性萎缩性胃炎\n伴肠上皮化生|轻度', microscopic: '胃黏膜腺体减少。' }) as unknown as Report;
    r = await act('primary', r, 'submit');
    r = await act('auditor', r, 'approve');
    r = await act('signer', r, 'sign', { issue: 'now' });
    r = await act('signer', r, 'send');
    await until(async () => receiver.received.length === 1 && (await resultJobs())[0]?.status === 'done');

    const oru = receiver.received[0];
    expect(field(oru, 'MSH.9.1')).toBe('ORU');
    expect(field(oru, 'MSH.9.2')).toBe('R01');
    expect(field(oru, 'MSH.3')).toBe('DSMS');
    expect(field(oru, 'MSH.4')).toBe('H001');
    expect(field(oru, 'PID.3.1')).toBe('MZ-7001');
    expect(field(oru, 'PID.5.1')).toBe('李雷');
    expect(field(oru, 'PID.8')).toBe('M');
    expect(field(oru, 'PV1.2')).toBe('O');
    expect(field(oru, 'ORC.2')).toBe('HIS-A-1001');
    expect(field(oru, 'ORC.3')).toBe(pathologyNumber);
    expect(field(oru, 'OBR.2')).toBe('HIS-A-1001');
    expect(field(oru, 'OBR.3')).toBe(pathologyNumber);
    expect(field(oru, 'OBR.25')).toBe('F');
    const obx = oru.get('OBX');
    expect(obx.length).toBe(2);
    expect(obx.get(0).get('3.1').toString()).toBe('22637-3');
    // Each line of the diagnosis a repetition of OBX-5, the field separator in it escaped and read back.
    const lines = obx.get(0).get('5').toArray().map((rep) => rep.toString());
    expect(lines).toEqual(['（胃窦）慢性萎缩性胃炎', '伴肠上皮化生|轻度']);
    expect(obx.get(1).get('3.1').toString()).toBe('22635-7');
    expect(obx.get(1).get('5').toString()).toBe('胃黏膜腺体减少。');
    const out = (await logRows()).filter((x) => x.direction === 'out');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ hospital_id: general, message_type: 'ORU^R01', status: 'acked', ack_code: 'AA', attempts: 1, control_id: field(oru, 'MSH.10') });

    // The HIS is down: the next send waits in the queue, the log says so; once it is up, the same message arrives.
    await receiver.stop();
    await act('signer', r, 'send');
    await until(async () => (await resultJobs())[1]?.attempts === 1 && (await resultJobs())[1].status === 'queued');
    const [, waiting] = await resultJobs();
    expect(Date.parse(waiting.run_after) - Date.now()).toBeGreaterThan(20_000);
    const pending = (await logRows()).filter((x) => x.direction === 'out')[1];
    expect(pending).toMatchObject({ status: 'retrying', attempts: 1 });
    expect(pending.error).toBeTruthy();
    await receiver.start();
    await dueNow(waiting.id);
    await until(async () => (await resultJobs())[1].status === 'done');
    expect(receiver.received).toHaveLength(2);
    const delivered = (await logRows()).filter((x) => x.direction === 'out')[1];
    expect(delivered).toMatchObject({ status: 'acked', attempts: 2, error: null, control_id: field(receiver.received[1], 'MSH.10') });
    expect(field(receiver.received[1], 'MSH.10')).not.toBe(field(oru, 'MSH.10'));
    const logs = await h.db.selectFrom('operation_logs').selectAll().where('route', '=', `job:${HL7_RESULT_JOB}`).orderBy('id').execute();
    expect(logs.map((l) => [l.status_code, l.hospital_id, l.username])).toEqual([[200, general, 'HL7 signer'], [200, general, 'HL7 signer']]);
  }, PDF_WORK_MS);

  it('the message log: read with log_view, its hospital only', async () => {
    const res = await call(h.app, 'GET', '/api/hl7/messages/lists?page_size=100', { token: t.admin });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data.data as { control_id: string; status: string; raw: string }[];
    expect(rows.find((x) => x.control_id === 'ORM-0001')).toMatchObject({ status: 'accepted' });
    expect(rows.some((x) => x.raw.startsWith('MSH|^~\\&|DSMS|H001|HIS|H001|'))).toBe(true);
    expect((await call(h.app, 'GET', '/api/hl7/messages/lists', { token: t.registrar })).statusCode).toBe(403);
  });
});
