import type { Kysely } from 'kysely';
import type { Db } from '../connect.js';
import type { Database } from '../schema.js';
import { chargeCase } from '../../modules/prices/charges.js';
import { syncCase, type ReportRow } from '../../modules/diagnosis/queries.js';
import type { SigningKeys } from '../../http/signing-keys.js';
import { DAY_MS, planDepartment, reached, stepAt, type PlannedCase, type PlannedStage, type STEP_HOURS } from './department-plan.js';
import { queueDemoFreeze } from './department-freeze-job.js';
import { seedingKeys, signStored } from './department-signing.js';
import { seedDepartmentSlides, type DepartmentSlides } from './department-slides.js';
import { seedDepartmentLife, seedScanners } from './department-life.js';

type Trx = Kysely<Database>;
type Step = keyof typeof STEP_HOURS;

/**
 * The living department (issue 31 item 11): on top of the base demo (demo.ts; its rows stay exactly as they are),
 * about three months of work in both demo hospitals: cases at every step, some urgent and some overdue, glass and
 * digital slides, signed, printed and sent reports with their frozen documents, supplementary reports, QC grades,
 * scanners with their scan history, messages and meetings. Everything is dated back from `now` (the seeding time
 * at a first `npm start`; a fixed clock in tests), and the same `now` gives the same department.
 *
 * Run by server/setup.ts for a demo (DSMS_DEMO not 0) after the base seed, not by seed() itself: the API and e2e
 * tests' template databases keep the base demo only (they count its rows); tests that want the department call this.
 * Only once: a database that holds any report or scanner already is left alone. Reports are signed as the sign step
 * writes them; their documents (content and PDFs) are frozen by a queued job once the server runs
 * (department-freeze-job.ts), which the seeding queues.
 */
export interface DepartmentOptions {
  now?: Date;
  /** Where the demo slide files are: their digital slides are linked into the department's; without it, no digital slides. */
  dataDir?: string;
}

const DEPARTMENT_SIZE = { H001: { cases: 96, days: 92, seed: 31 }, H002: { cases: 24, days: 92, seed: 32 } } as const;

const SUBSPECIALTY_OF: Record<string, string> = {
  消化内科: 'gi', 胃肠外科: 'gi', 肝胆外科: 'gi', 乳腺外科: 'breast', 甲乳外科: 'head_neck', 头颈外科: 'head_neck', 妇科: 'gyn', 皮肤科: 'derm',
};

export type People = Record<'registrar' | 'sampler' | 'technician' | 'primary' | 'auditor' | 'signer' | 'allocator' | 'qc' | 'scanner' | 'clinician' | 'admin', { id: number; name: string; realname: string }>;

export interface SeededCase { plan: PlannedCase; id: number; hospitalId: number; sections: { id: number; label: string; block: string }[] }

export async function seedDemoDepartment(db: Db, opts: DepartmentOptions): Promise<boolean> {
  if (await db.selectFrom('reports').select('id').limit(1).executeTakeFirst()) return false;
  if (await db.selectFrom('scanners').select('id').limit(1).executeTakeFirst()) return false;
  const hospitals = await db.selectFrom('hospitals').select(['id', 'code']).where('code', 'in', ['H001', 'H002']).orderBy('id').execute();
  if (hospitals.length === 0) return false;
  const users = await db.selectFrom('users').select(['id', 'name', 'realname']).execute();
  const person = (name: string) => {
    const u = users.find((x) => x.name === name);
    return u ? { id: u.id, name: u.name, realname: u.realname ?? u.name } : undefined;
  };
  const names = ['registrar', 'sampler', 'technician', 'primary', 'auditor', 'signer', 'allocator', 'qc', 'scanner', 'clinician', 'admin'] as const;
  if (names.some((n) => !person(n))) return false;
  const people = Object.fromEntries(names.map((n) => [n, person(n)!])) as People;
  const now = opts.now ?? new Date();

  await db.transaction().execute(async (trx) => {
    const keys = seedingKeys(trx);
    const seeded: SeededCase[] = [];
    for (const h of hospitals) {
      const size = DEPARTMENT_SIZE[h.code as keyof typeof DEPARTMENT_SIZE];
      const dirs = new Map((await trx.selectFrom('subspecialties').select(['id', 'code']).where('hospital_id', '=', h.id).execute()).map((d) => [d.code, d.id]));
      // Oldest first, so ids follow time as in a lab that registered them one by one (lists sort by id).
      for (const plan of planDepartment(now, h.code as PlannedCase['hospital'], size.cases, size.days, size.seed).reverse()) {
        seeded.push(await seedCase(trx, h.id, plan, people, now, dirs.get(SUBSPECIALTY_OF[plan.specimen.department] ?? '') ?? null));
      }
    }
    await seedScanners(trx, hospitals, now);
    const slides = opts.dataDir ? await seedDepartmentSlides(trx, opts.dataDir, seeded, people, now) : { byCase: new Map() } satisfies DepartmentSlides;
    for (const c of seeded) await seedReports(trx, keys, c, people, now);
    await seedDepartmentLife(trx, hospitals, seeded, slides, people, now);
    await queueDemoFreeze(trx);
  });
  return true;
}

