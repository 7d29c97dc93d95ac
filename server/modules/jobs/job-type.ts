/** What a job is, apart from which jobs there are (registry.ts): the runner and each job's code need only this. */
import type { Db } from '../../db/connect.js';
import type { JobRow } from './queries.js';

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
