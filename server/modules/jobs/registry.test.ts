import { describe, expect, it } from 'vitest';
import { JobRegistry, type JobType } from './registry.js';

const job = (type: string, everyMs?: number): JobType<unknown> => ({
  type, concurrency: 1, maxAttempts: 1, leaseMs: 1000, timeLimitMs: 1000, everyMs, async run() {},
});

describe('job registry', () => {
  it('answers the registered types in the order they were registered', () => {
    const a = job('a.one');
    const b = job('b.two', 5000);
    expect(new JobRegistry().register(a).register(b).types()).toEqual([a, b]);
  });

  it('refuses a type name registered twice, naming it, and keeps the first', () => {
    const first = job('slides.ingest');
    const registry = new JobRegistry().register(first);
    expect(() => registry.register(job('slides.ingest'))).toThrow('job type "slides.ingest" is already registered');
    expect(registry.types()).toEqual([first]);
  });
});
