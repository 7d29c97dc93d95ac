/**
 * When a failed background job is tried again, and what its progress means. Shared by the job runner and the
 * slide lists (which show a job's progress as a bar).
 */

/** Seconds before attempt `attempt + 1`, after `attempt` (1-based) failed: 30 s, 2 min, 8 min … at most an hour. */
export function retryDelaySeconds(attempt: number): number {
  const n = Math.max(1, Math.floor(attempt));
  return Math.min(3600, 30 * 4 ** (n - 1));
}

/** Whether a job that has failed `attempts` times may run again. */
export const mayRetry = (attempts: number, maxAttempts: number): boolean => attempts < maxAttempts;

/** A reported progress as a whole percentage in 0–100 (a tool may report past 100 or NaN). */
export function clampProgress(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}
