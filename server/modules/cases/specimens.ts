import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import { OUTSIDE_KINDS, samplingProblems } from '../../../src/core/caseLifecycle.js';
import { blocksOf, specimensOf, type CaseRow } from './lifecycle-queries.js';
import { caseFor, commitMove, type LabDeps } from './transition.js';
import type { SampleInput } from './lifecycle-bodies.js';

/** After a receipt or a rejection: on to sampling once nothing awaits receipt; all rejected: the case stops, rejected. */
function afterReceipt(statuses: string[]) {
  if (statuses.includes('pending')) return { main_phase: 'registration', sub_phase: 'to_receive' };
  return statuses.includes('received') ? { main_phase: 'sample', sub_phase: 'to_sample' } : { main_phase: 'registration', sub_phase: 'rejected' };
}

/** The chosen specimens, all of this case and awaiting receipt; none chosen: all that await it. */
async function pendingOf(deps: LabDeps, current: CaseRow, ids: number[] | undefined) {
  const all = await specimensOf(deps.db, current.id);
  const pending = all.filter((s) => s.status === 'pending');
  const chosen = ids?.length ? pending.filter((s) => ids.includes(s.id)) : pending;
  if (!chosen.length || (ids?.length && chosen.length !== new Set(ids).size)) throw new AppError(422, 'lab.specimen_not_pending');
  return { all, chosen: new Set(chosen.map((s) => s.id)) };
}

/** Specimen receipt (spec §1): the registrar confirms what arrived; receive date and doctor per specimen. */
export async function receive(deps: LabDeps, request: FastifyRequest, caseId: number, ids?: number[]): Promise<CaseRow> {
  const current = await caseFor(deps, request, 'receive', caseId);
  const { all, chosen } = await pendingOf(deps, current, ids);
  const to = afterReceipt(all.map((s) => (chosen.has(s.id) ? 'received' : s.status)));
  return commitMove(deps, request, current, {
    action: 'receive', to, patch: { receive_at: current.receive_at ?? new Date().toISOString(), receive_doctor: request.auth!.id },
    detail: { specimens: all.filter((s) => chosen.has(s.id)).map((s) => s.name) },
  }, async (trx, now) => {
    await trx.updateTable('case_specimens').set({ status: 'received', receive_at: now, receive_doctor: request.auth!.id, updated_at: now })
      .where('id', 'in', [...chosen]).where('status', '=', 'pending').execute();
  });
}

/** Specimen rejection with its reason (spec §3 rejection reason; statistics count rejected specimens). */
export async function reject(deps: LabDeps, request: FastifyRequest, caseId: number, ids: number[], reason: string): Promise<CaseRow> {
  const current = await caseFor(deps, request, 'reject', caseId);
  const { all, chosen } = await pendingOf(deps, current, ids);
  const to = afterReceipt(all.map((s) => (chosen.has(s.id) ? 'rejected' : s.status)));
  return commitMove(deps, request, current, { action: 'reject', to, detail: { specimens: all.filter((s) => chosen.has(s.id)).map((s) => s.name), reason } }, async (trx, now) => {
    await trx.updateTable('case_specimens').set({ status: 'rejected', rejection_reason: reason, receive_at: now, receive_doctor: request.auth!.id, updated_at: now })
      .where('id', 'in', [...chosen]).where('status', '=', 'pending').execute();
  });
}

/**
 * Gross sampling: material blocks per received specimen, at least one each (spec §5), numbered on from the
 * case's last block unless given; a specimen may be marked used up (then it can never be re-sampled).
 */
export async function sample(deps: LabDeps, request: FastifyRequest, caseId: number, input: SampleInput): Promise<CaseRow> {
  const current = await caseFor(deps, request, 'sample', caseId);
  const specimens = await specimensOf(deps.db, current.id);
  if (!specimens.some((s) => s.status === 'received')) throw new AppError(422, 'lab.nothing_received');
  const { withoutBlock, notReceived } = samplingProblems(specimens, input.blocks);
  if (notReceived.length) throw new AppError(422, 'lab.block_specimen_not_received');
  if (withoutBlock.length) throw new AppError(422, 'lab.block_required', { specimens: specimens.filter((s) => withoutBlock.includes(s.id)).map((s) => s.name).join(', ') });
  const usedUp = input.used_up_specimen_ids ?? [];
  if (usedUp.some((id) => !specimens.some((s) => s.id === id && s.status === 'received'))) throw new AppError(422, 'lab.block_specimen_not_received');

  // Blocks are numbered 1, 2, 3 … per case; a number given by hand must be new to the case.
  const existing = (await blocksOf(deps.db, current.id)).map((b) => b.block_number);
  let next = existing.reduce((max, n) => Math.max(max, Number.parseInt(n, 10) || 0), 0);
  const blocks = input.blocks.map((b) => ({ ...b, block_number: b.block_number?.trim() || String(++next) }));
  const numbers = blocks.map((b) => b.block_number);
  if (new Set([...existing, ...numbers]).size !== existing.length + numbers.length) throw new AppError(422, 'lab.block_number_taken');
  const outside = OUTSIDE_KINDS.includes(current.case_type) ? 1 : 0;
  return commitMove(deps, request, current, {
    action: 'sample', to: { main_phase: 'slide_making', sub_phase: 'dehydration' },
    patch: { sample_at: new Date().toISOString(), sample_doctor: request.auth!.id },
    detail: { blocks: blocks.map((b) => b.block_number), used_up: usedUp.length },
  }, async (trx, now) => {
    await trx.insertInto('case_blocks').values(blocks.map((b) => ({
      hospital_id: current.hospital_id, case_id: current.id, specimen_id: b.specimen_id, block_number: b.block_number,
      tissue_count: b.tissue_count ?? null, description: b.description ?? null, outside, sampled_by: request.auth!.id, created_at: now,
    }))).execute();
    if (usedUp.length) await trx.updateTable('case_specimens').set({ status: 'used_up', updated_at: now }).where('id', 'in', usedUp).execute();
  });
}
