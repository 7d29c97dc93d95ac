import { describe, expect, it } from 'vitest';
import { parseJobTimeLimits } from './time-limits.js';

describe('job time limits (settings)', () => {
  it('defaults to an hour for ingest and the focus check, six hours for a conversion', () => {
    expect(parseJobTimeLimits({})).toEqual({ 'slides.ingest': 3_600_000, 'slides.convert': 21_600_000, 'slides.focus': 3_600_000 });
  });

  it('reads each type’s setting in seconds, fractions included', () => {
    const limits = parseJobTimeLimits({ JOB_TIME_LIMIT_INGEST_SECONDS: '90', JOB_TIME_LIMIT_CONVERSION_SECONDS: '0.5', JOB_TIME_LIMIT_FOCUS_SECONDS: '' });
    expect(limits).toEqual({ 'slides.ingest': 90_000, 'slides.convert': 500, 'slides.focus': 3_600_000 });
  });

  it('stops the start on a value that is not a positive number, naming the setting', () => {
    for (const bad of ['0', '-5', 'soon', 'Infinity']) {
      expect(() => parseJobTimeLimits({ JOB_TIME_LIMIT_CONVERSION_SECONDS: bad })).toThrow(`JOB_TIME_LIMIT_CONVERSION_SECONDS must be a positive number of seconds, not "${bad}"`);
    }
  });
});
