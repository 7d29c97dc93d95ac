import { asJobPush, slidePushEffect } from '../core/jobPush';
import { jobProgressTopic } from '../core/realtime-topics';
import { registerLiveSource, type LiveEffect } from '../engine/liveSources';

/**
 * A slide list (`live: "slide_jobs"`: SlideLibrary, DssUploaded) follows its slides' ingest and conversion on each
 * hospital's jobs topic (server/realtime/job-push.ts): a running step moves the row's bar in place, a job queued,
 * done or failed reads the list again (the row's new status, its thumbnail, the tab counts), other jobs change
 * nothing shown.
 */
function slideListEffect(payload: unknown): LiveEffect {
  const push = asJobPush(payload);
  if (!push) return { kind: 'none' };
  const effect = slidePushEffect(push);
  if (effect.kind === 'patch') return { kind: 'patch', key: String(effect.slide), values: effect.values };
  return effect.kind === 'refetch' ? { kind: 'refetch' } : { kind: 'none' };
}

registerLiveSource('slide_jobs', (hospitalIds) => hospitalIds.map(jobProgressTopic), { effect: slideListEffect, carriesWork: true });
