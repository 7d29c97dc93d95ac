import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimJob, enqueueJob, failAbandoned, heartbeat, jobById } from '../../server/modules/jobs/queries.js';
import { PermanentJobError, type JobType } from '../../server/modules/jobs/registry.js';
import { runJobNow, startJobRunner } from '../../server/modules/jobs/runner.js';
import { emitEvent } from '../../server/events/bus.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';
import { quiet, until } from './job-helpers.js';

/** The durable job queue on each real database: claims under races, leases, retries, final failures, the job route. */

describe.each(databases)('job queue [%s]', (kind) => {
  let h: Harness;
  beforeAll(async () => { h = await startApp(kind); });
  afterAll(async () => h?.close());

  it('gives every job to exactly one of two claimers racing for it', async () => {
    const type = `race-${kind}`;
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await enqueueJob(h.db, { type, payload: { i }, maxAttempts: 3 }));
    const claimed: Record<string, number[]> = { a: [], b: [] };
    const claimer = async (owner: 'a' | 'b') => {
      for (;;) {
        const job = await claimJob(h.db, [type], owner, 60_000);
        if (!job) {
          // The other claimer may hold the row we lost to: done only when nothing is left queued.
          const left = await h.db.selectFrom('jobs').select('id').where('type', '=', type).where('status', '=', 'queued').executeTakeFirst();
          if (!left) return;
          continue;
        }
        claimed[owner].push(job.id);
      }
    };
    await Promise.all([claimer('a'), claimer('b')]);
    expect([...claimed.a, ...claimed.b].sort((x, y) => x - y)).toEqual(ids);
    const rows = await h.db.selectFrom('jobs').select(['status', 'attempts']).where('type', '=', type).execute();
    expect(rows.every((r) => r.status === 'running' && r.attempts === 1)).toBe(true);
  });

  it('keeps one live job per dedupe key', async () => {
    const first = await enqueueJob(h.db, { type: 'dedupe', payload: {}, maxAttempts: 1, dedupeKey: `k-${kind}` });
    const again = await enqueueJob(h.db, { type: 'dedupe', payload: {}, maxAttempts: 1, dedupeKey: `k-${kind}` });
    expect(again).toBe(first);
  });

  it('lets another process take over a job whose lease expired, and the first one learns it lost it', async () => {
    const type = `lease-${kind}`;
    const id = await enqueueJob(h.db, { type, payload: {}, maxAttempts: 3 });
    expect((await claimJob(h.db, [type], 'dead', 1))?.id).toBe(id);
    await new Promise((r) => setTimeout(r, 10));
    const taken = await claimJob(h.db, [type], 'alive', 60_000);
    expect(taken).toMatchObject({ id, lease_owner: 'alive', attempts: 2 });
    expect(await heartbeat(h.db, id, 'dead', 60_000)).toBe(false);
    expect(await heartbeat(h.db, id, 'alive', 60_000, { value: 40, message: 'job.converting' })).toBe(true);
    expect(await jobById(h.db, id)).toMatchObject({ progress: 40, message: 'job.converting' });
  });

  it('fails, visibly, a job whose process died on its last attempt', async () => {
    const type = `abandoned-${kind}`;
    const id = await enqueueJob(h.db, { type, payload: {}, maxAttempts: 1 });
    await claimJob(h.db, [type], 'dead', 1);
    await new Promise((r) => setTimeout(r, 10));
    expect(await claimJob(h.db, [type], 'other', 60_000)).toBeUndefined();
    expect((await failAbandoned(h.db)).map((j) => j.id)).toContain(id);
    expect(await jobById(h.db, id)).toMatchObject({ status: 'failed', error: 'job.interrupted' });
  });

  it('retries a failing job after its back-off, and reports progress', async () => {
    const type = `flaky-${kind}`;
    let runs = 0;
    const flaky: JobType<{ n: number }> = {
      type, concurrency: 1, maxAttempts: 3, leaseMs: 5_000, timeLimitMs: 60_000,
      async run({ progress, payload }) {
        runs++;
        await progress(50, 'job.converting');
        if (runs === 1) throw new Error(`first try of ${payload.n} fails`);
      },
    };
    const id = await enqueueJob(h.db, { type, payload: { n: 7 }, maxAttempts: 3 });
    const runner = startJobRunner(h.db, { types: [flaky], log: quiet, pollMs: 20 });
    try {
      await until(async () => (await jobById(h.db, id))?.status === 'queued' && runs === 1);
      const waiting = (await jobById(h.db, id))!;
      expect(waiting.error).toBe('first try of 7 fails');
      // The first back-off is 30 s: the retry is due no sooner.
      expect(Date.parse(waiting.run_after) - Date.parse(waiting.updated_at)).toBeGreaterThanOrEqual(29_000);
      await new Promise((r) => setTimeout(r, 100));
      expect(runs).toBe(1);
      await h.db.updateTable('jobs').set({ run_after: new Date().toISOString() }).where('id', '=', id).execute();
      await until(async () => (await jobById(h.db, id))?.status === 'done');
      expect(await jobById(h.db, id)).toMatchObject({ status: 'done', progress: 100, attempts: 2, error: null, lease_owner: null });
    } finally {
      await runner.stop();
    }
  });

  it('fails a job at once on a permanent error and tells its owner', async () => {
    const type = `broken-${kind}`;
    const told: string[] = [];
    const broken: JobType = {
      type, concurrency: 1, maxAttempts: 5, leaseMs: 5_000, timeLimitMs: 60_000,
      async run() { throw new PermanentJobError('slide.not_convertible'); },
      async onFinalFailure(_db, job, error) { told.push(`${job.id}:${error}`); },
    };
    const id = await enqueueJob(h.db, { type, payload: {}, maxAttempts: 5 });
    const runner = startJobRunner(h.db, { types: [broken], log: quiet, pollMs: 20 });
    try {
      await until(async () => (await jobById(h.db, id))?.status === 'failed');
      expect(await jobById(h.db, id)).toMatchObject({ attempts: 1, error: 'slide.not_convertible' });
      await until(async () => told.length === 1);
      expect(told).toEqual([`${id}:slide.not_convertible`]);
    } finally {
      await runner.stop();
    }
  });

  it('runs no more jobs of a type at once than its concurrency, and hands running ones back when stopped', async () => {
    const type = `slow-${kind}`;
    let active = 0;
    let most = 0;
    const slow: JobType = {
      type, concurrency: 1, maxAttempts: 3, leaseMs: 60_000, timeLimitMs: 60_000,
      async run({ signal }) {
        active++;
        most = Math.max(most, active);
        await new Promise((resolve, reject) => {
          const t = setTimeout(resolve, 150);
          signal.addEventListener('abort', () => { clearTimeout(t); reject(signal.reason); });
        });
        active--;
      },
    };
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await enqueueJob(h.db, { type, payload: {}, maxAttempts: 3 }));
    const runner = startJobRunner(h.db, { types: [slow], log: quiet, pollMs: 10 });
    await until(async () => (await jobById(h.db, ids[1]))?.status === 'running');
    await runner.stop();
    expect(most).toBe(1);
    expect(await jobById(h.db, ids[0])).toMatchObject({ status: 'done' });
    // Stopped mid-run: queued again at once, the interrupted attempt not counted.
    expect(await jobById(h.db, ids[1])).toMatchObject({ status: 'queued', attempts: 0, lease_owner: null });
  });

  it('starts a job queued on its handle when told (jobs.queued), not at its next poll, and wake-ups keep its concurrency', async () => {
    const type = `woken-${kind}`;
    let active = 0;
    let most = 0;
    let runs = 0;
    const slow: JobType = {
      type, concurrency: 1, maxAttempts: 3, leaseMs: 60_000, timeLimitMs: 60_000,
      async run() {
        active++;
        runs++;
        most = Math.max(most, active);
        await new Promise((r) => setTimeout(r, 50));
        active--;
      },
    };
    // Polls once at start (nothing due yet), then not for ten minutes: only the events start the jobs.
    const runner = startJobRunner(h.db, { types: [slow], log: quiet, pollMs: 600_000 });
    try {
      await new Promise((r) => setTimeout(r, 100));
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push(await enqueueJob(h.db, { type, payload: {}, maxAttempts: 3 }));
      // Many wake-ups, some while a poll runs: one poll at a time, never two claiming past the concurrency.
      for (let i = 0; i < 20; i++) {
        emitEvent(h.db, 'jobs.queued', { type });
        await new Promise((r) => setImmediate(r));
      }
      await until(async () => (await Promise.all(ids.map((id) => jobById(h.db, id)))).every((j) => j?.status === 'done'));
      expect(most).toBe(1);
      expect(runs).toBe(3);
    } finally {
      await runner.stop();
    }
  });

  it('runs one queued job here and now as a runner\'s attempt would (runJobNow), or waits for the runner that took it', async () => {
    const type = `now-${kind}`;
    const seen: string[] = [];
    const told: string[] = [];
    const now: JobType<{ n: number }> = {
      type, concurrency: 1, maxAttempts: 3, leaseMs: 5_000, timeLimitMs: 60_000,
      async run({ payload, progress }) {
        await progress(50, 'job.converting');
        seen.push(`run ${payload.n}`);
        if (payload.n === 2) throw new Error('second fails once');
        if (payload.n === 3) throw new PermanentJobError('slide.not_convertible');
      },
      async onFinalFailure(_db, job, error) { told.push(`${job.id}:${error}`); },
    };
    const ids: number[] = [];
    for (const n of [1, 2, 3]) ids.push(await enqueueJob(h.db, { type, payload: { n }, maxAttempts: 3 }));
    // Done, with the attempt counted and the lease given back; no runner was running.
    expect(await runJobNow(h.db, now as JobType<unknown>, ids[0])).toMatchObject({ id: ids[0], status: 'done', progress: 100, attempts: 1, lease_owner: null });
    // A failure is a runner's too: queued again after its back-off, or failed for good and its owner told.
    const retried = await runJobNow(h.db, now as JobType<unknown>, ids[1]);
    expect(retried).toMatchObject({ status: 'queued', attempts: 1, error: 'second fails once' });
    expect(Date.parse(retried.run_after)).toBeGreaterThan(Date.now() + 20_000);
    expect(await runJobNow(h.db, now as JobType<unknown>, ids[2])).toMatchObject({ status: 'failed', attempts: 1, error: 'slide.not_convertible' });
    expect(told).toEqual([`${ids[2]}:slide.not_convertible`]);
    expect(seen).toEqual(['run 1', 'run 2', 'run 3']);

    // Claimed by a runner first: waited for, not run twice.
    let release = () => {};
    const gate = new Promise<void>((resolve) => { release = resolve; });
    let runs = 0;
    const held: JobType = { type: `${type}-held`, concurrency: 1, maxAttempts: 3, leaseMs: 5_000, timeLimitMs: 60_000, async run() { runs++; await gate; } };
    const id = await enqueueJob(h.db, { type: held.type, payload: {}, maxAttempts: 3 });
    const runner = startJobRunner(h.db, { types: [held], log: quiet, pollMs: 10 });
    try {
      await until(async () => (await jobById(h.db, id))?.status === 'running');
      const waited = runJobNow(h.db, held, id);
      await new Promise((r) => setTimeout(r, 100));
      release();
      expect(await waited).toMatchObject({ status: 'done', attempts: 1 });
      expect(runs).toBe(1);
    } finally {
      await runner.stop();
    }
  });

  it('answers a slide\'s job only to users of its hospital, translated', async () => {
    const hospitals = await h.db.selectFrom('hospitals').select('id').orderBy('id').execute();
    const now = new Date().toISOString();
    const slide = await h.db.insertInto('slides').values({
      hospital_id: hospitals[1].id, case_id: null, name: 'branch-scan', file_path: 'slides/x.ndpi', file_size: 1, md5: null, vendor: 'hamamatsu',
      width: null, height: null, levels: null, mpp: null, objective_power: null, scan_at: null, tile_size: null, status: 'converting',
      has_label: 0, has_macro: 0, format_note: null, progress: 30, uploaded_by: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const id = await enqueueJob(h.db, { type: 'slides.convert', payload: { slideId: slide.id }, maxAttempts: 3, slideId: slide.id, hospitalId: hospitals[1].id });
    await h.db.updateTable('jobs').set({ status: 'failed', error: 'slide.vips_missing', progress: 30 }).where('id', '=', id).execute();

    const admin = await tokenFor(h.app, 'admin');
    const en = await call(h.app, 'GET', `/api/jobs/slide/${slide.id}`, { token: admin, lang: 'en-US' });
    expect(en.statusCode, en.body).toBe(200);
    expect(en.json().data).toMatchObject({ id, status: 'failed', status_text: 'Failed', progress: 30, error: 'slide.vips_missing' });
    expect(en.json().data.error_text).toContain('apt-get install libvips-tools');
    expect(en.json().data).not.toHaveProperty('lease_owner');
    const zh = await call(h.app, 'GET', `/api/jobs/slide/${slide.id}`, { token: admin, lang: 'zh-CN' });
    expect(zh.json().data.error_text).toContain('libvips-tools');
    expect(zh.json().data.status_text).toBe('失败');

    // The technician works in the main hospital only: the branch's slide does not exist for them.
    const technician = await tokenFor(h.app, 'technician');
    expect((await call(h.app, 'GET', `/api/jobs/slide/${slide.id}`, { token: technician })).statusCode).toBe(404);
    expect((await call(h.app, 'GET', `/api/jobs/slide/${slide.id}`)).statusCode).toBe(401);
    expect((await call(h.app, 'GET', '/api/jobs/slide/abc', { token: admin })).statusCode).toBe(422);
  });
});
