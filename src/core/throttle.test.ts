import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalesce, throttle } from './throttle';

describe('throttle', () => {
  it('runs the first call of each window and drops the rest', () => {
    let t = 0;
    const calls: number[] = [];
    const f = throttle((n: number) => calls.push(n), 100, () => t);
    f(1); t = 50; f(2); t = 100; f(3); t = 150; f(4);
    expect(calls).toEqual([1, 3]);
  });
});

describe('coalesce', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('runs at once, folds a burst into one trailing run, and runs again for a call after the quiet window', () => {
    let runs = 0;
    const f = coalesce(() => { runs++; }, 1000);
    f();
    expect(runs).toBe(1);
    for (let i = 0; i < 20; i++) f();
    expect(runs).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(runs).toBe(2);
    vi.advanceTimersByTime(5000);
    expect(runs).toBe(2);
    f();
    expect(runs).toBe(3);
  });

  it('runs nothing more once cancelled', () => {
    let runs = 0;
    const f = coalesce(() => { runs++; }, 1000);
    f(); f();
    f.cancel();
    vi.advanceTimersByTime(2000);
    expect(runs).toBe(1);
  });
});
