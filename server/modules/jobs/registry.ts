import type { Db } from '../../db/connect.js';
import type { JobRow } from './queries.js';
import { slideConversionJob } from '../slides/conversion/convert-job.js';
import { focusCheckJob } from '../focus/job.js';
import { slideIngestJob } from '../slides/ingest-job.js';
import type { PixelCaps } from '../slides/conversion/pixel-cap.js';
import type { LimitedJobType } from './time-limits.js';
import { releaseDueJob } from '../diagnosis/release-job.js';
import { challengeSweepJob } from '../auth/challenge-job.js';
import { reportOutboundJob } from '../diagnosis/outbound-job.js';
import type { FhirOutboundConfig } from '../diagnosis/outbound-config.js';

/** What a job's code is given: its row, its payload, a way to report progress, and a signal that it must stop. */
export interface JobContext<P> {
  db: Db;
  job: JobRow;
  payload: P;
  /** Records progress (0–100) and the current step (a message key); resolves false when the job was taken over. */
  progress(value: number, message?: string): Promise<boolean>;
  /** Aborted when the lease was lost, the runner stops or the time limit passed: the job must end (its child processes too). */
  signal: AbortSignal;
  /** When this attempt's time limit ends (ms since the epoch): for work no signal reaches (libvips in this process). */
  deadline: number;
}

export interface JobType<P = unknown> {
  type: string;
  /** At most this many jobs of this type at once in one runner (one runner per machine: see runner.ts). */
  concurrency: number;
  maxAttempts: number;
  /** How long a claim holds without a heartbeat; the runner renews it every third of this. */
  leaseMs: number;
  /** How long one attempt may run: then the runner aborts it and fails the job with `job.time_limit`, not tried again. */
  timeLimitMs: number;
  /**
   * A scheduled job: it runs every `everyMs` (the first time when the runner starts) instead of when queued. Its one
   * queue row (dedupe key `schedule:<type>`: once per installation, and once per cluster of machines sharing the
   * database) is queued again after each run (schedule.ts).
   */
  everyMs?: number;
  run(ctx: JobContext<P>): Promise<void>;
  /** After the last attempt failed (or a job was abandoned): lets the owner of the job's subject say so. */
  onFinalFailure?(db: Db, job: JobRow, error: string): Promise<void>;
}

/** Thrown by a job that must not be tried again (the input can never convert); the message is a key or text. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/**
 * The job types this installation runs: each module contributes its own (slides: ingest and conversion; a DICOM import or
 * an export adds an entry here). The runner runs exactly these; enqueueing a type not listed leaves it queued.
 */
export function jobTypesFor(config: JobConfig): JobType<unknown>[] {
  const { dataDir, jobLeaseMs: lease, jobTimeLimitsMs: limits = {}, pixelCaps: caps } = config;
  return [
    slideIngestJob(dataDir, lease, { timeLimitMs: limits['slides.ingest'], caps }),
    slideConversionJob(dataDir, lease, { timeLimitMs: limits['slides.convert'], caps }),
    focusCheckJob(dataDir, lease, { timeLimitMs: limits['slides.focus'] }),
    reportOutboundJob(config.fhirOutbound, lease),
  ];
}

/** What the job types take from the server's config; limits left out take their defaults. */
export interface JobConfig {
  dataDir: string;
  jobLeaseMs: number;
  jobTimeLimitsMs?: Partial<Record<LimitedJobType, number>>;
  pixelCaps?: PixelCaps;
  /** The FHIR receiver of sent reports (REPORT_OUTBOUND=fhir). */
  fhirOutbound?: FhirOutboundConfig;
}

/**
 * The installation's scheduled work (JobType.everyMs), run by the same runner as the queued jobs: main.ts starts it
 * once per machine, in the primary process, so each schedule runs in one process however many workers serve.
 */
export function scheduledJobTypes(): JobType<unknown>[] {
  return [releaseDueJob(), challengeSweepJob()];
}
