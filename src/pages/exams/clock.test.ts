import { describe, expect, it } from 'vitest';
import { clockText, timeLeftMs } from './clock';

describe('an attempt\'s clock', () => {
  it('counts from the server\'s time, with only the elapsed time of this browser', () => {
    // The browser's clock is an hour off: it does not matter.
    const fetchedAt = Date.parse('2026-01-01T11:00:00Z');
    expect(timeLeftMs('2026-01-01T10:30:00Z', '2026-01-01T10:00:00Z', fetchedAt, fetchedAt + 60_000)).toBe(29 * 60_000);
    expect(timeLeftMs('2026-01-01T10:30:00Z', '2026-01-01T10:00:00Z', fetchedAt, fetchedAt + 31 * 60_000)).toBe(0);
  });
  it('reads as mm:ss or h:mm:ss', () => {
    expect([clockText(29 * 60_000 + 500), clockText(0), clockText(3_661_000)]).toEqual(['29:01', '00:00', '1:01:01']);
  });
});
