import { evaluateNamed, type RuleResolver } from './rules.js';

/**
 * The clinical side's reach (issue 31, spec §1 external clinical users): which cases' reports a clinician reads, as
 * each hospital sets it in its workflow rule `clinical-reach`:
 * - `own`: the cases of the applications they made (the default: a clinician sees what they asked for);
 * - `department`: the cases sent in by a department named on one of their applications;
 * - `hospital`: every case of the hospital.
 * Whatever the reach, only a signed report that was sent to the clinic (`deliver_at`) is theirs to read.
 */
export const CLINICAL_REACHES = ['own', 'department', 'hospital'] as const;
export type ClinicalReachMode = (typeof CLINICAL_REACHES)[number];

/** The permission of the clinical report list and of a clinician's report PDF. */
export const CLINICAL_REPORT_VIEW = 'clinical_report_view';

/** The hospital's reach; anything the rule gives that is not a reach reads as the narrowest one. */
export function clinicalReachMode(resolve: RuleResolver): ClinicalReachMode {
  const v = evaluateNamed('workflow.clinical-reach', {}, { resolve, fallback: 'own' });
  return (CLINICAL_REACHES as readonly unknown[]).includes(v) ? (v as ClinicalReachMode) : 'own';
}

/**
 * A user reads reports as a clinician when the clinical list is their only way to them: they hold its permission
 * and not case_view (which reaches every case of their hospitals). Administrators hold every code, so never.
 */
export const readsClinically = (holds: (code: string) => boolean): boolean => holds(CLINICAL_REPORT_VIEW) && !holds('case_view');
