import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob, jobById } from '../../server/modules/jobs/queries.js';
import { jobTypesFor } from '../../server/modules/job-types.js';
import type { JobType } from '../../server/modules/jobs/registry.js';
import { startJobRunner } from '../../server/modules/jobs/runner.js';
import { jobView } from '../../server/modules/jobs/routes.js';
import { translate } from '../../server/i18n/translate.js';
import { databases, startApp, type Harness } from './harness.js';
import { quiet, until } from './job-helpers.js';

/**
 * Issue 27, finding 6: every job type has a time limit (a setting per type); an attempt past it is stopped, its child
 * process killed through the job's signal, and the job failed at once (not tried again) with a translated reason,
 * its owner told, even when the job's code does not listen to the signal.
 */

describe.each(databases)('job time limits [%s]', (kind) => {
  let h: Harness;
  beforeAll(async () => { h = await startApp(kind); });
  afterAll(async () => h?.close());

  it('kills the child process of a job past its limit and fails the job with the reason, in either language', async () => {
    const type = `sleeper-${kind}`;
    const told: string[] = [];
    let child: ChildProcess | undefined;
    let exited: (signal: NodeJS.Signals | null) => void = () => {};
    const exit = new Promise<NodeJS.Signals | null>((resolve) => { exited = resolve; });
    const sleeper: JobType = {
      type, concurrency: 1, maxAttempts: 3, leaseMs: 60_000, timeLimitMs: 300,
      run: ({ signal }) => new Promise((done, fail) => {
        // A tool that would run for a minute, as `vips` does on a large slide: only the signal ends it.
        child = spawn('sleep', ['60'], { signal, killSignal: 'SIGKILL' });
        child.on('error', () => {});
        child.on('close', (code, sig) => {
          exited(sig);
          return code === 0 ? done() : fail(new Error(`sleep ended by ${sig}`));
        });
      }),
      async onFinalFailure(_db, job, error) { told.push(`${job.id}:${error}`); },
    };
    const types = [sleeper];
    const id = await enqueueJob(h.db, { type, payload: {}, maxAttempts: 3 });
    const runner = startJobRunner(h.db, { types, log: quiet, pollMs: 20 });
    try {
      await until(async () => (await jobById(h.db, id))?.status === 'failed');
      expect(await exit).toBe('SIGKILL');
      const job = (await jobById(h.db, id))!;
      // Not tried again: a second attempt would run as long.
      expect(job).toMatchObject({ attempts: 1, error: JSON.stringify({ key: 'job.time_limit', params: { seconds: '0.3' } }), lease_owner: null });
      for (const lang of ['zh-CN', 'en-US'] as const) {
        expect(jobView(job, lang).error_text).toBe(translate(lang, 'job.time_limit', { seconds: '0.3' }));
      }
      expect(jobView(job, 'en-US').error_text).toBe('The job ran past its time limit (0.3 s) and was stopped');
      await until(async () => told.length === 1);
      expect(told).toEqual([`${id}:${job.error}`]);
      expect(child?.killed).toBe(true);
    } finally {
      await runner.stop();
    }
  });

  it('fails a job past its limit even when its code never listens to the signal, and runs the next one', async () => {
    const type = `deaf-${kind}`;
    let started = 0;
    const deaf: JobType = {
      type, concurrency: 1, maxAttempts: 3, leaseMs: 60_000, timeLimitMs: 200,
      // Work in this process that no signal reaches (libvips inside sharp): it never settles here.
      run: () => { started++; return new Promise(() => {}); },
    };
    const first = await enqueueJob(h.db, { type, payload: {}, maxAttempts: 3 });
    const second = await enqueueJob(h.db, { type, payload: {}, maxAttempts: 3 });
    const runner = startJobRunner(h.db, { types: [deaf], log: quiet, pollMs: 20 });
    try {
      await until(async () => (await jobById(h.db, second))?.status === 'failed');
      for (const id of [first, second]) {
        expect(await jobById(h.db, id)).toMatchObject({ status: 'failed', attempts: 1, error: JSON.stringify({ key: 'job.time_limit', params: { seconds: '0.2' } }) });
      }
      // Its place under the type's concurrency of 1 was given to the next job.
      expect(started).toBe(2);
    } finally {
      await runner.stop();
    }
  });

  it('gives each of the app’s job types the limit of its setting, and a default without one', () => {
    const limits = Object.fromEntries(jobTypesFor({ dataDir: '/tmp', jobLeaseMs: 30_000, jobTimeLimitsMs: { 'slides.convert': 1234 } }).map((t) => [t.type, t.timeLimitMs]));
    // A report's FHIR delivery: one post, its FHIR_TIMEOUT_MS (default 10 s) and 30 s more (diagnosis/outbound-job.ts);
    // an ORU^R01 to the HIS: one send, HL7_ACK_TIMEOUT_MS (default 10 s) and 30 s more (hl7/result-job.ts); a label's
    // barcode reading, a minute (slides/label-bind-job.ts).
    expect(limits).toEqual({
      'slides.ingest': 3_600_000, 'slides.convert': 1234, 'slides.focus': 3_600_000, 'slides.label_bind': 60_000, 'diagnosis.report-outbound': 40_000, 'hl7.result': 40_000,
      'demo.freeze_reports': 1_800_000,
    });
  });
});
