import type { JobType } from '../jobs/job-type.js';
import { scheduledSweep } from '../jobs/scheduled-job.js';
import { CHALLENGE_LIFETIME_MS, sweepChallenges } from './challenge.js';

export const CHALLENGE_SWEEP_JOB = 'auth.challenge-sweep';

/**
 * Deletes expired login challenges once per challenge lifetime, as a scheduled job. Unspent challenges are also swept
 * on every issue; this catches the last burst when no more are asked for.
 */
export function challengeSweepJob(everyMs = CHALLENGE_LIFETIME_MS): JobType<unknown> {
  return scheduledSweep(CHALLENGE_SWEEP_JOB, everyMs, sweepChallenges);
}
