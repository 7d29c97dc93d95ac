import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database, JobTable } from '../../db/schema.js';
import { clampProgress, mayRetry, retryDelaySeconds } from '../../../src/core/jobRetry.js';
import { DEFAULT_QUEUE } from './queues.js';

export type JobRow = Omit<JobTable, 'id' | 'queue'> & { id: number; queue: string };

export interface NewJob {
  type: string;
  payload: unknown;
  maxAttempts: number;
  dedupeKey?: string;
  hospitalId?: number | null;
  slideId?: number | null;
  /** The runners that may claim it (JOB_QUEUES): a slide's work its hospital area's queue (areas/queries.ts); `default` when left out. */
  queue?: string;
  /** Not before this time (ISO); now when absent. */
  runAfter?: string;
}

const iso = (ms = Date.now()) => new Date(ms).toISOString();

/**
 * Queues a job; answers its id. With a dedupe key already held by a queued or running job, answers that job's
 * id instead (the partial unique index decides, so two processes enqueueing at once still make one job).
 */
export async function enqueueJob(db: Kysely<Database>, job: NewJob): Promise<number> {
  const now = iso();
  const queue = job.queue ?? DEFAULT_QUEUE;
  try {
    const { id } = await db.insertInto('jobs').values({
      type: job.type, queue, dedupe_key: job.dedupeKey ?? null, hospital_id: job.hospitalId ?? null, slide_id: job.slideId ?? null,
      payload: JSON.stringify(job.payload ?? {}), status: 'queued', progress: 0, message: null, attempts: 0, max_attempts: job.maxAttempts,
      run_after: job.runAfter ?? now, lease_owner: null, lease_until: null, error: null, created_at: now, updated_at: now, finished_at: null,
    }).returning('id').executeTakeFirstOrThrow();
    return id;
  } catch (err) {
    if (!job.dedupeKey) throw err;
    const live = await liveJob(db, job.dedupeKey);
    if (!live) throw err;
    return live.id;
  }
}

const liveJob = (db: Kysely<Database>, key: string) => db.selectFrom('jobs').select('id')
  .where('dedupe_key', '=', key).where('status', 'in', ['queued', 'running']).executeTakeFirst();

/**
 * Claims the oldest due job of the given types (on the given queues, when named) for `owner`, with a lease until now + leaseMs: one UPDATE whose
 * WHERE repeats the claim condition, so of two processes racing for a row only one sees it still claimable
 * (PostgreSQL re-checks the WHERE after the row lock; SQLite runs writes one at a time). A running job whose
 * lease has expired (its process died) is claimable again.
 */
export async function claimJob(db: Db, types: string[], owner: string, leaseMs: number, queues?: string[]): Promise<JobRow | undefined> {
  if (types.length === 0 || queues?.length === 0) return undefined;
  const now = iso();
  const claimable = (eb: ExpressionBuilder<Database, 'jobs'>) => eb.and([
    eb('type', 'in', types),
    ...(queues ? [eb('queue', 'in', queues)] : []),
    eb.or([
      eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', now)]),
      eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now), eb('attempts', '<', eb.ref('max_attempts'))]),
    ]),
  ]);
  const next = db.selectFrom('jobs').select('id').where(claimable).orderBy('id').limit(1);
  const row = await db.updateTable('jobs')
    .set((eb) => ({ status: 'running', lease_owner: owner, lease_until: iso(Date.now() + leaseMs), attempts: eb('attempts', '+', 1), updated_at: now }))
    .where('id', '=', (eb) => eb.selectFrom(next.as('n')).select('n.id'))
    .where(claimable)
    .returningAll().executeTakeFirst();
  return row as JobRow | undefined;
}

/**
 * Claims one job by its id, if it is still queued (due or not): for running a job here and now (runJobNow). Answers
 * undefined when another runner took it first, or it has ended.
 */
export async function claimQueuedJob(db: Db, id: number, owner: string, leaseMs: number): Promise<JobRow | undefined> {
  const now = iso();
  const row = await db.updateTable('jobs')
    .set((eb) => ({ status: 'running', lease_owner: owner, lease_until: iso(Date.now() + leaseMs), attempts: eb('attempts', '+', 1), updated_at: now }))
    .where('id', '=', id).where('status', '=', 'queued')
    .returningAll().executeTakeFirst();
  return row as JobRow | undefined;
}

