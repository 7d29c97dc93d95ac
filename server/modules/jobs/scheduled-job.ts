import type { Db } from '../../db/connect.js';
import type { JobType } from './job-type.js';

/**
 * A scheduled job (JobType.everyMs) that sweeps due rows: one at a time, a few attempts, and a minute's limit (well
 * over what a sweep takes; past it something is stuck, and the next run starts afresh). `run` gets the runner's
 * handle, the unscoped one: every hospital's rows.
 */
export function scheduledSweep(type: string, everyMs: number, run: (db: Db) => Promise<unknown>): JobType<unknown> {
  return {
    type, concurrency: 1, maxAttempts: 3, leaseMs: 60_000, timeLimitMs: 60_000, everyMs,
    async run({ db }) {
      await run(db);
    },
  };
}
