import { describe, expect, it } from 'vitest';
import { ProgressThrottle, type Throttled } from './progressThrottle';

const ev = (state: string, progress: number | null, over: Partial<Throttled> = {}): Throttled => ({ job: 1, slide: 10, state, progress, ...over });

describe('job progress throttle', () => {
  it('sends a state change at once, then at most one whole-percent step per slide a second, holding the newest for the end of the gap', () => {
    const t = new ProgressThrottle(1000);
    expect(t.offer(ev('running', 0), 0)).toEqual([ev('running', 0)]);
    // A tenth of a percent is no change; neither is the same whole percent.
    expect(t.offer(ev('running', 0.4), 100)).toEqual([]);
    expect(t.nextDue()).toBeNull();
    // Too soon: held, newest wins.
    expect(t.offer(ev('running', 3.2), 200)).toEqual([]);
    expect(t.offer(ev('running', 5.6), 300)).toEqual([]);
    expect(t.nextDue()).toBe(1000);
    expect(t.due(999)).toEqual([]);
    expect(t.due(1000)).toEqual([ev('running', 6)]);
    expect(t.nextDue()).toBeNull();
    // A gap later, a step goes at once.
    expect(t.offer(ev('running', 9), 2500)).toEqual([ev('running', 9)]);
    expect(t.offer(ev('running', 10), 2600)).toEqual([]);
    // The end drops the held step and goes at once; the slide is forgotten.
    expect(t.offer(ev('done', 100), 2700)).toEqual([ev('done', 100)]);
    expect(t.due(10_000)).toEqual([]);
    expect(t.size).toBe(0);
  });

  it('keeps slides apart, and a new job of the same slide (its conversion after its ingest) starts afresh', () => {
    const t = new ProgressThrottle(1000);
    expect(t.offer(ev('running', 0), 0)).toHaveLength(1);
    expect(t.offer(ev('running', 0, { job: 2, slide: 11 }), 10)).toHaveLength(1);
    expect(t.offer(ev('running', 50, { job: 2, slide: 11 }), 20)).toEqual([]);
    expect(t.offer(ev('running', 30), 30)).toEqual([]);
    expect(t.due(1005)).toEqual([ev('running', 30)]);
    expect(t.due(1010)).toEqual([ev('running', 50, { job: 2, slide: 11 })]);
    expect(t.offer(ev('done', 100), 1100)).toHaveLength(1);
    expect(t.offer(ev('running', 0, { job: 3 }), 1150)).toEqual([ev('running', 0, { job: 3 })]);
    // A retry puts the job back in the queue: its next start is a change of state, sent at once.
    expect(t.offer(ev('queued', null, { job: 3 }), 1200)).toEqual([ev('queued', null, { job: 3 })]);
    expect(t.offer(ev('running', 0, { job: 3 }), 1300)).toEqual([ev('running', 0, { job: 3 })]);
  });

  it('takes a job without a slide by its own id, and forgets a subject silent for ten minutes', () => {
    const t = new ProgressThrottle(1000);
    expect(t.offer(ev('running', 0, { slide: null }), 0)).toHaveLength(1);
    expect(t.offer(ev('running', 0, { slide: null, job: 2 }), 0)).toHaveLength(1);
    expect(t.size).toBe(2);
    expect(t.offer(ev('running', 1, { slide: 99, job: 9 }), 10 * 60_000 + 1)).toHaveLength(1);
    expect(t.size).toBe(1);
  });
});
