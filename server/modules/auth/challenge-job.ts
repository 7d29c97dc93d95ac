import type { JobType } from '../jobs/job-type.js';
import { CHALLENGE_LIFETIME_MS, sweepChallenges } from './challenge.js';

export const CHALLENGE_SWEEP_JOB = 'auth.challenge-sweep';

/**
 * Deletes expired login challenges once per challenge lifetime, as a scheduled job. Unspent challenges are also swept
 * on every issue; this catches the last burst when no more are asked for.
 */
export function challengeSweepJob(everyMs = CHALLENGE_LIFETIME_MS): JobType<unknown> {
  return {
    type: CHALLENGE_SWEEP_JOB,
    concurrency: 1,
    maxAttempts: 3,
    leaseMs: 60_000,
    // A sweep of due rows: well under a minute; past it something is stuck, and the next run starts afresh.
    timeLimitMs: 60_000,
    everyMs,
    async run({ db }) {
      await sweepChallenges(db);
    },
  };
}
