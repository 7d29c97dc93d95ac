import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { AppError } from '../../http/errors.js';
import { translate } from '../../i18n/translate.js';
import { transitionAllowed } from '../../../src/core/caseLifecycle.js';
import { wordParam } from './lab-words.js';
import type { CaseRow } from './lifecycle-queries.js';
import type { SlideBatchInput } from './lifecycle-bodies.js';
import { planSlideStep } from './slide-making.js';
import { commitMoves, requireRole, scopeOf, type LabDeps, type PlannedMove } from './transition.js';

/**
 * The case a scanned or chosen code names, in the user's hospital scope: a pathology number (a case chosen from
 * the list), a cassette label (`<number>-<block>`, the block's barcode) or a slide label (`<number>-<block>-<n>`).
 */
async function caseOfCode(deps: LabDeps, scope: number[], code: string): Promise<CaseRow | undefined> {
  const hospitals = scope.length ? scope : [-1];
  const byNumber = await deps.db.selectFrom('cases').selectAll().where('hospital_id', 'in', hospitals).where('pathology_number', '=', code).executeTakeFirst();
  if (byNumber) return byNumber;
  const bySlide = await deps.db.selectFrom('slide_sections').innerJoin('cases', 'cases.id', 'slide_sections.case_id').selectAll('cases')
    .where('cases.hospital_id', 'in', hospitals).where('slide_sections.label', '=', code).executeTakeFirst();
  if (bySlide) return bySlide;
  return deps.db.selectFrom('case_blocks').innerJoin('cases', 'cases.id', 'case_blocks.case_id').selectAll('cases')
    .where('cases.hospital_id', 'in', hospitals).where(sql<string>`cases.pathology_number || '-' || case_blocks.block_number`, '=', code).executeTakeFirst();
}

/**
 * Slide making in batch (issue 10): the codes scanned (keyboard wedge) or chosen, one step for all of them. Every
 * code is checked before anything is written: it names a case in scope (else 422 naming the code), the actor's
 * role may run the step on it (403), and the case is at that step (else 409 naming the code and its stage). Then
 * one transaction moves every case (several codes of one case move it once); any conflict rolls all back.
 */
export async function makeSlidesInBatch(deps: LabDeps, request: FastifyRequest, input: SlideBatchInput): Promise<{ cases: { id: number; pathology_number: string; codes: string[] }[] }> {
  const scope = scopeOf(request);
  const byCase = new Map<number, { row: CaseRow; codes: string[] }>();
  for (const raw of input.codes) {
    const code = raw.trim();
    const row = await caseOfCode(deps, scope, code);
    if (!row) throw new AppError(422, 'lab.batch_unknown_code', { code });
    const seen = byCase.get(row.id);
    if (seen) {
      if (!seen.codes.includes(code)) seen.codes.push(code);
      continue;
    }
    await requireRole(deps, request, 'make_slides', row.hospital_id, row);
    if (!transitionAllowed('make_slides', row) || row.sub_phase !== input.step) {
      throw new AppError(409, 'lab.batch_wrong_step', { code, phase: wordParam(row.sub_phase || row.main_phase) });
    }
    byCase.set(row.id, { row, codes: [code] });
  }
  const plans: PlannedMove[] = [];
  for (const { row } of byCase.values()) plans.push(await planSlideStep(deps, request, row, { step: input.step }));
  await commitMoves(deps, request, plans);
  return { cases: [...byCase.values()].map(({ row, codes }) => ({ id: row.id, pathology_number: row.pathology_number, codes })) };
}

export interface CodeCheck { code: string; ok: boolean; message: string; case_id?: number; pathology_number?: string }

/**
 * The scan dialog's per-code status before the batch is sent: which case each code names and whether it is at the
 * step (the same resolution and check as makeSlidesInBatch, nothing written). Messages in the user's language.
 */
export async function checkBatchCodes(deps: LabDeps, request: FastifyRequest, input: { step: string; codes: string[] }): Promise<{ codes: CodeCheck[] }> {
  const scope = scopeOf(request);
  const codes: CodeCheck[] = [];
  for (const raw of input.codes) {
    const code = raw.trim();
    const row = await caseOfCode(deps, scope, code);
    if (!row) {
      codes.push({ code, ok: false, message: translate(request.lang, 'lab.scan_unknown') });
      continue;
    }
    const ready = transitionAllowed('make_slides', row) && row.sub_phase === input.step;
    const params = { number: row.pathology_number, phase: wordParam(row.sub_phase || row.main_phase) };
    codes.push({ code, ok: ready, case_id: row.id, pathology_number: row.pathology_number, message: translate(request.lang, ready ? 'lab.scan_ready' : 'lab.scan_wrong_step', params) });
  }
  return { codes };
}
