import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { ScannerStatus } from '../schema/qc.js';
import { DAY_MS, reached } from './department-plan.js';
import type { DepartmentSlides } from './department-slides.js';
import type { People, SeededCase } from './demo-department.js';

type Trx = Kysely<Database>;
type Hospital = { id: number; code: string };

/** The scanner fleet: each demo hospital's, in the states a fleet is in (one working, one idle, one offline, one in error). */
const SCANNERS: { hospital: string; name: string; model: string; status: ScannerStatus; message: string | null }[] = [
  { hospital: 'H001', name: '扫描仪 A', model: 'KF-PRO-400', status: 'working', message: null },
  { hospital: 'H001', name: '扫描仪 B', model: 'KF-PRO-400', status: 'idle', message: null },
  { hospital: 'H001', name: '扫描仪 C', model: 'NanoZoomer S60', status: 'offline', message: null },
  { hospital: 'H001', name: '扫描仪 D', model: 'NanoZoomer S60', status: 'error', message: 'tray jammed' },
  { hospital: 'H002', name: '分院扫描仪', model: 'KF-PRO-120', status: 'idle', message: null },
];

export async function seedScanners(trx: Trx, hospitals: Hospital[], now: Date): Promise<void> {
  const iso = now.toISOString();
  const rows = SCANNERS.flatMap((s, i) => {
    const h = hospitals.find((x) => x.code === s.hospital);
    if (!h) return [];
    const seen = s.status === 'offline' ? new Date(now.getTime() - 2 * DAY_MS).toISOString() : iso;
    return [{
      hospital_id: h.id, area: s.hospital === 'H001' ? '数字病理室' : '病理科', name: s.name, model: s.model, serial_number: `SN-${2024100 + i}`,
      location: s.hospital === 'H001' ? '病理科 3 楼' : '病理科 1 楼', storage_path: null, queue_names: null, code: `SC-0${i + 1}`, ip: `10.0.8.${21 + i}`,
      status: s.status, status_at: seen, heartbeat_at: seen, message: s.message, key_hash: null, key_prefix: null, key_revoked_at: null,
      created_at: new Date(now.getTime() - 120 * DAY_MS).toISOString(), updated_at: seen,
    }];
  });
  if (rows.length) await trx.insertInto('scanners').values(rows).execute();
}

/**
 * What happens around the cases: scans that failed or found no slide (so the scanner statistics have every result),
 * slides opened in the viewer, the doctors' messages (assigned cases, a returned report, a colleague's note, a
 * notice), a meeting held last week and one to come.
 */
export async function seedDepartmentLife(trx: Trx, hospitals: Hospital[], cases: SeededCase[], slides: DepartmentSlides, p: People, now: Date): Promise<void> {
  const scanners = await trx.selectFrom('scanners').select(['id', 'hospital_id']).orderBy('id').execute();
  const at = (daysAgo: number, hour = 10) => new Date(now.getTime() - daysAgo * DAY_MS - (hour % 5) * 3600_000).toISOString();

  // Failed scans and empty trays over the period, a few a week.
  const failures = [];
  for (let d = 2; d < 90; d += 4) {
    const scanner = scanners.filter((s) => s.hospital_id === hospitals[0].id)[d % 3];
    if (!scanner) break;
    failures.push({
      hospital_id: scanner.hospital_id, scanner_id: scanner.id, barcode: null, scan_level: 40, scale: 0.25,
      result: d % 3 === 0 ? 'no_slide' as const : d % 3 === 1 ? 'scan_failed' as const : 'preview_success' as const,
      started_at: at(d), finished_at: at(d), duration_ms: 40_000, slide_id: null, case_id: null, section_id: null,
      bind_status: 'pending', rescan: d % 3 === 1 ? 1 : 0, message: d % 3 === 1 ? 'focus failed' : null, created_at: at(d), updated_at: at(d),
    });
  }
  // The base demo's unbound slide, scanned without a readable barcode: it waits for binding.
  const unbound = await trx.selectFrom('slides').select(['id', 'hospital_id']).where('file_path', '=', 'slides/demo/demo-3.tiff').executeTakeFirst();
  const first = scanners.find((s) => s.hospital_id === unbound?.hospital_id);
  if (unbound && first) {
    failures.push({
      hospital_id: unbound.hospital_id, scanner_id: first.id, barcode: null, scan_level: 40, scale: 0.25, result: 'scanned' as const,
      started_at: at(0, 1), finished_at: at(0, 1), duration_ms: 280_000, slide_id: unbound.id, case_id: null, section_id: null,
      bind_status: 'not_bound', rescan: 0, message: null, created_at: at(0, 1), updated_at: at(0, 1),
    });
  }
  if (failures.length) await trx.insertInto('scan_jobs').values(failures).execute();

  // Slides opened in the viewer: each signed case's slides by its doctors, on the days they worked it.
  const views = [];
  for (const c of cases) {
    for (const slideId of slides.byCase.get(c.id) ?? []) {
      if (!reached(c.plan.stage, 'draft')) continue;
      const when = new Date(c.plan.registered.getTime() + 34 * 3600_000);
      if (when > now) continue;
      views.push({ slide_id: slideId, slide_name: null, case_id: c.id, user_id: p.primary.id, username: p.primary.name, action: 'view', detail: null, created_at: when.toISOString() });
      if (reached(c.plan.stage, 'to_sign')) {
        views.push({ slide_id: slideId, slide_name: null, case_id: c.id, user_id: p.auditor.id, username: p.auditor.name, action: 'view', detail: null, created_at: new Date(when.getTime() + 10 * 3600_000).toISOString() });
      }
    }
  }
  for (let i = 0; i < views.length; i += 200) await trx.insertInto('section_logs').values(views.slice(i, i + 200)).execute();

  await seedMessages(trx, cases, p, now);
  await seedMeetings(trx, hospitals[0].id, cases, slides, p, now);
}

