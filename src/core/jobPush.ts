/**
 * What the server pushes about a background job on its hospital's jobs topic (`jobProgressTopic`), and what the
 * browser makes of it. A push names the job and its slide by id only, with the state and a whole percentage: the
 * topic reaches every member of the hospital, whatever subspecialty directory limits what they may read, so the
 * page asks the API (row-scoped as always) for anything more.
 */
export type JobPushState = 'queued' | 'running' | 'done' | 'failed';
export const JOB_PUSH_STATES: readonly JobPushState[] = ['queued', 'running', 'done', 'failed'];

export interface JobPush {
  job: number;
  /** The job type (`slides.ingest`, `slides.convert`, `slides.focus` …). */
  type: string;
  slide: number | null;
  state: JobPushState;
  /** 0–100, whole; null when the state says it all (queued). */
  progress: number | null;
  /** A failed job's message key (its parameters stay on the server: `GET /api/jobs/slide/:id` translates them). */
  reason?: string;
}

/** The jobs whose progress is the slide row's own (its `status` and `progress`), and the status each runs under. */
export const SLIDE_WORK_STATUS: Readonly<Record<string, 'ingesting' | 'converting'>> = {
  'slides.ingest': 'ingesting',
  'slides.convert': 'converting',
};

const isId = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;

/** A payload from the channel as a JobPush, or null when it is not one (the channel carries JSON from the server only, but a page trusts no shape). */
export function asJobPush(payload: unknown): JobPush | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const p = payload as Record<string, unknown>;
  if (!isId(p.job) || typeof p.type !== 'string' || !JOB_PUSH_STATES.includes(p.state as JobPushState)) return null;
  if (p.slide !== null && !isId(p.slide)) return null;
  const progress = typeof p.progress === 'number' && Number.isFinite(p.progress) ? Math.max(0, Math.min(100, Math.round(p.progress))) : null;
  return {
    job: p.job, type: p.type, slide: p.slide, state: p.state as JobPushState, progress,
    ...(typeof p.reason === 'string' ? { reason: p.reason } : {}),
  };
}

/**
 * What a push means for a slide shown in a list or the upload panel: a running step of its ingest or conversion
 * changes its bar in place (`patch`: no request); a job queued, done or failed changes what the row says (status,
 * thumbnail, tab counts), so the page reads it again (`refetch`); other jobs of the slide (its focus check) change
 * nothing shown there.
 */
export type SlidePushEffect =
  | { kind: 'patch'; slide: number; values: { status: 'ingesting' | 'converting'; progress: number } }
  | { kind: 'refetch'; slide: number | null }
  | { kind: 'none' };

export function slidePushEffect(push: JobPush): SlidePushEffect {
  const status = SLIDE_WORK_STATUS[push.type];
  if (!status) return { kind: 'none' };
  if (push.state === 'running' && push.slide !== null && push.progress !== null) {
    return { kind: 'patch', slide: push.slide, values: { status, progress: push.progress } };
  }
  return { kind: 'refetch', slide: push.slide };
}
