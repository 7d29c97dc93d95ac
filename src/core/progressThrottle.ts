/**
 * How often a job's progress is pushed: at most one step per subject (a slide, else the job) per `gapMs`, and only
 * when the whole percentage changed; a step that comes too soon is held and sent when the gap ends (the newest one
 * held wins), so the last percentage before a pause is never lost. A change of state (queued, started, done,
 * failed) goes at once and drops a held step, which it supersedes. Pure: the caller says what time it is and
 * sends what `offer` and `due` answer (server/realtime/job-push.ts holds the timer).
 */
export interface Throttled {
  job: number;
  slide: number | null;
  state: string;
  progress: number | null;
}

export const PROGRESS_PUSH_GAP_MS = 1000;
/** A subject not heard of for this long is forgotten (its job's process died without a last word): its next push is a first one. */
const FORGET_MS = 10 * 60_000;

interface Lane<T> { job: number; state: string; percent: number | null; sentAt: number; held: T | null }

const TERMINAL = new Set(['done', 'failed']);

export class ProgressThrottle<T extends Throttled> {
  private readonly lanes = new Map<string, Lane<T>>();

  constructor(private readonly gapMs = PROGRESS_PUSH_GAP_MS) {}

  /** What to send now for this event (nothing, or it with a whole percentage). */
  offer(event: T, now: number): T[] {
    this.forget(now);
    const key = event.slide !== null ? `s${event.slide}` : `j${event.job}`;
    const lane = this.lanes.get(key);
    const whole = event.progress === null ? null : Math.round(event.progress);
    const out = { ...event, progress: whole };
    const step = event.state === 'running' && lane?.job === event.job && lane.state === 'running';
    if (!step) {
      if (TERMINAL.has(event.state)) this.lanes.delete(key);
      else this.lanes.set(key, { job: event.job, state: event.state, percent: whole, sentAt: now, held: null });
      return [out];
    }
    if (whole === lane.percent) {
      // Back where the last push left it: nothing held is news any more.
      lane.held = null;
      return [];
    }
    if (now - lane.sentAt >= this.gapMs) {
      Object.assign(lane, { percent: whole, sentAt: now, held: null });
      return [out];
    }
    lane.held = out;
    return [];
  }

  /** The held steps whose gap has ended by `now`. */
  due(now: number): T[] {
    const out: T[] = [];
    for (const lane of this.lanes.values()) {
      if (!lane.held || now - lane.sentAt < this.gapMs) continue;
      out.push(lane.held);
      Object.assign(lane, { percent: lane.held.progress, sentAt: now, held: null });
    }
    return out;
  }

  /** When `due` next has something (ms, the clock `offer` was given), or null when nothing is held. */
  nextDue(): number | null {
    let next: number | null = null;
    for (const lane of this.lanes.values()) {
      if (lane.held && (next === null || lane.sentAt + this.gapMs < next)) next = lane.sentAt + this.gapMs;
    }
    return next;
  }

  /** How many subjects it remembers (for tests: a finished job leaves none). */
  get size(): number {
    return this.lanes.size;
  }

  private forget(now: number): void {
    for (const [key, lane] of this.lanes) if (!lane.held && now - lane.sentAt > FORGET_MS) this.lanes.delete(key);
  }
}