/** Main phase and sub-phase of a case at `stage` before any report (reports move the case on: syncCase). */
function phaseOf(stage: PlannedStage): { main_phase: string; sub_phase: string | null } {
  if (stage === 'registration') return { main_phase: 'registration', sub_phase: null };
  if (stage === 'sample') return { main_phase: 'sample', sub_phase: null };
  if (['dehydration', 'embeded', 'cut', 'stain', 'cover'].includes(stage)) return { main_phase: 'slide_making', sub_phase: stage };
  if (stage === 'to_allot') return { main_phase: 'diagnosis', sub_phase: 'to_allot' };
  return { main_phase: 'diagnosis', sub_phase: 'to_first' };
}

const SLIDE_STEPS = ['dehydration', 'embeded', 'cut', 'stain', 'cover'] as const;

async function seedCase(trx: Trx, hospitalId: number, c: PlannedCase, p: People, now: Date, subspecialtyId: number | null): Promise<SeededCase> {
  const at = (step: Step) => stepAt(c, step, now);
  const registered = c.registered.toISOString();
  const received = reached(c.stage, 'sample');
  const sampled = reached(c.stage, 'dehydration');
  const distributed = reached(c.stage, 'to_first');
  const phase = phaseOf(c.stage);
  const { id } = await trx.insertInto('cases').values({
    hospital_id: hospitalId, pathology_number: c.pathology_number, case_type: c.case_type, subspecialty_id: subspecialtyId,
    patient_name: c.patient_name, gender: c.gender, age: c.age, age_unit: 'year', inspection_hospital: null,
    inspection_department: c.specimen.department, inspection_doctor: c.requested ? p.clinician.realname : null,
    inspection_date: registered.slice(0, 10), specimen_name: c.specimen.name, clinical_diagnosis: c.specimen.clinical,
    outpatient_number: `MZ${c.pathology_number.replace(/\D/g, '')}`, ...phase, expedite_status: c.urgent ? 1 : 0,
    registration_at: registered, registration_doctor: p.registrar.id, extra: '{}', created_at: registered, updated_at: registered,
    receive_at: received ? at('receive') : null, receive_doctor: received ? p.registrar.id : null,
    sample_at: sampled ? at('sample') : null, sample_doctor: sampled ? p.sampler.id : null,
    slide_ready_at: reached(c.stage, 'to_allot') ? at('cover') : null,
    allocation_at: distributed ? at('distribute') : null, allocation_doctor: distributed ? p.allocator.id : null,
    first_doctor: distributed ? p.primary.id : null, phase_at: registered,
  }).returning('id').executeTakeFirstOrThrow();

  // Charged as registration charges a case (the demo price list: demo-prices.ts), so income shows.
  await chargeCase(trx, { hospitalId, caseId: id, by: p.registrar.id, at: registered }, c.case_type);
  if (c.requested) {
    await trx.insertInto('case_applications').values({
      hospital_id: hospitalId, apply_number: `SQ-${c.pathology_number}`, status: 3, case_type: c.case_type,
      patient_name: c.patient_name, gender: c.gender, age: c.age, age_unit: 'year', outpatient_number: `MZ${c.pathology_number.replace(/\D/g, '')}`,
      inspection_department: c.specimen.department, inspection_doctor: p.clinician.realname, specimen_name: c.specimen.name,
      clinical_diagnosis: c.specimen.clinical, case_id: id, applied_by: p.clinician.id, created_at: new Date(c.registered.getTime() - 2 * 3600_000).toISOString(),
      updated_at: registered,
    }).execute();
  }

  const specimens = c.rejectedSpecimen ? [{ status: 'rejected' }, { status: received ? 'received' : 'pending' }] : [{ status: received ? 'received' : 'pending' }];
  const specimenIds: number[] = [];
  for (const [i, s] of specimens.entries()) {
    const rejected = s.status === 'rejected';
    const { id: specimenId } = await trx.insertInto('case_specimens').values({
      hospital_id: hospitalId, case_id: id, seq: i + 1, name: c.specimen.name, specimen_type: null, fixative: '10% 中性福尔马林',
      fixed_at: new Date(c.registered.getTime() - 3600_000).toISOString(), status: s.status,
      receive_at: rejected || s.status === 'received' ? at('receive') : null, receive_doctor: rejected || s.status === 'received' ? p.registrar.id : null,
      rejection_reason: rejected ? '固定液不足' : null, created_at: registered, updated_at: rejected ? at('receive') : registered,
    }).returning('id').executeTakeFirstOrThrow();
    if (!rejected) specimenIds.push(specimenId);
  }

  const timeline = (action: string, actor: People[keyof People], when: string, from: PlannedStage | null, to: PlannedStage | null, detail?: unknown) => ({
    hospital_id: hospitalId, case_id: id, action, actor_id: actor.id, actor_name: actor.realname, created_at: when,
    from_phase: from ? phaseOf(from).main_phase : null, from_sub_phase: from ? phaseOf(from).sub_phase : null,
    to_phase: to ? phaseOf(to).main_phase : null, to_sub_phase: to ? phaseOf(to).sub_phase : null,
    detail: detail === undefined ? null : JSON.stringify(detail),
  });
  const lines = [timeline('register', p.registrar, registered, null, 'registration')];
  if (received) lines.push(timeline('receive', p.registrar, at('receive'), 'registration', 'sample'));
  if (c.urgent) lines.push(timeline('urgent_on', p.registrar, registered, null, null));

  const sections: SeededCase['sections'] = [];
  if (sampled) {
    lines.push(timeline('sample', p.sampler, at('sample'), 'sample', 'dehydration'));
    for (let b = 1; b <= c.blocks; b++) {
      const { id: blockId } = await trx.insertInto('case_blocks').values({
        hospital_id: hospitalId, case_id: id, specimen_id: specimenIds[0] ?? null, block_number: String(b), tissue_count: 1 + (b % 3),
        description: b === 1 ? c.specimen.gross : null, outside: 0, sampled_by: p.sampler.id, created_at: at('sample'),
      }).returning('id').executeTakeFirstOrThrow();
      if (reached(c.stage, 'stain')) {
        const label = `${c.pathology_number}-${b}-1`;
        const { id: sectionId } = await trx.insertInto('slide_sections').values({
          hospital_id: hospitalId, case_id: id, block_number: String(b), section_number: 1, stain: 'HE', label, slide_id: null,
          created_by: p.technician.id, created_at: at('cut'), block_id: blockId, outside: 0,
        }).returning('id').executeTakeFirstOrThrow();
        sections.push({ id: sectionId, label, block: String(b) });
      }
    }
    for (const [i, s] of SLIDE_STEPS.entries()) {
      if (!reached(c.stage, SLIDE_STEPS[i + 1] ?? 'to_allot')) break;
      lines.push(timeline(s, p.technician, at(s), s, SLIDE_STEPS[i + 1] ?? 'to_allot'));
    }
  }
  if (distributed) lines.push(timeline('distribute', p.allocator, at('distribute'), 'to_allot', 'to_first', { doctor_id: p.primary.id }));
  await trx.insertInto('case_timeline').values(lines).execute();
  return { plan: c, id, hospitalId, sections };
}

