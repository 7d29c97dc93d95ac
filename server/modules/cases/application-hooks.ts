import type { ResourceHooks, Row } from '../../resources/hooks/types.js';

/**
 * The application lists (SlideApply for the lab, ClinicalApplications for the clinic): a registered application
 * with the pathology number of the case it became, so both sides open that case from the row. Which applications
 * a list holds is the row scope's (a clinician's reach: server/db/clinical-reach.ts), not this file's.
 */
export const applicationHooks: ResourceHooks = {
  async afterRead(db, rows) {
    const caseIds = [...new Set(rows.map((r) => r.case_id).filter((id): id is number => typeof id === 'number'))];
    const cases = caseIds.length ? await db.selectFrom('cases').select(['id', 'pathology_number']).where('id', 'in', caseIds).execute() : [];
    const numberOf = new Map(cases.map((c) => [c.id, c.pathology_number]));
    return rows.map((r): Row => ({ ...r, pathology_number: numberOf.get(r.case_id as number) ?? null }));
  },
};
