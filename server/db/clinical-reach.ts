import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { ClinicalReachMode } from '../../src/core/clinicalReach.js';

/**
 * What a clinician reaches of the reports (issue 31; the reach rule: src/core/clinicalReach.ts): in each of their
 * hospitals, the reports of the cases that hospital's reach gives them, and of those only the signed ones sent to
 * the clinic. Built into the row scope (row-scope.ts), so every statement over `reports` in a clinician's request
 * is narrowed to it, whatever route runs it.
 */
export interface ClinicalReach {
  readonly userId: number;
  readonly hospitals: readonly { readonly id: number; readonly mode: ClinicalReachMode }[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the statement names its own table (scoped-tables.ts)
type AnyEb = ExpressionBuilder<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const eb: AnyEb = expressionBuilder<any, any>();
const NONE = sql<SqlBool>`1 = 0`;

/** Signed and sent: the case's report issued (released) and delivered; a supplementary one accepted and delivered. */
function signedAndSent(col: (c: string) => string): Expression<SqlBool> {
  return eb.and([
    eb(col('deliver_at'), 'is not', null),
    eb.or([
      eb.and([eb(col('report_type'), '=', 1), eb(col('sign_at'), 'is not', null), eb(col('release_status'), '=', 'yes')]),
      eb.and([eb(col('report_type'), '=', 2), eb(col('sub_phase'), '=', 'accept')]),
    ]),
  ]);
}

/** The cases of the clinician's own applications (registration writes the case onto its application). */
const requested = (userId: number) => eb.selectFrom('case_applications as reach_app').select('reach_app.case_id')
  .where('reach_app.applied_by', '=', userId).where('reach_app.case_id', 'is not', null);

/** The departments named on the clinician's applications in the hospital. */
const theirDepartments = (userId: number, hospitalId: number) => eb.selectFrom('case_applications as reach_dept').select('reach_dept.inspection_department')
  .where('reach_dept.applied_by', '=', userId).where('reach_dept.hospital_id', '=', hospitalId)
  .where('reach_dept.inspection_department', 'is not', null).where('reach_dept.inspection_department', '!=', '');

/** The hospital's cases sent in by a department named on one of the clinician's applications there. */
function ofTheirDepartments(userId: number, hospitalId: number) {
  return eb.selectFrom('cases as reach_case').select('reach_case.id')
    .where('reach_case.hospital_id', '=', hospitalId).where('reach_case.inspection_department', 'in', theirDepartments(userId, hospitalId));
}

/**
 * The condition an application row, named `ref` in its statement, meets when it is within the clinician's reach: in
 * each of their hospitals, their own applications, those of their departments, or all, as the reach says. Unlike
 * reports, an application is theirs to see in every state (they follow it from applied to registered or rejected).
 */
export function clinicalApplicationPredicate(ref: string, reach: ClinicalReach): Expression<SqlBool> {
  const col = (c: string) => `${ref}.${c}`;
  const perHospital = reach.hospitals.map(({ id, mode }) => {
    const here = eb(col('hospital_id'), '=', id);
    if (mode === 'hospital') return here;
    const own = eb(col('applied_by'), '=', reach.userId);
    return eb.and([here, mode === 'department' ? eb.or([own, eb(col('inspection_department'), 'in', theirDepartments(reach.userId, id))]) : own]);
  });
  return perHospital.length ? eb.or(perHospital) : NONE;
}

/** The condition a report row, named `ref` in its statement, meets when it is within the clinician's reach. */
export function clinicalReportPredicate(ref: string, reach: ClinicalReach): Expression<SqlBool> {
  const col = (c: string) => `${ref}.${c}`;
  const perHospital = reach.hospitals.map(({ id, mode }) => {
    const here = eb(col('hospital_id'), '=', id);
    if (mode === 'hospital') return here;
    const own = eb(col('case_id'), 'in', requested(reach.userId));
    return eb.and([here, mode === 'department' ? eb.or([own, eb(col('case_id'), 'in', ofTheirDepartments(reach.userId, id))]) : own]);
  });
  return eb.and([signedAndSent(col), perHospital.length ? eb.or(perHospital) : NONE]);
}
