import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { onEvent } from '../../events/bus.js';
import { claimJob, claimQueuedJob, enqueueJob, failAbandoned, failJob, finishJob, heartbeat, jobById, rearmJob, releaseJob, type JobRow } from './queries.js';
import { PermanentJobError, type JobType } from './job-type.js';
import { encodeJobError } from './job-error.js';
import { armSchedules, scheduleKey } from './schedule.js';
import { announceJob } from './announce.js';

const STOPPING = new Error('job runner stopping');

/** The longest delay a Node timer keeps (about 24.8 days); a longer limit would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Why a job's signal aborted when its attempt ran past its type's time limit. */
class TimeLimit extends Error {
  constructor(readonly limitMs: number) {
    super(`job ran past its time limit of ${limitMs} ms`);
  }
}

/** Who holds a lease: this machine and process, and a random part of its own per runner. */
const leaseOwner = () => `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`.slice(0, 64);

export interface JobRunner {
  /** Looks for work now instead of at the next poll. */
  wake(): void;
  /** Stops claiming, aborts running jobs (their leases lapse and another runner resumes them) and waits for them. */
  stop(): Promise<void>;
}

export interface JobRunnerOptions {
  types: JobType<unknown>[];
  /** `debug`, when given, hears each scheduled run (too frequent for info). */
  log: Pick<Logger, 'info' | 'warn' | 'error'> & Partial<Pick<Logger, 'debug'>>;
  pollMs?: number;
  /** Only jobs on these queues are claimed (JOB_QUEUES: a node of one hospital area); undefined, every queue. */
  queues?: string[];
}

/** For a caller without a logger (the seed): nothing said. */
const SILENT: JobRunnerOptions['log'] = { info() {}, warn() {}, error() {} };

/**
 * Runs registered jobs from the database queue. main.ts starts one runner per machine (in the primary process,
 * which serves no requests when there are several workers), so each type's `concurrency` is a per-machine limit
 * and a conversion never takes a request-serving process's CPU; several machines share the queue through leases.
 */
export function startJobRunner(db: Db, { types, log, pollMs = 1000, queues }: JobRunnerOptions): JobRunner {
  const owner = leaseOwner();
  const running = new Map<number, { type: string; abort: AbortController; done: Promise<void> }>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** When the pending timer fires (Infinity: none pending). */
  let due = Infinity;
  let polling: Promise<void> | undefined;
  /** A wake-up arrived while a poll ran: look again as soon as it ends. */
  let again = false;
  /** The scheduled types' rows are queued (armSchedules): done by the first poll that reaches the database. */
  let armed = false;

  const busy = (type: string) => [...running.values()].filter((r) => r.type === type).length;

  const poll = async () => {
    try {
      if (!armed) {
        await armSchedules(db, types);
        armed = true;
        const schedules = types.filter((t) => t.everyMs).map((t) => t.type);
        if (schedules.length) log.info({ schedules }, 'job runner: schedules armed');
      }
      for (const job of await failAbandoned(db)) await reportFailure(types, db, job, job.error ?? 'job.interrupted', log);
      for (const type of types) {
        while (!stopped && busy(type.type) < type.concurrency) {
          const job = await claimJob(db, [type.type], owner, type.leaseMs, queues);
          if (!job) break;
          start(type, job);
        }
      }
    } catch (err) {
      if (!stopped) log.error({ err }, 'job runner: polling failed');
    }
  };

  // One poll at a time (two would each see room under a type's concurrency and claim past it), and an earlier
  // look is never pushed back by a later one: a wake-up during a poll is answered when it ends.
  const schedule = (delay: number) => {
    if (stopped) return;
    const at = Date.now() + delay;
    if (timer && at >= due) return;
    clearTimeout(timer);
    due = at;
    timer = setTimeout(() => {
      timer = undefined;
      due = Infinity;
      if (polling) {
        again = true;
        return;
      }
      polling = poll().finally(() => {
        polling = undefined;
        const soon = again;
        again = false;
        schedule(soon ? 0 : pollMs);
      });
    }, delay);
  };

  const start = (type: JobType, job: JobRow) => {
    const abort = new AbortController();
    const done = runJob(db, type, job, owner, abort, log, types).finally(() => {
      running.delete(job.id);
      schedule(0);
    });
    running.set(job.id, { type: type.type, abort, done });
  };

  // A job queued through this handle (a bind's ingest) starts now; the poll is for the rest (other processes'
  // jobs, retries coming due, leases lapsing), so it need not be frequent.
  const unlisten = onEvent(db, 'jobs.queued', () => schedule(0));
  schedule(0);
  return {
    wake: () => schedule(0),
    async stop() {
      stopped = true;
      unlisten();
      clearTimeout(timer);
      await polling;
      for (const r of running.values()) r.abort.abort(STOPPING);
      await Promise.all([...running.values()].map((r) => r.done));
    },
  };
}

/**
 * Runs one queued job here and now, as one attempt of a runner's would (lease and heartbeat, time limit, a retry
 * queued or the failure recorded, `onFinalFailure`): for the demo seed, benchmarks and tests, which need a job's work
 * done before they go on and may run no runner. A job another runner has claimed first is waited for instead.
 * Answers the job's row once the attempt has ended (`done`, `failed`, or `queued` again for a retry).
 */
