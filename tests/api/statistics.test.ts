import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodDays, shiftDayBounds } from '../../src/core/statPeriods.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Statistics (issue 16): each route's numbers against a count the test runs itself over the same rows and period,
 * the 06:00 shift-day boundary in both databases' date arithmetic, permissions, the hospital check, translated
 * refusals, and the .xlsx export read back.
 */
describe.each(databases)('statistics [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let registrar: string;
  let clinician: string;
  let qc: string;
  let hospital: number;
  let foreign: number;
  let doctor: number;

  const at = (s: string) => new Date(s).toISOString();
  const get = (token: string, url: string, lang?: string) => call(h.app, 'GET', url, { token, lang });

  beforeAll(async () => {
    h = await startApp(kind);
    admin = await tokenFor(h.app, 'admin');
    registrar = await tokenFor(h.app, 'registrar');
    clinician = await tokenFor(h.app, 'clinician');
    qc = await tokenFor(h.app, 'qc');
    doctor = await userId(h.db, 'primary');
    const reg = await userId(h.db, 'registrar');
    hospital = (await h.db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', reg).orderBy('hospital_id').executeTakeFirstOrThrow()).hospital_id;
    await call(h.app, 'POST', '/api/auth/switch_hospital', { token: admin, payload: { hospital_id: hospital } });
    const now = new Date().toISOString();
    foreign = (await h.db.insertInto('hospitals').values({ name: '外院', en_name: 'Elsewhere', code: 'HX99', logo: null, created_at: now }).returning('id').executeTakeFirstOrThrow()).id;
    // Cases in 2025 (the demo data is of today): around the 06:00 boundary, signed early and late, other types, another hospital.
    const cases: [hospital: number, registered: string, signed: string | null, type: string, signer: number | null][] = [
      [hospital, '2025-03-10T05:59:59Z', '2025-03-10T09:00:00Z', 'routine', doctor],
      [hospital, '2025-03-10T06:00:00Z', '2025-03-15T06:00:00Z', 'routine', doctor],
      [hospital, '2025-03-10T23:30:00Z', null, 'frozen', null],
      [hospital, '2025-03-11T05:00:00Z', '2025-03-11T07:00:00Z', 'cell', reg],
      [hospital, '2025-03-12T12:00:00Z', null, 'routine', null],
      [hospital, '2025-04-02T12:00:00Z', null, 'routine', null],
      [foreign, '2025-03-10T12:00:00Z', null, 'routine', null],
    ];
    for (const [i, [hid, registered, signed, type, signer]] of cases.entries()) {
      await h.db.insertInto('cases').values({
        hospital_id: hid, pathology_number: `ST-${i}`, case_type: type, main_phase: signed ? 'report' : 'registration', expedite_status: 0, extra: '{}',
        registration_at: at(registered), registration_doctor: reg, sign_at: signed ? at(signed) : null, doctor_id: signer, created_at: now, updated_at: now,
      }).execute();
    }
  }, 60_000);
  afterAll(async () => h?.close());

  /** What the route must say: the test's own count over the same half-open range. */
  const sqlCount = async (column: 'registration_at' | 'sign_at', from: string, to: string, extra: { doctor?: number; type?: string } = {}) => {
    const { start, end } = shiftDayBounds(from, to, 0);
    const row = await h.db.selectFrom('cases').select(sql<number>`count(*)`.as('n'))
      .where('hospital_id', '=', hospital).where(column, '>=', start).where(column, '<', end)
      .$if(extra.doctor !== undefined, (q) => q.where('doctor_id', '=', extra.doctor!))
      .$if(extra.type !== undefined, (q) => q.where('case_type', '=', extra.type!))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it('counts workload per shift day: 05:59 belongs to the day before, 06:00 to the new day', async () => {
    const res = await get(admin, '/api/statistic/workload?from=2025-03-09&to=2025-03-12&utc_offset=0');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.range).toMatchObject({ from: '2025-03-09', to: '2025-03-12', bucket: 'day', start: '2025-03-09T06:00:00.000Z', end: '2025-03-13T06:00:00.000Z' });
    expect(data.series).toEqual(['registered', 'sampled', 'signed']);
    expect(data.rows.map((r: { bucket: string; registered: number }) => [r.bucket, r.registered])).toEqual([
      ['2025-03-09', 1], ['2025-03-10', 3], ['2025-03-11', 0], ['2025-03-12', 1],
    ]);
    expect(data.totals.registered).toBe(await sqlCount('registration_at', '2025-03-09', '2025-03-12'));
    expect(data.totals.signed).toBe(await sqlCount('sign_at', '2025-03-09', '2025-03-12'));
  });

  it('moves the boundary with the hospital\'s offset (Beijing: 06:00 local is 22:00 UTC)', async () => {
    const res = await get(admin, '/api/statistic/workload?from=2025-03-10&to=2025-03-11&utc_offset=480');
    const rows = res.json().data.rows as { bucket: string; registered: number }[];
    // 03-10 05:59:59Z = 13:59 local → 03-10; 06:00Z → 03-10; 23:30Z = 07:30 local 03-11 → 03-11; 03-11 05:00Z = 13:00 → 03-11.
    expect(rows.map((r) => [r.bucket, r.registered])).toEqual([['2025-03-10', 2], ['2025-03-11', 2]]);
  });

  it('filters by doctor and case type, and buckets a long range by month', async () => {
    const byDoctor = (await get(admin, `/api/statistic/workload?from=2025-03-01&to=2025-04-30&doctor_id=${doctor}`)).json().data;
    expect(byDoctor.totals.signed).toBe(await sqlCount('sign_at', '2025-03-01', '2025-04-30', { doctor }));
    expect(byDoctor.totals.registered).toBe(0);
    const routine = (await get(admin, '/api/statistic/workload?from=2025-01-01&to=2025-06-30&case_type=routine')).json().data;
    expect(routine.range.bucket).toBe('month');
    expect(routine.rows.map((r: { bucket: string }) => r.bucket)).toEqual(['2025-01', '2025-02', '2025-03', '2025-04', '2025-05', '2025-06']);
    expect(routine.totals.registered).toBe(await sqlCount('registration_at', '2025-01-01', '2025-06-30', { type: 'routine' }));
  });

  it('counts timeouts: signed or still open later than the limit after registration', async () => {
    const data = (await get(admin, '/api/statistic/timeout?from=2025-03-09&to=2025-03-12&hours=72&utc_offset=0')).json().data;
    // Signed after 5 days, two never signed (long past 72 h): three; the 3-hour and 2-hour ones are in time.
    expect(data.totals).toEqual({ registered: 5, timed_out: 3 });
  });

  it('reads scan quality with its pass-rate target (spec §7 qc13)', async () => {
    const target = await get(qc, '/api/statistic/statistic_pass_rate_config/qc13');
    expect(target.statusCode, target.body).toBe(200);
    expect(target.json().data.data.qc13).toBe(95);
    const res = await get(qc, '/api/statistic/scan_access?period=thisYear&utc_offset=480');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ series: ['qualified', 'basic', 'unqualified'], target: 95 });
  });

  it('answers slides, views, scans and rejected specimens as the same rows counted directly', async () => {
    const now = new Date().toISOString();
    const caseOf = (await h.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital).executeTakeFirstOrThrow()).id;
    const slide = await h.db.insertInto('slides').values({
      hospital_id: hospital, case_id: caseOf, name: 'stat.svs', file_path: 'stat.svs', file_size: 1, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
    } as never).returning(['id', 'case_id']).executeTakeFirstOrThrow();
    await h.db.insertInto('section_logs').values([1, 2, 3].map(() => ({ slide_id: slide.id, slide_name: 's', case_id: slide.case_id, user_id: doctor, username: 'primary', action: 'view', detail: 'viewer', created_at: now }))).execute();
    const caseId = (await h.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital).executeTakeFirstOrThrow()).id;
    await h.db.insertInto('case_specimens').values([
      { hospital_id: hospital, case_id: caseId, seq: 1, name: 'a', status: 'rejected', rejection_reason: 'x', receive_at: null, created_at: now, updated_at: now },
      { hospital_id: hospital, case_id: caseId, seq: 2, name: 'b', status: 'received', receive_at: now, created_at: now, updated_at: now },
    ] as never).execute();
    const { from, to } = periodDays('lastThreeDays', new Date(), 0);
    const { start, end } = shiftDayBounds(from, to, 0);
    const count = async (table: 'slides' | 'scan_jobs' | 'case_specimens', column: string, where: Record<string, string> = {}) => {
      let q = h.db.selectFrom(table).select(sql<number>`count(*)`.as('n')).where('hospital_id', '=', hospital)
        .where(sql.ref(column), '>=', start).where(sql.ref(column), '<', end);
      for (const [k, v] of Object.entries(where)) q = q.where(sql.ref(k), '=', v);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    const sum = (totals: Record<string, number>) => Object.values(totals).reduce((a, b) => a + b, 0);
    const read = async (kind: string) => {
      const res = await get(admin, `/api/statistic/${kind}?period=lastThreeDays&utc_offset=0`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    expect(sum((await read('slides')).totals)).toBe(await count('slides', 'created_at'));
    expect((await read('slides')).totals.ready).toBeGreaterThan(0);
    expect((await read('scanner')).totals).toMatchObject({ scanned: await count('scan_jobs', 'created_at', { result: 'scanned' }) });
    const views = await read('slide_views');
    expect(views.totals.views).toBe(3);
    expect((await get(admin, `/api/statistic/slide_views?period=lastThreeDays&utc_offset=0&doctor_id=${doctor}`)).json().data.totals.views).toBe(3);
    const rejected = await read('rejected');
    expect(rejected.totals).toEqual({ received: await count('case_specimens', 'receive_at'), rejected: await count('case_specimens', 'updated_at', { status: 'rejected' }) });
    expect(rejected.totals.rejected).toBe(1);
    const doctors = await get(admin, `/api/statistic/doctors?hospital_id=${hospital}`);
    expect(doctors.json().data.map((d: { id: number }) => d.id)).toContain(doctor);
    expect((await get(registrar, `/api/statistic/doctors?hospital_id=${foreign}`)).statusCode).toBe(403);
  });

  it('fills the dashboard with counts the user may see, matching direct counts', async () => {
    const now = Date.now();
    const iso = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000).toISOString();
    for (const [i, hoursAgo] of [60, 80].entries()) {
      await h.db.insertInto('cases').values({
        hospital_id: hospital, pathology_number: `DB-${i}`, case_type: 'routine', main_phase: 'diagnosis', expedite_status: 0, extra: '{}',
        registration_at: iso(hoursAgo), first_doctor: doctor, created_at: iso(hoursAgo), updated_at: iso(hoursAgo),
      }).execute();
    }
    const res = await get(admin, '/api/statistic/dashboard?utc_offset=0');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const { start, end } = shiftDayBounds(data.today.day, data.today.day, 0);
    const today = await h.db.selectFrom('cases').select(sql<number>`count(*)`.as('n')).where('hospital_id', '=', hospital)
      .where('registration_at', '>=', start).where('registration_at', '<', end).executeTakeFirstOrThrow();
    expect(Object.values(data.today.phases as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(Number(today.n));
    const open = (from: string, to: string) => h.db.selectFrom('cases').select(sql<number>`count(*)`.as('n')).where('hospital_id', '=', hospital)
      .where('sign_at', 'is', null).where('main_phase', '<>', 'archive').where('registration_at', '>=', from).where('registration_at', '<', to).executeTakeFirstOrThrow();
    expect(data.timeouts.soon).toBe(Number((await open(iso(72), iso(48))).n));
    expect(data.timeouts.soon).toBeGreaterThanOrEqual(1);
    expect(data.timeouts.over).toBe(Number((await open('0000', iso(72))).n));
    expect(data.scanners).toBeDefined();
    expect(data.uploads).toMatchObject({ not_bound: 0 });
    const mine = (await get(await tokenFor(h.app, 'primary'), '/api/statistic/dashboard')).json().data.mine;
    expect(mine.to_diagnose).toBeGreaterThanOrEqual(2);
    // A clinician reads no case, scanner or queue tiles.
    const theirs = (await get(clinician, '/api/statistic/dashboard')).json().data;
    expect(theirs.today).toBeUndefined();
    expect(theirs.scanners).toBeUndefined();
    expect(theirs.uploads).toBeUndefined();
    // The upload queue is the uploaders': a doctor who reads slides has none, a technician has it.
    expect((await get(await tokenFor(h.app, 'primary'), '/api/statistic/dashboard')).json().data.uploads).toBeUndefined();
    expect((await get(await tokenFor(h.app, 'technician'), '/api/statistic/dashboard')).json().data.uploads).toMatchObject({ not_bound: 0 });
  });

  it('labels a slide automatically from its case and counts label use by percentage (spec §7 label calls)', async () => {
    const now = new Date().toISOString();
    const label = (name: string, en: string) => h.db.insertInto('labels').values({ name, en_name: en, parent_id: null, color: null, description: null, rank: 0, created_at: now, updated_at: now })
      .returning('id').executeTakeFirstOrThrow().then((r) => r.id);
    const breast = await label('乳腺', 'Breast');
    const node = await label('淋巴结', 'Lymph node');
    const caseId = (await h.db.insertInto('cases').values({
      hospital_id: hospital, pathology_number: 'LB-1', case_type: 'routine', main_phase: 'diagnosis', expedite_status: 0, extra: '{}', specimen_name: '乳腺穿刺组织', created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow()).id;
    const slide = (await h.db.insertInto('slides').values({
      hospital_id: hospital, case_id: caseId, name: 'LB-1.svs', file_path: 'LB-1.svs', file_size: 1, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
    } as never).returning('id').executeTakeFirstOrThrow()).id;
    const auto = await get(admin, `/api/config/labels/auto_label/${slide}`);
    expect(auto.statusCode, auto.body).toBe(200);
    expect(auto.json().data).toMatchObject({ matched: [breast], added: [breast] });
    expect((await get(admin, `/api/config/labels/auto_label/${slide}`)).json().data.added).toEqual([]);
    const percent = await call(h.app, 'POST', '/api/config/labels/searchLabelPercent', { token: admin, payload: { period: 'thisMonth' } });
    expect(percent.statusCode, percent.body).toBe(200);
    const rows = percent.json().data.data as { id: number; count: number; percent: number }[];
    expect(rows.find((r) => r.id === breast)).toMatchObject({ count: 1, percent: 100 });
    expect(rows.find((r) => r.id === node)).toMatchObject({ count: 0, percent: 0 });
    const record = (await get(admin, '/api/config/labels/maintenance_record')).json().data;
    expect(record.data[0]).toMatchObject({ slide_id: slide, label_id: breast, source: 'auto' });
    expect(await h.db.selectFrom('operation_logs').select('id').where('route', '=', '/api/config/labels/auto_label/:id').execute()).toHaveLength(1);
    expect((await call(h.app, 'POST', '/api/config/labels/searchLabelPercent', { token: admin, payload: { period: 'never' } })).statusCode).toBe(422);
    expect((await get(registrar, '/api/config/labels/maintenance_record')).statusCode).toBe(403);
    expect((await get(admin, '/api/config/labels/auto_label/999999')).statusCode).toBe(404);
    expect((await call(h.app, 'DELETE', `/api/config/labels/destroy/${node}`, { token: admin })).statusCode).toBe(200);
    expect(await h.db.selectFrom('labels').select('id').where('id', '=', node).execute()).toHaveLength(0);
  });

  it('reads scan pass rates from QC grades, on the page and in the export', async () => {
    const now = new Date().toISOString();
    const grades = ['qualified', 'qualified', 'basic', 'unqualified'];
    for (const [i, grade] of grades.entries()) {
      const slide = (await h.db.insertInto('slides').values({
        hospital_id: hospital, case_id: null, name: `QC-${i}.svs`, file_path: `QC-${i}.svs`, file_size: 1, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
      } as never).returning('id').executeTakeFirstOrThrow()).id;
      await h.db.insertInto('slide_qc').values({
        hospital_id: hospital, slide_id: slide, blur_share: null, focus_status: 'done', grade, reasons: grade === 'unqualified' ? 'blurry' : null, suggested_reasons: null,
        judge: null, remark: null, qc_by: doctor, qc_at: now, version: 1, created_at: now, updated_at: now,
      }).execute();
    }
    const data = (await get(qc, '/api/statistic/scan_access?period=lastThreeDays&utc_offset=0')).json().data;
    expect(data.totals).toEqual({ qualified: 2, basic: 1, unqualified: 1 });
    const res = await call(h.app, 'POST', '/api/statistic/scan_access/export', { token: admin, lang: 'zh-CN', payload: { period: 'lastThreeDays', utc_offset: 0 } });
    expect(res.statusCode, res.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['日期', '合格', '基本合格', '不合格', '合格率 %']);
    expect((sheet.getRow(sheet.rowCount).values as unknown[]).slice(1)).toEqual(['合计', 2, 1, 1, 75]);
  });

  it('refuses a bad period with a translated 422 and changes nothing', async () => {
    const zh = await get(admin, '/api/statistic/workload?period=fortnight', 'zh-CN');
    expect(zh.statusCode).toBe(422);
    expect(zh.json().message).toBe('统计周期无效');
    const en = await get(admin, '/api/statistic/workload?period=fortnight', 'en-US');
    expect(en.json().message).toBe('Unknown statistic period');
    expect((await get(admin, '/api/statistic/workload?from=2025-03-02&to=2025-03-01', 'en-US')).json().message).toBe('The start date is after the end date');
    expect((await get(admin, '/api/statistic/workload?from=2020-01-01&to=2025-03-01')).statusCode).toBe(422);
    expect((await get(admin, '/api/statistic/workload?utc_offset=5000')).statusCode).toBe(422);
    expect((await get(admin, '/api/statistic/nothing')).statusCode).toBe(422);
  });

  it('checks permission and hospital on the server', async () => {
    expect((await get(clinician, '/api/statistic/workload?period=thisMonth')).statusCode).toBe(403);
    expect((await get(registrar, '/api/statistic/scanner?period=thisMonth')).statusCode).toBe(403);
    expect((await get(registrar, '/api/statistic/workload?period=thisMonth')).statusCode).toBe(200);
    const elsewhere = await get(registrar, `/api/statistic/workload?period=thisMonth&hospital_id=${foreign}`, 'en-US');
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toBe('You may not see this hospital\'s statistics');
    // Exports need export_data_role besides the statistic's own permission.
    const refused = await call(h.app, 'POST', '/api/statistic/workload/export', { token: registrar, payload: { period: 'thisMonth' } });
    expect(refused.statusCode).toBe(403);
  });

  it('exports the same numbers as .xlsx, headed in the user\'s language, and logs the export', async () => {
    const query = { from: '2025-03-09', to: '2025-03-12', utc_offset: 0 };
    const shown = (await get(admin, '/api/statistic/workload?from=2025-03-09&to=2025-03-12&utc_offset=0')).json().data;
    const res = await call(h.app, 'POST', '/api/statistic/workload/export', { token: admin, lang: 'en-US', payload: query });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, 'Date', 'Registered', 'Sampled', 'Signed out']);
    const read = [];
    for (let i = 2; i <= sheet.rowCount; i++) read.push((sheet.getRow(i).values as unknown[]).slice(1));
    expect(read).toEqual([
      ...shown.rows.map((r: Record<string, unknown>) => [r.bucket, r.registered, r.sampled, r.signed]),
      ['Total', shown.totals.registered, shown.totals.sampled, shown.totals.signed],
    ]);
    const logged = await h.db.selectFrom('operation_logs').select('path').where('path', 'like', '%/api/statistic/workload/export%').execute();
    expect(logged.length).toBeGreaterThan(0);
  });

  it('sets the qc13 target through SettingPassRate\'s form: checked by its contract, system_setting only, read by ScanAccessStatistics', async () => {
    const menu = JSON.stringify((await get(admin, '/api/system_management/users/menu')).json().data);
    expect(menu).toContain('SettingPassRate');
    const save = (token: string, value: unknown, lang = 'en-US') => call(h.app, 'POST', '/api/common/setting', { token, lang, payload: { settings_key: 'statistic_pass_rate', settings_value: JSON.stringify(value) } });
    const stored = async () => (await get(qc, '/api/statistic/statistic_pass_rate_config/qc13')).json().data.data.qc13;
    expect((await save(qc, { qc13: 90 })).statusCode).toBe(403);
    const tooHigh = await save(admin, { qc13: 150 }, 'zh-CN');
    expect(tooHigh.statusCode).toBe(422);
    expect(tooHigh.json().errors.qc13).toBeDefined();
    expect((await save(admin, { qc13: 'x' })).statusCode).toBe(422);
    expect(await stored()).toBe(95);
    expect((await save(admin, { qc13: 92.5 })).statusCode).toBe(200);
    expect(await stored()).toBe(92.5);
    expect((await get(qc, '/api/statistic/scan_access?period=thisMonth')).json().data.target).toBe(92.5);
  });
});