async function seedMessages(trx: Trx, cases: SeededCase[], p: People, now: Date): Promise<void> {
  const system = (c: SeededCase, user: number, key: string, params: Record<string, string>, when: string, read: boolean) => ({
    batch: `demo-${key}-${c.id}`, hospital_id: c.hospitalId, user_id: user, from_user_id: null, kind: 'system' as const, level: 1, type: 'workflow',
    title: '', content: '', message_key: `message.system.${key}`, params: JSON.stringify(params), link: key === 'case_assigned' ? `/case/${c.id}` : `/diagnosis/${c.id}`,
    case_id: c.id, read_at: read ? when : null, created_at: when,
  });
  const rows = [];
  for (const c of cases) {
    if (!reached(c.plan.stage, 'to_first')) continue;
    const when = new Date(c.plan.registered.getTime() + 29 * 3600_000);
    if (when > now) continue;
    const open = !reached(c.plan.stage, 'to_audit');
    rows.push(system(c, p.primary.id, 'case_assigned', { number: c.plan.pathology_number, patient: c.plan.patient_name, by: p.allocator.realname }, when.toISOString(), !open));
    if (c.plan.stage === 'returned') {
      rows.push(system(c, p.primary.id, 'report_returned', { number: c.plan.pathology_number, by: p.auditor.realname, reason: '镜下描述请补充切缘情况' }, new Date(Math.min(when.getTime() + 11 * 3600_000, now.getTime() - 60_000)).toISOString(), false));
    }
  }
  const h = cases[0]?.hospitalId ?? null;
  const toAudit = cases.find((c) => c.plan.stage === 'to_audit');
  const note = (from: People[keyof People], to: People[keyof People], title: string, content: string, hoursAgo: number, read: boolean, kind: 'message' | 'notice' = 'message') => {
    const when = new Date(now.getTime() - hoursAgo * 3600_000).toISOString();
    return {
      batch: `demo-${kind}-${to.id}-${hoursAgo}`, hospital_id: h, user_id: to.id, from_user_id: from.id, kind, level: kind === 'notice' ? 2 : 1, type: 'general',
      title, content, message_key: null, params: null, link: null, case_id: null, read_at: read ? when : null, created_at: when,
    };
  };
  rows.push(note(p.auditor, p.primary, '疑难病例讨论', `${toAudit?.plan.pathology_number ?? ''} 请在周四读片会上讨论。`, 5, false));
  rows.push(note(p.primary, p.auditor, '复核请求', '甲状腺结节病例已提交复核，请优先处理（术中待回复）。', 26, true));
  for (const to of [p.primary, p.auditor, p.signer, p.technician, p.registrar]) {
    rows.push(note(p.admin, to, '系统维护通知', '本周六 22:00–23:00 进行系统维护，届时暂停服务。', 50, to === p.auditor, 'notice'));
  }
  for (let i = 0; i < rows.length; i += 200) await trx.insertInto('messages').values(rows.slice(i, i + 200)).execute();
}

/** A reading meeting held last week (ended) and the next one (open), each over a few of the department's slides. */
async function seedMeetings(trx: Trx, hospitalId: number, cases: SeededCase[], slides: DepartmentSlides, p: People, now: Date): Promise<void> {
  const ids = cases.filter((c) => c.hospitalId === hospitalId && reached(c.plan.stage, 'signed')).flatMap((c) => slides.byCase.get(c.id) ?? []);
  const meetings = [
    { name: '周四疑难病例读片会', start: new Date(now.getTime() - 7 * DAY_MS), status: 'ended' as const, slides: ids.slice(0, 3) },
    { name: '消化病理专题读片', start: new Date(now.getTime() + DAY_MS), status: 'open' as const, slides: ids.slice(3, 7) },
  ];
  for (const m of meetings) {
    const created = new Date(Math.min(m.start.getTime(), now.getTime()) - 2 * DAY_MS).toISOString();
    const { id } = await trx.insertInto('meetings').values({
      hospital_id: hospitalId, name: m.name, cover_slide_id: m.slides[0] ?? null, start_at: m.start.toISOString(), created_by: p.primary.id,
      presenter_id: p.primary.id, slide_id: m.slides[0] ?? null, status: m.status, ended_at: m.status === 'ended' ? new Date(m.start.getTime() + 3600_000).toISOString() : null,
      created_at: created, updated_at: created,
    }).returning('id').executeTakeFirstOrThrow();
    if (m.slides.length) await trx.insertInto('meeting_slides').values(m.slides.map((slide_id, rank) => ({ meeting_id: id, slide_id, rank }))).execute();
    const joined = [p.primary, ...(m.status === 'ended' ? [p.auditor, p.signer] : [])];
    await trx.insertInto('meeting_participants').values(joined.map((u) => ({ meeting_id: id, user_id: u.id, joined_at: created }))).execute();
  }
}
