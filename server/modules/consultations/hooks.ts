import { AppError } from '../../http/errors.js';
import type { ResourceHooks } from '../../resources/hooks/types.js';
import { membersOf } from '../messages/queries.js';
import { closeShares, namesOf } from './queries.js';

const fieldError = (field: string, key: 'consultation.case_unknown' | 'consultation.colleague_unknown' | 'consultation.opinion_by_answer') =>
  new AppError(422, 'error.validation', {}, { [field]: [{ key }] });

/**
 * schemas/resources/consultations.json: a new consultation names its case by pathology number, found in the working
 * hospital within the user's directories (the scoped handle), and a colleague of that hospital; the opinion is written
 * only by a step of the machine (answer, or the expert's link), never by an edit, and an edit changes only a request
 * still awaiting its answer; a withdrawn request's link ends with
 * its slides' share links. Rows carry the colleague's name and the opinion's author.
 */
export const consultationHooks: ResourceHooks = {
  async beforeWrite(data, ctx, db) {
    if (!ctx.transition && data.opinion !== undefined) throw fieldError('opinion', 'consultation.opinion_by_answer');
    const hospitalId = ctx.hospitalId ?? 0;
    if (typeof data.consultant_id === 'number' && !(await membersOf(db, hospitalId, [data.consultant_id])).length) throw fieldError('consultant_id', 'consultation.colleague_unknown');
    if (!ctx.creating) {
      // An edit changes a request still awaiting its answer; what was asked stays as it was answered.
      const row = ctx.transition || ctx.id === undefined ? undefined : await db.selectFrom('consultations').select('status').where('id', '=', ctx.id).executeTakeFirst();
      if (row && row.status !== 'requested') throw new AppError(422, 'consultation.edit_closed');
      return {};
    }
    const found = await db.selectFrom('cases').select('id').where('hospital_id', '=', hospitalId)
      .where('pathology_number', '=', String(data.pathology_number ?? '')).executeTakeFirst();
    if (!found) throw fieldError('pathology_number', 'consultation.case_unknown');
    return { case_id: found.id, requested_by: ctx.user.id };
  },
  async afterWrite(trx, id, _data, ctx) {
    if (ctx.transition !== 'withdraw') return;
    const row = await trx.selectFrom('consultations').select('share_ids').where('id', '=', id).executeTakeFirst();
    await closeShares(trx, row?.share_ids ?? null);
  },
  async afterRead(db, rows) {
    const ids = [...new Set(rows.flatMap((r) => [r.consultant_id, r.answered_by]).filter((v): v is number => typeof v === 'number'))];
    const names = await namesOf(db, ids);
    return rows.map((r) => {
      const expert = [r.expert_name, r.expert_unit].filter(Boolean).join(' · ');
      const author = typeof r.answered_by === 'number' ? names.get(r.answered_by) ?? null : r.status === 'answered' ? expert || null : null;
      return { ...r, consultant_name: typeof r.consultant_id === 'number' ? names.get(r.consultant_id) ?? null : null, author };
    });
  },
};
