import type { FastifyRequest } from 'fastify';
import { doctorsCovering } from './subspecialty.js';
import { AppError } from '../../http/errors.js';
import { wordParam } from './lab-words.js';
import { afterSlideStep, type SlideStep } from '../../../src/core/caseLifecycle.js';
import { notify } from '../messages/notify.js';
import { blocksOf, isPrimaryDoctorOf, type CaseRow } from './lifecycle-queries.js';
import { caseFor, commitMove, type LabDeps, type PlannedMove } from './transition.js';
import type { SlideStepInput } from './lifecycle-bodies.js';

/**
 * One slide-making step (spec §4: dehydration, embeded, cut, stain, cover), in order: the step sent must be
 * the one the case is at, so a step is never skipped or done twice. Cutting makes the glass slides of each
 * block (slide_sections, one HE slide per block unless listed); covering makes the slides ready for diagnosis.
 */
export async function makeSlides(deps: LabDeps, request: FastifyRequest, caseId: number, input: SlideStepInput): Promise<CaseRow> {
  const current = await caseFor(deps, request, 'make_slides', caseId);
  if (current.sub_phase !== input.step) throw new AppError(409, 'lab.wrong_phase', { phase: wordParam(current.sub_phase ?? current.main_phase) });
  const planned = await planSlideStep(deps, request, current, input);
  return commitMove(deps, request, current, planned.move, planned.write);
}

/** What one slide-making step of a case writes (checked before anything is written): the move and, for cutting, the slides. */
export async function planSlideStep(deps: LabDeps, request: FastifyRequest, current: CaseRow, input: SlideStepInput): Promise<PlannedMove> {
  const step = input.step as SlideStep;
  const to = afterSlideStep(step);
  const blocks = await blocksOf(deps.db, current.id);
  const byId = new Map(blocks.map((b) => [b.id, b]));
  const wanted: { block_id: number; stain?: string }[] = step === 'cut' ? (input.sections?.length ? input.sections : blocks.map((b) => ({ block_id: b.id }))) : [];
  if (wanted.some((s) => !byId.has(s.block_id))) throw new AppError(422, 'lab.block_unknown');
  const patch = to.main_phase === 'diagnosis' ? { slide_ready_at: new Date().toISOString() } : {};
  return {
    current,
    move: { action: step, to, patch, detail: wanted.length ? { sections: wanted.length } : undefined },
    write: async (trx, now) => {
      const counts = new Map<number, number>();
      for (const s of wanted) {
        const block = byId.get(s.block_id)!;
        const taken = await trx.selectFrom('slide_sections').select((eb) => eb.fn.max('section_number').as('n'))
          .where('case_id', '=', current.id).where('block_number', '=', block.block_number).executeTakeFirst();
        const number = Math.max(Number(taken?.n ?? 0), counts.get(block.id) ?? 0) + 1;
        counts.set(block.id, number);
        await trx.insertInto('slide_sections').values({
          hospital_id: current.hospital_id, case_id: current.id, block_id: block.id, block_number: block.block_number, section_number: number,
          stain: s.stain?.trim() || 'HE', label: `${current.pathology_number}-${block.block_number}-${number}`, slide_id: null,
          outside: block.outside, created_by: request.auth!.id, created_at: now,
        }).execute();
      }
    },
  };
}

/** CaseDistribution: a case whose slides are ready goes to a first-diagnosis doctor of its hospital who works in its subspecialty directory. */
export async function distribute(deps: LabDeps, request: FastifyRequest, caseId: number, doctorId: number): Promise<CaseRow> {
  const current = await caseFor(deps, request, 'distribute', caseId);
  if (!(await isPrimaryDoctorOf(deps.db, doctorId, current.hospital_id))) throw new AppError(422, 'lab.doctor_not_primary');
  if (!(await doctorsCovering(deps.db, [doctorId], current.subspecialty_id)).has(doctorId)) throw new AppError(422, 'lab.doctor_not_in_directory');
  const moved = await commitMove(deps, request, current, {
    action: 'distribute', to: { main_phase: 'diagnosis', sub_phase: 'to_first' },
    patch: { first_doctor: doctorId, allocation_doctor: request.auth!.id, allocation_at: new Date().toISOString() },
    detail: { doctor_id: doctorId },
  });
  await notify(deps.db, current.hospital_id, [doctorId], 'case_assigned', {
    number: current.pathology_number ?? '', patient: current.patient_name ?? '', by: request.auth!.realname ?? request.auth!.name,
  }, `/case/${caseId}`, caseId);
  return moved;
}
