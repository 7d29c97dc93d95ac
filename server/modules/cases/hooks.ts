import { sql } from 'kysely';
import { checkCaseDirectory } from './subspecialty.js';
import { AppError } from '../../http/errors.js';
import type { ResourceHooks } from '../../resources/hooks/types.js';
import type { RuleResolver } from '../../../src/core/rules.js';
import { withDisplay } from './status.js';
import { DERIVED_VIEWS, statusGroups, statusMatch } from './status-groups.js';
import { chargeCase } from '../prices/charges.js';
import { isOverdue, overdueMatch, phaseHours } from './phase-limits.js';

/**
 * Cases resource: registration stamps who and when, rows carry their slide count and the status their
 * hospital's case-status rules derive (case_status, markers, number_colour, status_colour), and a case that
 * still holds slides cannot be deleted (the slides would lose their case silently).
 */
export const caseHooks = (rulesFor: (hospitalId: number) => Promise<RuleResolver>): ResourceHooks => ({
  consumes: ['slide_count'],

  async afterRead(db, rows) {
    if (!rows.length) return rows;
    const counts = await db.selectFrom('slides').select(['case_id', sql<number>`count(*)`.as('n')])
      .where('case_id', 'in', rows.map((r) => r.id)).groupBy('case_id').execute();
    const byCase = new Map(counts.map((c) => [Number(c.case_id), Number(c.n)]));
    // The directory's names, both languages, for the list's column (the tags cell picks the reader's).
    const dirIds = [...new Set(rows.map((r) => r.subspecialty_id).filter((v): v is number => typeof v === 'number'))];
    const dirs = dirIds.length ? await db.selectFrom('subspecialties').select(['id', 'name', 'en_name']).where('id', 'in', dirIds).execute() : [];
    const dirOf = new Map(dirs.map((d) => [d.id, { name: d.name, en_name: d.en_name }]));
    const resolvers = new Map<number, RuleResolver>();
    for (const h of new Set(rows.map((r) => Number(r.hospital_id)))) resolvers.set(h, await rulesFor(h));
    const [limits, now] = [await phaseHours(db), new Date()];
    return rows.map((r) => withDisplay({ ...r, slide_count: byCase.get(r.id) ?? 0, overdue: isOverdue(r, limits, now), subspecialty: dirOf.has(Number(r.subspecialty_id)) ? [dirOf.get(Number(r.subspecialty_id))] : [] }, resolvers.get(Number(r.hospital_id))!));
  },

  // Status tabs with counts (spec §2, §4): a list filtered by case_status, by the hospital's case-status rules.
  async derivedFilter(db, field, values, ctx) {
    // MissCaseSearch's "Overdue" tab: past the phase's limit (setting case_phase_hours), now.
    if (field === 'overdue') {
      const match = overdueMatch(await phaseHours(db), new Date());
      const wanted = values.some((v) => v === '1' || v === 'true');
      return (eb) => (wanted ? match(eb) : eb.not(match(eb)));
    }
    const view = DERIVED_VIEWS[field];
    const key = `status-groups:${view}`;
    // One grouping per request, however many tabs ask (set before any await, so parallel conditions share it).
    if (!ctx.memo.has(key)) ctx.memo.set(key, rulesFor(ctx.hospitalId).then((resolve) => statusGroups(db, ctx.scope ?? [ctx.hospitalId], resolve, view)));
    const { vars, groups } = await (ctx.memo.get(key) as ReturnType<typeof statusGroups>);
    return statusMatch(vars, groups, values);
  },

  async beforeWrite(data, ctx, db) {
    if (data.subspecialty_id !== undefined) {
      const hospitalId = ctx.id === undefined ? ctx.hospitalId ?? 0
        : (await db.selectFrom('cases').select('hospital_id').where('id', '=', ctx.id).executeTakeFirstOrThrow()).hospital_id;
      await checkCaseDirectory(db, hospitalId, data.subspecialty_id, ctx.user);
    }
    if (!ctx.creating) return {};
    return { main_phase: 'registration', registration_at: new Date().toISOString(), registration_doctor: ctx.user.id };
  },

  // A case registered through the resource (CaseList's form) is charged as the lab's registration is.
  async afterWrite(trx, id, _data, ctx) {
    if (!ctx.creating) return;
    const row = await trx.selectFrom('cases').select(['hospital_id', 'case_type', 'registration_at']).where('id', '=', id).executeTakeFirstOrThrow();
    await chargeCase(trx, { hospitalId: row.hospital_id, caseId: id, by: ctx.user.id, at: row.registration_at ?? new Date().toISOString() }, row.case_type ?? 'routine');
  },

  async beforeDelete(trx, ids) {
    const busy = await trx.selectFrom('slides').innerJoin('cases', 'cases.id', 'slides.case_id')
      .select(['cases.pathology_number', sql<number>`count(*)`.as('n')])
      .where('slides.case_id', 'in', ids).groupBy('cases.pathology_number').executeTakeFirst();
    if (busy) throw new AppError(409, 'case.has_slides', { number: busy.pathology_number, count: Number(busy.n) });
  },
});
