import { jobProgressTopic } from '../../src/core/realtime-topics.js';
import type { JobPush } from '../../src/core/jobPush.js';
import { ProgressThrottle } from '../../src/core/progressThrottle.js';
import type { Db } from '../db/connect.js';
import { onEvent } from '../events/bus.js';
import { jobErrorKey } from '../modules/jobs/job-error.js';

type Outgoing = JobPush & { hospital: number };

/**
 * Forwards the jobs' states (`jobs.state` from the runner, `jobs.queued` from a bind) to their hospital's jobs topic,
 * each step of progress throttled (src/core/progressThrottle.ts: at most one a second per slide, whole percents
 * only, the last one held never lost). Jobs of no hospital (the schedules) are nobody's news. Runs where the runner's
 * events are heard: the app (one process, tests) or a cluster's primary (main.ts). Answers the function that stops it.
 */
export function pushJobStates(db: Db, send: (topic: string, payload: JobPush) => void): () => void {
  const throttle = new ProgressThrottle<Outgoing>();
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  const out = (pushes: Outgoing[]) => {
    for (const { hospital, ...push } of pushes) send(jobProgressTopic(hospital), push);
  };
  const arm = () => {
    const at = throttle.nextDue();
    if (at === null || at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Infinity;
      out(throttle.due(Date.now()));
      arm();
    }, Math.max(0, at - Date.now()));
    timer.unref();
  };
  const offer = (push: Outgoing) => {
    out(throttle.offer(push, Date.now()));
    arm();
  };
  const offs = [
    onEvent(db, 'jobs.state', (e) => {
      if (e.hospitalId === null) return;
      offer({
        hospital: e.hospitalId, job: e.jobId, type: e.type, slide: e.slideId, state: e.state, progress: e.progress,
        ...(e.error !== undefined ? { reason: jobErrorKey(e.error) } : {}),
      });
    }),
    onEvent(db, 'jobs.queued', (e) => {
      if (e.hospitalId === undefined || e.jobId === undefined) return;
      offer({ hospital: e.hospitalId, job: e.jobId, type: e.type, slide: e.slideId ?? null, state: 'queued', progress: null });
    }),
  ];
  return () => {
    clearTimeout(timer);
    for (const off of offs) off();
  };
}
