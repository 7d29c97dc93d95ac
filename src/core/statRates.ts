/**
 * Scan pass rate (ScanAccessStatistics, spec §9 grades): qualified and basically qualified slides over all graded
 * ones, in percent with one decimal; null when none was graded (a rate of nothing is not 0 %).
 */
export function passRate(row: Record<string, number | string | undefined>): number | null {
  const q = Number(row.qualified ?? 0);
  const b = Number(row.basic ?? 0);
  const graded = q + b + Number(row.unqualified ?? 0);
  return graded ? Math.round(((q + b) / graded) * 1000) / 10 : null;
}
