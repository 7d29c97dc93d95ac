import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledJobTypes } from '../../server/modules/job-types.js';
import { startAppProcess, until, type AppProcess, type LogLine } from './app-process.js';

/**
 * The built app with two workers runs each scheduled job in one process, the primary (which serves no requests), not
 * once per worker: the log (debug, every line with its process's pid) shows who armed the schedules and ran them.
 */
describe('npm start: scheduled jobs run in one process of two workers', () => {
  let app: AppProcess;
  const types = scheduledJobTypes().map((t) => t.type);
  const scheduled = (l: LogLine) => (l.msg === 'job started' || l.msg === 'job done') && types.includes(l.type as string);

  beforeAll(async () => {
    app = await startAppProcess({ LOG_LEVEL: 'debug' });
  });
  afterAll(async () => {
    await app?.cleanup();
  });

  it('arms and runs every schedule in the primary only', async () => {
    await until(() => types.every((type) => app.log().some((l) => l.msg === 'job done' && l.type === type)), 'a run of every schedule');
    const primary = app.child.pid!;
    const armed = app.log().filter((l) => l.msg === 'job runner: schedules armed');
    expect(armed.map((l) => ({ pid: l.pid, schedules: [...(l.schedules as string[])].sort() }))).toEqual([{ pid: primary, schedules: [...types].sort() }]);
    const runs = app.log().filter(scheduled);
    expect(new Set(runs.map((l) => l.pid))).toEqual(new Set([primary]));
    expect(app.workerPids()).toHaveLength(2);
    expect(app.workerPids()).not.toContain(primary);
  });
});