export async function runJobNow(db: Db, type: JobType<unknown>, jobId: number, log: JobRunnerOptions['log'] = SILENT): Promise<JobRow> {
  const owner = leaseOwner();
  const job = await claimQueuedJob(db, jobId, owner, type.leaseMs);
  if (job) {
    await runJob(db, type, job, owner, new AbortController(), log, [type]);
  } else {
    // Claimed by a runner (it heard the same 'jobs.queued'): its attempt ends as this one would have.
    while ((await jobById(db, jobId))?.status === 'running') await new Promise((r) => setTimeout(r, 50));
  }
  const row = await jobById(db, jobId);
  if (!row) throw new Error(`job ${jobId} is gone`);
  return row;
}

async function runJob(db: Db, type: JobType, job: JobRow, owner: string, abort: AbortController, log: JobRunnerOptions['log'], types: JobType<unknown>[]): Promise<void> {
  let lastProgress = -1;
  const renew = async (progress?: { value: number; message?: string }) => {
    const ours = await heartbeat(db, job.id, owner, type.leaseMs, progress).catch(() => true);
    if (!ours) abort.abort(new Error('job lease lost'));
    return ours;
  };
  const beat = setInterval(() => void renew(), Math.max(50, type.leaseMs / 3));
  // Past its time limit an attempt is aborted (a child process it runs is killed with the signal) and failed at once,
  // whether or not its code has ended yet: work in this process that no signal reaches has a deadline of its own.
  const deadline = Date.now() + type.timeLimitMs;
  let limitTimer: NodeJS.Timeout | undefined;
  const overdue = new Promise<never>((_, reject) => {
    limitTimer = setTimeout(() => {
      const reason = new TimeLimit(type.timeLimitMs);
      abort.abort(reason);
      reject(reason);
    }, Math.min(type.timeLimitMs, MAX_TIMER_MS));
  });
  overdue.catch(() => {});
  // A scheduled run is routine (every few seconds): heard at debug only.
  const routine = type.everyMs ? (o: object, m: string) => log.debug?.(o, m) : (o: object, m: string) => log.info(o, m);
  routine({ job: job.id, type: job.type, attempt: job.attempts }, 'job started');
  announceJob(db, job, 'running', job.progress);
  try {
    const work = type.run({
      db, job, payload: JSON.parse(job.payload), signal: abort.signal, deadline,
      progress: async (value, message) => {
        // Only changes are written: a tool reporting every tenth of a percent would otherwise write as often.
        if (Math.round(value) === lastProgress && message === undefined) return !abort.signal.aborted;
        const moved = Math.round(value) !== lastProgress;
        lastProgress = Math.round(value);
        const ours = await renew({ value, message });
        if (ours && moved) announceJob(db, job, 'running', lastProgress);
        return ours;
      },
    });
    // What an attempt stopped at its limit still throws later is not heard.
    work.catch(() => {});
    await Promise.race([work, overdue]);
    clearInterval(beat);
    const ended = type.everyMs ? await rearmJob(db, job.id, owner, type.everyMs) : await finishJob(db, job.id, owner);
    if (ended) {
      routine({ job: job.id, type: job.type }, 'job done');
      announceJob(db, job, type.everyMs ? 'queued' : 'done', type.everyMs ? null : 100);
    }
  } catch (err) {
    clearInterval(beat);
    const limit = abort.signal.reason instanceof TimeLimit ? abort.signal.reason : undefined;
    // A job stopped because the runner stops or lost its lease is not a failure: its lease lapses and it resumes.
    if (abort.signal.aborted && !limit) {
      // Stopped on purpose (shutdown): handed back at once, so the next start resumes it without waiting for the lease.
      if (abort.signal.reason === STOPPING) await releaseJob(db, job.id, owner).catch(() => {});
      log.warn({ job: job.id, reason: String(abort.signal.reason) }, 'job stopped');
      return;
    }
    // Past its limit: failed for good (another attempt would run as long), with the limit in the stored reason.
    const message = limit ? encodeJobError('job.time_limit', { seconds: String(limit.limitMs / 1000) }) : err instanceof Error ? err.message : String(err);
    const outcome = await failJob(db, job, owner, message, !limit && !(err instanceof PermanentJobError)).catch((e) => {
      log.error({ err: e, job: job.id }, 'job runner: could not record a failure');
      return null;
    });
    log.warn({ job: job.id, type: job.type, err, outcome }, 'job failed');
    if (outcome === 'retry') announceJob(db, job, 'queued', null);
    if (outcome === 'final') await reportFailure(types, db, job, message, log);
  } finally {
    clearTimeout(limitTimer);
  }
}

async function reportFailure(types: JobType<unknown>[], db: Db, job: JobRow, error: string, log: JobRunnerOptions['log']): Promise<void> {
  const type = types.find((t) => t.type === job.type);
  await type?.onFinalFailure?.(db, job, error).catch((err) => log.error({ err, job: job.id }, 'job runner: failure hook failed'));
  // After the hook: a page that reads the slide again on hearing it finds it marked failed.
  announceJob(db, job, 'failed', null, error);
  // A schedule outlives a failed run: its next one is queued (the failed row stays, visibly).
  if (type?.everyMs) {
    await enqueueJob(db, { type: type.type, payload: {}, maxAttempts: type.maxAttempts, dedupeKey: scheduleKey(type.type), runAfter: new Date(Date.now() + type.everyMs).toISOString() })
      .catch((err) => log.error({ err, job: job.id }, 'job runner: could not queue a schedule’s next run'));
  }
}
