import { api, unwrap } from '../api/client';
import { asJobPush, slidePushEffect } from '../core/jobPush';
import { jobProgressTopic } from '../core/realtime-topics';
import { WORK_FALLBACK_POLL_MS } from '../core/workUnderWay';
import { channelLive, onChannelChange } from '../realtime/channel';
import { listen } from '../realtime/live';
import { useSession } from '../store/session';
import { useUploads, type SlideProgress } from './store';

/** Slide statuses after which nothing more happens on their own: the panel stops following. */
const SETTLED = new Set(['ready', 'error', 'needs_conversion']);

interface SlideRow { id: number; status: string; progress: number | null }
interface JobView { status: string; error_text: string | null }

/**
 * After bind, the slide's ingest and conversion run as background jobs, which the task follows over the realtime
 * channel (the jobs topics of the user's hospitals, server/realtime/job-push.ts): a running step moves its bar in
 * place, a job queued, done or failed has it read the slide's row (status and progress, as the slide lists show
 * them); once the row settles it says why a failed one failed (the failed job's translated error). The row is read
 * once at the start, whenever the channel comes (back) up (what was pushed meanwhile never came), and every
 * WORK_FALLBACK_POLL_MS while it is down. `onSettled` runs once, when it is ready or failed.
 */
export function watchSlide(taskId: string, slideId: number, onSettled: (slide: SlideProgress) => void): void {
  const patch = (slide: SlideProgress) => useUploads.getState().patch(taskId, { slide });
  const still = () => useUploads.getState().tasks.some((task) => task.id === taskId);
  let done = false;
  let reading = false;
  let again = false;
  let fallback: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    done = true;
    clearTimeout(fallback);
    offChannel();
    for (const off of stops) off();
  };
  const read = async () => {
    if (done) return;
    if (!still()) return stop();
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      const row = await unwrap<SlideRow>(api.get(`/data/kfb/item/${slideId}`, { silent: true }));
      const slide: SlideProgress = { id: slideId, status: row.status, progress: row.progress };
      if (SETTLED.has(row.status)) {
        if (row.status !== 'ready') slide.error = await failureOf(slideId);
        stop();
        patch(slide);
        onSettled(slide);
        return;
      }
      // An answer read before the latest push must not move the bar back.
      const shown = useUploads.getState().tasks.find((task) => task.id === taskId)?.slide;
      if (shown?.status === slide.status && (shown.progress ?? 0) > (slide.progress ?? 0)) slide.progress = shown.progress;
      if (!done) patch(slide);
    } catch { /* a missed answer (network, a restart): read again at the next push, comeback or fallback */ } finally {
      reading = false;
    }
    if (again) {
      again = false;
      void read();
    }
  };
  // While the channel is down: read every WORK_FALLBACK_POLL_MS.
  const armFallback = () => {
    clearTimeout(fallback);
    if (!done && !channelLive()) fallback = setTimeout(() => { void read().finally(armFallback); }, WORK_FALLBACK_POLL_MS);
  };
  const onPush = (payload: unknown) => {
    const push = asJobPush(payload);
    if (done || !push || push.slide !== slideId) return;
    const effect = slidePushEffect(push);
    if (effect.kind === 'patch') {
      if (still()) patch({ id: slideId, ...effect.values });
      else stop();
    } else if (effect.kind === 'refetch') void read();
  };
  const hospitals = (useSession.getState().user?.hospitals?.data ?? []).map((h) => h.id);
  const stops = hospitals.map((h) => listen(jobProgressTopic(h), onPush, { now: true }));
  const offChannel = onChannelChange((up) => {
    if (up) void read();
    armFallback();
  });
  patch({ id: slideId, status: 'ingesting', progress: 0 });
  // The first read: the job may have moved before this listened (a small file's whole ingest).
  setTimeout(() => void read(), 500);
  armFallback();
}

/** The translated reason of the slide's failed job (conversion before ingest: the later step), if one failed. */
async function failureOf(slideId: number): Promise<string | undefined> {
  for (const type of ['slides.convert', 'slides.ingest']) {
    const job = await unwrap<JobView | null>(api.get(`/jobs/slide/${slideId}`, { params: { type }, silent: true })).catch(() => null);
    if (job?.status === 'failed' && job.error_text) return job.error_text;
  }
  return undefined;
}
