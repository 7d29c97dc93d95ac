import { describe, expect, it } from 'vitest';
import { clampProgress, mayRetry, retryDelaySeconds } from './jobRetry.js';

describe('job retries', () => {
  it('backs off four-fold from 30 seconds and stops growing at an hour', () => {
    expect([1, 2, 3, 4, 5, 6].map(retryDelaySeconds)).toEqual([30, 120, 480, 1920, 3600, 3600]);
    expect(retryDelaySeconds(0)).toBe(30);
  });

  it('retries until the attempts are used up', () => {
    expect(mayRetry(1, 3)).toBe(true);
    expect(mayRetry(2, 3)).toBe(true);
    expect(mayRetry(3, 3)).toBe(false);
  });

  it('keeps progress a whole percentage', () => {
    expect(clampProgress(42.6)).toBe(43);
    expect(clampProgress(130)).toBe(100);
    expect(clampProgress(-3)).toBe(0);
    expect(clampProgress(Number.NaN)).toBe(0);
  });
});
