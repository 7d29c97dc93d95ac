import type { JobType } from '../jobs/job-type.js';
import { scheduledSweep } from '../jobs/scheduled-job.js';
import { releaseDue } from './workflow.js';

export const RELEASE_DUE_JOB = 'diagnosis.release-due';

/**
 * Issues the reports whose hesitation period is over, every `everyMs`, as a scheduled job: a report signed "issue
 * later" is issued on time with nobody at work, not when the next diagnosis request happens to arrive. Requests
 * still release first (workflow.ts), so a recall a moment after the time finds the report issued.
 */
export function releaseDueJob(everyMs = 10_000): JobType<unknown> {
  return scheduledSweep(RELEASE_DUE_JOB, everyMs, (db) => releaseDue({ systemDb: db }));
}
