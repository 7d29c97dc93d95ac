import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobPush } from '../../src/core/jobPush.js';
import { jobProgressTopic } from '../../src/core/realtime-topics.js';
import type { Db } from '../../server/db/connect.js';
import { encodeJobError } from '../../server/modules/jobs/job-error.js';
import { enqueueJob } from '../../server/modules/jobs/queries.js';
import { PermanentJobError, type JobType } from '../../server/modules/jobs/registry.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { call, databases, ingested, startApp, testApp, tokenFor, userId, type Harness } from './harness.js';
import { quiet, until } from './job-helpers.js';
import { listenOnLoopback } from './loopback.js';

/**
 * Issue 28: the jobs' states and progress reach the browsers of the job's hospital over the realtime channel
 * (`dsms/h/<hospital>/jobs`), and no other hospital's: a member of hospital A hears a bind's ingest and a job of A
 * (queued, running with whole percents at most one a second, done; a failure with its reason's key and nothing of
 * its parameters), a member of hospital B only B's job. The test job reports a tenth of a percent at a time and
 * pauses at 37 %: the step held back by the throttle still arrives while it waits.
 */
const STEPS = 'test.steps';
const FAILS = 'test.fails';
const SLIDE_A = 9002;
const SLIDE_B = 9001;

describe.each(databases)('job progress over the realtime channel [%s]', (kind) => {
  let h: Harness;
  let app: Awaited<ReturnType<typeof testApp>>;
  let db: Db;
  let dataDir: string;
  let base: string;
  let h1: number;
  let h2: number;
  let runner: JobRunner | undefined;
  const clients: MqttClient[] = [];

  let release: () => void = () => {};
  const paused = new Promise<void>((resolve) => { release = resolve; });
  const steps: JobType<{ pauseAt?: number }> = {
    type: STEPS, concurrency: 2, maxAttempts: 1, leaseMs: 30_000, timeLimitMs: 120_000,
    async run({ payload, progress }) {
      for (let tenth = 0; tenth <= 1000; tenth++) {
        await progress(tenth / 10);
        if (payload.pauseAt !== undefined && tenth === payload.pauseAt * 10) await paused;
      }
    },
  };
  const fails: JobType = {
    type: FAILS, concurrency: 1, maxAttempts: 3, leaseMs: 30_000, timeLimitMs: 120_000,
    async run() { throw new PermanentJobError(encodeJobError('slide.file_missing', { path: 'slides/secret-name.svs' })); },
  };

  beforeAll(async () => {
    h = await startApp(kind);
    db = h.db;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-job-progress-'));
    // The app as main.ts builds it, with the embedded broker and its bind's ingest runner (testApp).
    app = await testApp(db, { dataDir });
    await app.ready();
    base = `ws://127.0.0.1:${await listenOnLoopback(app)}`;
    [h1, h2] = (await db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id) as [number, number];
    // The clinician works in hospital B only (the demo has every other single-hospital account in A).
    const clinician = await userId(db, 'clinician');
    await db.updateTable('user_hospitals').set({ hospital_id: h2 }).where('user_id', '=', clinician).execute();
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await runner?.stop();
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A session's connection as the browser makes it, and every push it receives on `filter`. */
  async function listener(user: string, filter: string): Promise<{ pushes: { topic: string; push: JobPush }[]; client: MqttClient }> {
    const token = await tokenFor(app, user);
    const conn = (await call(app, 'GET', '/api/realtime/connection', { token })).json().data as { url: string; username: string };
    const client = await mqtt.connectAsync(base + conn.url, { username: conn.username, password: token, reconnectPeriod: 0, connectTimeout: 10_000 });
    clients.push(client);
    const pushes: { topic: string; push: JobPush }[] = [];
    client.on('message', (topic, payload) => pushes.push({ topic, push: JSON.parse(payload.toString()) as JobPush }));
    const granted = await client.subscribeAsync(filter, { qos: 0 });
    expect(granted[0]!.qos, `${user} subscribes to ${filter}`).toBe(0);
    return { pushes, client };
  }

  it('tells hospital A’s members of A’s jobs and hospital B’s of B’s, each only their own', async () => {
    // Everything below hospital A's root, so a push of B's job anywhere in A's topics would be seen.
    const a = await listener('technician', `dsms/h/${h1}/#`);
    const b = await listener('clinician', `dsms/h/${h2}/#`);
    // A's member cannot ask for B's jobs (the topic rules; the broker refuses).
    const refused = await a.client.subscribeAsync(jobProgressTopic(h2), { qos: 0 }).then(() => 'granted', (e: { packet?: { granted?: number[] } }) => e.packet?.granted?.[0]);
    expect(refused).toBe(128);

    // A bind in hospital A: queued by the bind, read by the ingest runner.
    const admin = await tokenFor(app, 'admin');
    const dir = path.join(dataDir, 'uploads', 'complete', 'p1');
    fs.mkdirSync(dir, { recursive: true });
    await generateDemoSlide({ out: path.join(dir, 'scan.tiff'), width: 1200, height: 800, tileSize: 256, mpp: 0.25, seed: 5, slideId: 'P-1', label: false });
    const bound = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: 'uploads/complete/p1/scan.tiff' } });
    expect(bound.statusCode, bound.body).toBe(200);
    const slide = bound.json().data as { id: number; hospital_id: number };
    expect(slide.hospital_id).toBe(h1);
    expect((await ingested(app, admin, slide.id)).status).toBe('ready');
    const ofSlide = (list: typeof a.pushes, id: number) => list.filter((p) => p.push.slide === id);
    await until(async () => ofSlide(a.pushes, slide.id).some((p) => p.push.state === 'done'));
    const ingest = ofSlide(a.pushes, slide.id).map((p) => p.push).filter((p) => p.type === 'slides.ingest');
    // Its finish queued the slide's focus check, and said so.
    expect(ofSlide(a.pushes, slide.id).map((p) => p.push)).toContainEqual(expect.objectContaining({ type: 'slides.focus', state: 'queued', progress: null }));
    expect(ingest[0]).toMatchObject({ type: 'slides.ingest', state: 'queued', progress: null });
    expect(ingest[1]).toMatchObject({ type: 'slides.ingest', state: 'running', progress: 0 });
    expect(ingest.at(-1)).toMatchObject({ type: 'slides.ingest', state: 'done', progress: 100 });
    expect(new Set(ingest.map((p) => p.job)).size).toBe(1);
    expect(a.pushes.every((p) => p.topic === jobProgressTopic(h1))).toBe(true);

    // A job of each hospital reporting a tenth of a percent at a time; A's pauses at 37 %.
    const jobB = await enqueueJob(db, { type: STEPS, payload: {}, maxAttempts: 1, hospitalId: h2, slideId: SLIDE_B });
    const jobA = await enqueueJob(db, { type: STEPS, payload: { pauseAt: 37 }, maxAttempts: 1, hospitalId: h1, slideId: SLIDE_A });
    const failed = await enqueueJob(db, { type: FAILS, payload: {}, maxAttempts: 3, hospitalId: h1, slideId: SLIDE_A + 1 });
    const started = Date.now();
    runner = startJobRunner(db, { types: [steps as JobType<unknown>, fails], log: quiet, pollMs: 100 });
    const ofJob = (list: typeof a.pushes, id: number) => list.filter((p) => p.push.job === id).map((p) => p.push);
    // Held at 37: the throttle's held step is sent when its second ends, though nothing more comes meanwhile.
    await until(async () => ofJob(a.pushes, jobA).some((p) => p.progress === 37));
    expect(ofJob(a.pushes, jobA).at(-1)).toMatchObject({ state: 'running', progress: 37 });
    release();
    await until(async () => ofJob(a.pushes, jobA).some((p) => p.state === 'done') && ofJob(b.pushes, jobB).some((p) => p.state === 'done')
      && ofJob(a.pushes, failed).some((p) => p.state === 'failed'));
    const elapsed = Date.now() - started;

    for (const [seen, job, slideId] of [[a.pushes, jobA, SLIDE_A], [b.pushes, jobB, SLIDE_B]] as const) {
      const pushes = ofJob(seen, job);
      expect(pushes[0]).toEqual({ job, type: STEPS, slide: slideId, state: 'running', progress: 0 });
      expect(pushes.at(-1)).toEqual({ job, type: STEPS, slide: slideId, state: 'done', progress: 100 });
      const running = pushes.slice(1, -1);
      for (const p of running) expect(p).toMatchObject({ state: 'running', progress: expect.any(Number) });
      // Whole percents, each a change, rising.
      const values = running.map((p) => p.progress!);
      expect(values.every(Number.isInteger)).toBe(true);
      expect(values).toEqual([...new Set(values)].sort((x, y) => x - y));
      // At most one step a second after the first (1000 tenths and 100 whole-percent changes were reported).
      expect(running.length).toBeLessThanOrEqual(Math.floor(elapsed / 1000) + 1);
    }
    // A failure's reason is its key: its parameters (a file's path) stay on the server.
    const failure = ofJob(a.pushes, failed);
    expect(failure.at(-1)).toEqual({ job: failed, type: FAILS, slide: SLIDE_A + 1, state: 'failed', progress: null, reason: 'slide.file_missing' });
    expect(JSON.stringify(a.pushes)).not.toContain('secret-name');

    // Nobody hears another hospital's jobs.
    expect(a.pushes.filter((p) => p.push.job === jobB || p.push.slide === SLIDE_B)).toEqual([]);
    expect(b.pushes.filter((p) => p.push.job !== jobB)).toEqual([]);
    expect(b.pushes.every((p) => p.topic === jobProgressTopic(h2))).toBe(true);
  }, 120_000);
});
