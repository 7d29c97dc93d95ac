import type { Db } from '../../db/connect.js';
import { latestJobOfSlide, type JobRow } from '../jobs/queries.js';
import type { JobType } from '../jobs/job-type.js';
import { runJobNow } from '../jobs/runner.js';
import { SLIDE_INGEST, slideIngestJob, type IngestLimits } from './ingest.js';

/** A lease as the test and server runners take: long enough for a demo slide's ingest on a busy machine. */
const LEASE_MS = 30_000;

/**
 * For the demo seed, benchmarks and tests, which need a slide they registered (registerSlide) read before they go
 * on: its ingest job, run here through the job runner's own attempt (runJobNow), or waited for when a runner took it
 * first. The same job as a bind's: nothing is read or decided here. Answers the job's row once it has ended; a slide
 * it handed to its conversion is 'converting' then (the conversion is a runner's). `limits` as the server's settings
 * give them (defaults without).
 */
export async function ingestNow(db: Db, dataDir: string, slideId: number, limits: IngestLimits = {}): Promise<JobRow> {
  const job = await latestJobOfSlide(db, slideId, SLIDE_INGEST);
  if (!job) throw new Error(`slide ${slideId} has no ingest job: register it with registerSlide`);
  return runJobNow(db, slideIngestJob(dataDir, LEASE_MS, limits) as JobType<unknown>, job.id);
}
