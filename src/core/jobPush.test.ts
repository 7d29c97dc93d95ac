import { describe, expect, it } from 'vitest';
import { asJobPush, slidePushEffect, type JobPush } from './jobPush';

const push = (over: Partial<JobPush> = {}): JobPush => ({ job: 7, type: 'slides.convert', slide: 3, state: 'running', progress: 42, ...over });

describe('job pushes', () => {
  it('reads a push from the channel, whole percentages within 0–100, and refuses what is not one', () => {
    expect(asJobPush({ job: 7, type: 'slides.convert', slide: 3, state: 'running', progress: 41.6 })).toEqual(push());
    expect(asJobPush({ job: 7, type: 'slides.ingest', slide: null, state: 'failed', progress: 150, reason: 'job.time_limit' }))
      .toEqual({ job: 7, type: 'slides.ingest', slide: null, state: 'failed', progress: 100, reason: 'job.time_limit' });
    expect(asJobPush({ job: 7, type: 'x.y', slide: 3, state: 'queued', progress: null })?.progress).toBeNull();
    for (const bad of [null, 'x', 3, {}, { ...push(), job: 0 }, { ...push(), job: '7' }, { ...push(), state: 'paused' }, { ...push(), slide: -1 }, { ...push(), type: 1 }]) {
      expect(asJobPush(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('moves a slide’s bar in place while its ingest or conversion runs; reads the row again when a job queues, ends or fails', () => {
    expect(slidePushEffect(push())).toEqual({ kind: 'patch', slide: 3, values: { status: 'converting', progress: 42 } });
    expect(slidePushEffect(push({ type: 'slides.ingest', progress: 0 }))).toEqual({ kind: 'patch', slide: 3, values: { status: 'ingesting', progress: 0 } });
    for (const state of ['queued', 'done', 'failed'] as const) expect(slidePushEffect(push({ state, progress: null }))).toEqual({ kind: 'refetch', slide: 3 });
    // The focus check runs on a ready slide: nothing of it is on the row.
    expect(slidePushEffect(push({ type: 'slides.focus' }))).toEqual({ kind: 'none' });
    expect(slidePushEffect(push({ type: 'slides.focus', state: 'done' }))).toEqual({ kind: 'none' });
  });
});
