import type { ResourceHooks, Row } from '../../resources/hooks/types.js';

/**
 * The clinical report list (schemas/resources/clinical_reports.json, issue 31): each report with what the clinic
 * knows its case by, and the case's viewable slides (the first one opens the read-only viewer, /outer/view, whose
 * strip has the others). Which reports are listed is the row scope's (server/db/clinical-reach.ts), not this file's.
 */
export const clinicalReportHooks: ResourceHooks = {
  async afterRead(db, rows) {
    const caseIds = [...new Set(rows.map((r) => r.case_id).filter((id): id is number => typeof id === 'number'))];
    if (!caseIds.length) return rows;
    const cases = await db.selectFrom('cases').select([
      'id', 'pathology_number', 'patient_name', 'gender', 'age', 'age_unit', 'specimen_name', 'inspection_department', 'inspection_doctor', 'clinical_diagnosis',
    ]).where('id', 'in', caseIds).execute();
    const slides = await db.selectFrom('slides').select((eb) => ['case_id', eb.fn.min('id').as('first'), eb.fn.count<number | string>('id').as('count')])
      .where('case_id', 'in', caseIds).where('status', '=', 'ready').groupBy('case_id').execute();
    const caseOf = new Map(cases.map((c) => [c.id, c]));
    const slidesOf = new Map(slides.map((s) => [Number(s.case_id), s]));
    return rows.map((r): Row => {
      const { id: _caseId, ...fields } = caseOf.get(r.case_id as number) ?? {};
      const shown = slidesOf.get(r.case_id as number);
      return { ...r, ...fields, slide_id: shown ? Number(shown.first) : null, slide_count: shown ? Number(shown.count) : 0, pdf: 'PDF' };
    });
  },
};
