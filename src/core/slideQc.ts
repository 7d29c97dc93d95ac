/** Slide quality control (spec §9): grades, reasons, the A–D evaluation, and what a grade requires. */
export const QC_GRADES = ['qualified', 'basic', 'unqualified'] as const;
export type QcGrade = (typeof QC_GRADES)[number];
export const QC_REASONS = ['blurry', 'wrong_area', 'wrong_block_or_reagent', 'wrong_case_id'] as const;
export type QcReason = (typeof QC_REASONS)[number];
export const QC_JUDGES = ['A', 'B', 'C', 'D'] as const;

/** Why a grading cannot be stored (a message key), or null when it can: an unqualified slide needs a reason. */
export function qcGradingProblem(grade: QcGrade, reasons: readonly string[]): 'qc.reason_unknown' | 'qc.reason_required' | null {
  if (reasons.some((r) => !(QC_REASONS as readonly string[]).includes(r))) return 'qc.reason_unknown';
  if (grade === 'unqualified' && reasons.length === 0) return 'qc.reason_required';
  return null;
}

/** An unqualified slide goes back to its scanner to be scanned again. */
export const needsRescan = (grade: QcGrade): boolean => grade === 'unqualified';

/** The reasons as stored (comma-separated, deduplicated, in the spec's order). */
export const reasonsText = (reasons: readonly string[]): string | null => {
  const set = new Set(reasons);
  const text = QC_REASONS.filter((r) => set.has(r)).join(',');
  return text || null;
};