/**
 * Running jobs whose process died on their last attempt are never claimed again: they fail here, visibly.
 * Answers the failed rows, so their slides can say so.
 */
export async function failAbandoned(db: Db): Promise<JobRow[]> {
  const now = iso();
  return (await db.updateTable('jobs')
    .set({ status: 'failed', error: 'job.interrupted', lease_owner: null, lease_until: null, updated_at: now, finished_at: now })
    .where('status', '=', 'running').where('lease_until', '<', now).where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
    .returningAll().execute()) as JobRow[];
}

/** Extends the lease and records progress; false when the lease is no longer ours (taken over after expiry). */
export async function heartbeat(db: Db, id: number, owner: string, leaseMs: number, progress?: { value: number; message?: string }): Promise<boolean> {
  const result = await db.updateTable('jobs')
    .set({
      lease_until: iso(Date.now() + leaseMs), updated_at: iso(),
      ...(progress ? { progress: clampProgress(progress.value), ...(progress.message !== undefined ? { message: progress.message } : {}) } : {}),
    })
    .where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks the job done, if still ours. */
export async function finishJob(db: Kysely<Database>, id: number, owner: string): Promise<boolean> {
  const now = iso();
  const result = await db.updateTable('jobs')
    .set({ status: 'done', progress: 100, error: null, lease_owner: null, lease_until: null, updated_at: now, finished_at: now })
    .where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'running').executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * A scheduled job's run ended: its row is queued again `everyMs` after now, its attempts reset, so a schedule is one
 * row for good (its dedupe key held throughout) and `finished_at` says when it last ran. One reading of the clock for
 * both, so the next run is never less than `everyMs` after the last. False when no longer ours.
 */
export async function rearmJob(db: Kysely<Database>, id: number, owner: string, everyMs: number): Promise<boolean> {
  const at = Date.now();
  const now = iso(at);
  const result = await db.updateTable('jobs')
    .set({ status: 'queued', progress: 0, attempts: 0, error: null, lease_owner: null, lease_until: null, run_after: iso(at + everyMs), updated_at: now, finished_at: now })
    .where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'running').executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * A failed attempt: queued again after the back-off while attempts remain (or when `retry` is false, failed at
 * once). Answers whether the failure is final, or null when the job was no longer ours.
 */
export async function failJob(db: Kysely<Database>, job: JobRow, owner: string, error: string, retry: boolean): Promise<'final' | 'retry' | null> {
  const now = Date.now();
  const final = !retry || !mayRetry(job.attempts, job.max_attempts);
  const result = await db.updateTable('jobs')
    .set(final
      ? { status: 'failed', error: error.slice(0, 4000), lease_owner: null, lease_until: null, updated_at: iso(now), finished_at: iso(now) }
      : { status: 'queued', error: error.slice(0, 4000), lease_owner: null, lease_until: null, updated_at: iso(now), run_after: iso(now + retryDelaySeconds(job.attempts) * 1000) })
    .where('id', '=', job.id).where('lease_owner', '=', owner).where('status', '=', 'running').executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  return final ? 'final' : 'retry';
}

/** A job stopped by a shutdown goes back to the queue at once; the attempt it was on does not count. */
export async function releaseJob(db: Db, id: number, owner: string): Promise<void> {
  await db.updateTable('jobs')
    .set((eb) => ({ status: 'queued', lease_owner: null, lease_until: null, attempts: eb('attempts', '-', 1), updated_at: iso() }))
    .where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'running').execute();
}

/** The newest job about a slide. */
export async function latestJobOfSlide(db: Db, slideId: number, type?: string): Promise<JobRow | undefined> {
  let query = db.selectFrom('jobs').selectAll().where('slide_id', '=', slideId);
  if (type) query = query.where('type', '=', type);
  return (await query.orderBy('id', 'desc').limit(1).executeTakeFirst()) as JobRow | undefined;
}

/** For tests and the startup check: a job by id. */
export async function jobById(db: Db, id: number): Promise<JobRow | undefined> {
  return (await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst()) as JobRow | undefined;
}
