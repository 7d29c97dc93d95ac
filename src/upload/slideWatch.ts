import { api, unwrap } from '../api/client';
import { WORK_POLL_MS } from '../core/workUnderWay';
import { useUploads, type SlideProgress } from './store';

/** Slide statuses after which nothing more happens on their own: the panel stops asking. */
const SETTLED = new Set(['ready', 'error', 'needs_conversion']);

interface SlideRow { id: number; status: string; progress: number | null }
interface JobView { status: string; error_text: string | null }

/**
 * After bind, the slide's ingest and conversion run as background jobs: the task follows the slide's row (status
 * and progress, as the slide lists show them) every WORK_POLL_MS until it settles, then says why a failed one
 * failed (the failed job's translated error). Polling, as the lists do; `onSettled` runs once, when it is ready or failed.
 */
export function watchSlide(taskId: string, slideId: number, onSettled: (slide: SlideProgress) => void): void {
  const patch = (slide: SlideProgress) => useUploads.getState().patch(taskId, { slide });
  const still = () => useUploads.getState().tasks.some((task) => task.id === taskId);
  const poll = async () => {
    if (!still()) return;
    try {
      const row = await unwrap<SlideRow>(api.get(`/data/kfb/item/${slideId}`, { silent: true }));
      const slide: SlideProgress = { id: slideId, status: row.status, progress: row.progress };
      if (SETTLED.has(row.status)) {
        if (row.status !== 'ready') slide.error = await failureOf(slideId);
        patch(slide);
        onSettled(slide);
        return;
      }
      patch(slide);
    } catch { /* a missed answer (network, a restart): asked again next time */ }
    setTimeout(() => void poll(), WORK_POLL_MS);
  };
  patch({ id: slideId, status: 'ingesting', progress: 0 });
  setTimeout(() => void poll(), 500);
}

/** The translated reason of the slide's failed job (conversion before ingest: the later step), if one failed. */
async function failureOf(slideId: number): Promise<string | undefined> {
  for (const type of ['slides.convert', 'slides.ingest']) {
    const job = await unwrap<JobView | null>(api.get(`/jobs/slide/${slideId}`, { params: { type }, silent: true })).catch(() => null);
    if (job?.status === 'failed' && job.error_text) return job.error_text;
  }
  return undefined;
}
