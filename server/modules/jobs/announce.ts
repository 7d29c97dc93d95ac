import type { JobPushState } from '../../../src/core/jobPush.js';
import type { Db } from '../../db/connect.js';
import { emitEvent } from '../../events/bus.js';
import type { JobRow } from './queries.js';

/**
 * Says what became of a job (`jobs.state` on the runner's handle): the realtime pushes forward it to the job's
 * hospital (realtime/job-push.ts), throttled there; the runner only tells each change once.
 */
export function announceJob(db: Db, job: JobRow, state: JobPushState, progress: number | null, error?: string): void {
  emitEvent(db, 'jobs.state', {
    jobId: job.id, type: job.type, hospitalId: job.hospital_id, slideId: job.slide_id, state, progress,
    ...(error !== undefined ? { error } : {}),
  });
}