/** The case's report through the steps its stage has passed, as the diagnosis workflow leaves it at each. */
async function seedReports(trx: Trx, keys: SigningKeys, c: SeededCase, p: People, now: Date): Promise<void> {
  const { plan } = c;
  if (!reached(plan.stage, 'draft')) return;
  const at = (step: Step) => stepAt(plan, step, now);
  const returned = plan.stage === 'returned';
  const submitted = reached(plan.stage, 'to_audit') && !returned;
  const approved = reached(plan.stage, 'to_sign');
  const subPhase = approved ? 'to_sign' : submitted ? 'to_audit' : 'to_first';
  const { id } = await trx.insertInto('reports').values({
    hospital_id: c.hospitalId, case_id: c.id, report_type: 1, supplement_type: null, sub_phase: subPhase, is_draft: plan.stage === 'draft' ? 1 : 0,
    release_status: 'no', gross_description: plan.specimen.gross, microscopic: plan.specimen.microscopic,
    diagnosis: plan.stage === 'draft' ? null : plan.specimen.diagnosis, advice: null, postscript: null, images: null,
    first_doctor: p.primary.id, first_at: submitted || returned ? at('submit') : null,
    audit_doctor: approved || returned ? p.auditor.id : null, audit_at: approved ? at('approve') : returned ? at('return') : null,
    return_reason: returned ? '镜下描述请补充切缘情况' : null, returned_count: returned ? 1 : 0,
    created_by: p.primary.id, evaluation: 'unassessed', created_at: at('create'), updated_at: at('create'),
  }).returning('id').executeTakeFirstOrThrow();
  const row = await trx.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  await syncCase(trx, row, at('create'));
  const lines: { action: string; actor: People[keyof People]; when: string; detail?: unknown }[] = [{ action: 'report_create', actor: p.primary, when: at('create') }];
  if (submitted || returned) lines.push({ action: 'report_submit', actor: p.primary, when: at('submit') });
  if (returned) lines.push({ action: 'report_return', actor: p.auditor, when: at('return'), detail: { reason: row.return_reason } });
  if (approved) lines.push({ action: 'report_approve', actor: p.auditor, when: at('approve') });
  if (reached(plan.stage, 'signed')) {
    const after: Partial<ReportRow> = {
      ...(reached(plan.stage, 'printed') ? { print_at: at('print') } : {}),
      ...(plan.stage === 'sent' ? { deliver_at: at('send') } : {}),
    };
    await signStored(trx, keys, row, 'signed', at('sign'), p.signer.id, after);
    lines.push({ action: 'report_sign', actor: p.signer, when: at('sign') });
    if (after.print_at) lines.push({ action: 'report_print', actor: p.signer, when: at('print') });
    if (after.deliver_at) lines.push({ action: 'report_send', actor: p.signer, when: at('send') });
  }
  if (plan.supplement && now.getTime() - plan.registered.getTime() > 7 * DAY_MS) {
    await seedSupplement(trx, keys, c, p, now);
    lines.push({ action: 'report_supplement_create', actor: p.primary, when: at('supplement'), detail: { supplement_type: 1 } });
    lines.push({ action: 'report_accept', actor: p.auditor, when: at('accept') });
  }
  await trx.insertInto('case_timeline').values(lines.map((l) => ({
    hospital_id: c.hospitalId, case_id: c.id, action: l.action, actor_id: l.actor.id, actor_name: l.actor.realname, created_at: l.when,
    from_phase: null, to_phase: null, from_sub_phase: null, to_sub_phase: null, detail: JSON.stringify({ report_id: id, ...(l.detail as object) }),
  }))).execute();
}

/** An immunohistochemistry supplement, accepted (signed as the accept step does) and sent. */
async function seedSupplement(trx: Trx, keys: SigningKeys, c: SeededCase, p: People, now: Date): Promise<void> {
  const at = (step: Step) => stepAt(c.plan, step, now);
  const { id } = await trx.insertInto('reports').values({
    hospital_id: c.hospitalId, case_id: c.id, report_type: 2, supplement_type: 1, sub_phase: 'new', is_draft: 0, release_status: 'no',
    gross_description: null, microscopic: '免疫组化：CK(+)，Ki-67 约5%(+)，P53 野生型表达。', diagnosis: `结合免疫组化，支持原诊断：${c.plan.specimen.diagnosis}`,
    advice: null, postscript: null, images: null, first_doctor: p.primary.id, first_at: at('supplement'),
    created_by: p.primary.id, evaluation: 'unassessed', created_at: at('supplement'), updated_at: at('supplement'),
  }).returning('id').executeTakeFirstOrThrow();
  const row = await trx.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  await signStored(trx, keys, row, 'supplementary', at('accept'), p.auditor.id, { deliver_at: at('accept') });
}
