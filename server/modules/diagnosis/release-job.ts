import type { JobType } from '../jobs/job-type.js';
import { releaseDue } from './workflow.js';

export const RELEASE_DUE_JOB = 'diagnosis.release-due';

/**
 * Issues the reports whose hesitation period is over, every `everyMs`, as a scheduled job: a report signed "issue
 * later" is issued on time with nobody at work, not when the next diagnosis request happens to arrive. Requests
 * still release first (workflow.ts), so a recall a moment after the time finds the report issued.
 */
export function releaseDueJob(everyMs = 10_000): JobType<unknown> {
  return {
    type: RELEASE_DUE_JOB,
    concurrency: 1,
    maxAttempts: 3,
    leaseMs: 60_000,
    // A sweep of due rows: well under a minute; past it something is stuck, and the next run starts afresh.
    timeLimitMs: 60_000,
    everyMs,
    async run({ db }) {
      // Outside any request: the job's handle is the unscoped one, every hospital's due reports.
      await releaseDue({ systemDb: db });
    },
  };
}
