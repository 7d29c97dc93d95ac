import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledJobTypes } from '../../server/modules/job-types.js';
import { startJobRunner, type JobRunner } from '../../server/modules/jobs/runner.js';
import { scheduleKey } from '../../server/modules/jobs/schedule.js';
import { caseAtFirstDiagnosis, type Send } from './diagnosis-setup.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

const quiet = { info() {}, warn() {}, error() {} };
const RELEASE = 'diagnosis.release-due';

/** Waits for `ok()` to hold, reading the database every 50 ms: no request reaches the app meanwhile. */
async function until(ok: () => Promise<boolean>): Promise<void> {
  while (!(await ok())) await new Promise((r) => setTimeout(r, 50));
}

/**
 * Background work is scheduled jobs on the durable queue (issue 28): a report signed "issue later" is issued when its
 * hesitation period is over by the scheduled job the runner runs (as main.ts starts it), with no request arriving;
 * each schedule is one queue row, re-queued after every run, however many runners arm it.
 */
describe.each(databases)('scheduled jobs [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  let runner: JobRunner | undefined;
  let second: JobRunner | undefined;
  const send: Send = async (who, method, url, payload) => {
    const res = await call(h.app, method, url, { token: t[who], lang: 'en-US', payload });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const act = (who: string, report: { id: number; version: number }, action: string, extra: object = {}) =>
    send(who, 'POST', `/api/diagnosis/reports/${report.id}/actions/${action}`, { version: report.version, ...extra }) as Promise<{ id: number; version: number; sub_phase: string }>;
  const scheduleRows = () => h.db.selectFrom('jobs').select(['id', 'status', 'finished_at', 'dedupe_key']).where('type', '=', RELEASE).execute();

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['admin', 'registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer']) t[u] = await tokenFor(h.app, u);
  });
  afterAll(async () => {
    await second?.stop();
    await runner?.stop();
    await h?.close();
  });

  it('issues a report at the end of its hesitation period with no request arriving', async () => {
    const primaryId = await userId(h.db, 'primary');
    // The shortest hesitation period: due the moment it is signed, issued only by whoever releases it.
    await send('admin', 'PATCH', '/api/config/workflow/update', { audit: true, hesitation_minutes: 0 });
    const caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: '周杰' });
    let report = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis: '慢性胃炎' }) as { id: number; version: number; sub_phase: string };
    report = await act('primary', report, 'submit');
    report = await act('auditor', report, 'approve');
    report = await act('signer', report, 'sign', { issue: 'later' });
    expect(report.sub_phase).toBe('to_issue');
    const signedAt = new Date().toISOString();

    // Two runners, as two machines sharing the database would have: one schedule row between them.
    runner = startJobRunner(h.db, { types: scheduledJobTypes(), log: quiet, pollMs: 50 });
    second = startJobRunner(h.db, { types: scheduledJobTypes(), log: quiet, pollMs: 50 });
    // From here on the app hears nothing: the database alone says when the scheduled job has run.
    await until(async () => (await scheduleRows()).some((r) => r.finished_at !== null && r.finished_at > signedAt));

    const row = await h.db.selectFrom('reports').select(['sub_phase', 'release_status']).where('id', '=', report.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ sub_phase: 'signed', release_status: 'yes' });
    const rows = await scheduleRows();
    expect(rows).toEqual([expect.objectContaining({ dedupe_key: scheduleKey(RELEASE), status: expect.stringMatching(/^(queued|running)$/) })]);
  });

  it('holds every scheduled type as one row, queued again after each run for its next time', async () => {
    const types = scheduledJobTypes();
    await until(async () => (await h.db.selectFrom('jobs').select('id').where('dedupe_key', 'like', 'schedule:%').where('finished_at', 'is not', null).execute()).length === types.length);
    const rows = await h.db.selectFrom('jobs').select(['type', 'dedupe_key', 'status', 'attempts', 'run_after', 'finished_at']).where('dedupe_key', 'like', 'schedule:%').orderBy('type').execute();
    expect(rows.map((r) => r.type)).toEqual(types.map((s) => s.type).sort());
    for (const r of rows) {
      const every = types.find((s) => s.type === r.type)!.everyMs!;
      expect(r.dedupe_key).toBe(scheduleKey(r.type));
      if (r.status === 'running') continue; // a run under way; its row is queued again when it ends
      expect(r).toMatchObject({ status: 'queued', attempts: 0 });
      expect(Date.parse(r.run_after) - Date.parse(r.finished_at!)).toBeGreaterThanOrEqual(every);
    }
  });
});
