import type { Db } from '../../db/connect.js';
import { enqueueJob } from './queries.js';
import type { JobType } from './job-type.js';

/** The dedupe key of a schedule's one queue row. */
export const scheduleKey = (type: string) => `schedule:${type}`;

/**
 * Queues the first run of each scheduled type that has no live row (the dedupe key decides, so two runners arming
 * at once, in two processes or on two machines, make one row), `delayMs` from now. A row that is already queued or
 * running keeps its time: a restart neither repeats nor skips a run.
 */
export async function armSchedules(db: Db, types: JobType<unknown>[], delayMs = 0): Promise<void> {
  for (const type of types) {
    if (!type.everyMs) continue;
    await enqueueJob(db, {
      type: type.type, payload: {}, maxAttempts: type.maxAttempts, dedupeKey: scheduleKey(type.type),
      runAfter: new Date(Date.now() + delayMs).toISOString(),
    });
  }
}
