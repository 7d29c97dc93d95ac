import { describe, expect, it } from 'vitest';
import { DATE_SHORTCUTS, rangeValue, shortcutRange, withTime } from './dateRanges.js';

// Wednesday 2026-05-13, in the second quarter.
const now = new Date(2026, 4, 13, 15, 30, 0);

describe('date-range shortcuts (spec §5: today … previous year; week starts Monday)', () => {
  it('covers the ten shortcuts of the spec', () => {
    expect(DATE_SHORTCUTS).toEqual(['today', 'yesterday', 'lastThreeDays', 'thisWeek', 'thisMonth', 'previousMonth', 'thisQuarter', 'previousQuarter', 'thisYear', 'previousYear']);
  });
  it('gives whole days as YYYY-MM-DD for a daterange', () => {
    expect(shortcutRange('today', now)).toEqual(['2026-05-13', '2026-05-13']);
    expect(shortcutRange('yesterday', now)).toEqual(['2026-05-12', '2026-05-12']);
    expect(shortcutRange('lastThreeDays', now)).toEqual(['2026-05-11', '2026-05-13']);
    expect(shortcutRange('thisMonth', now)).toEqual(['2026-05-01', '2026-05-31']);
    expect(shortcutRange('previousMonth', now)).toEqual(['2026-04-01', '2026-04-30']);
    expect(shortcutRange('thisQuarter', now)).toEqual(['2026-04-01', '2026-06-30']);
    expect(shortcutRange('previousQuarter', now)).toEqual(['2026-01-01', '2026-03-31']);
    expect(shortcutRange('thisYear', now)).toEqual(['2026-01-01', '2026-12-31']);
    expect(shortcutRange('previousYear', now)).toEqual(['2025-01-01', '2025-12-31']);
  });
  it('starts the week on Monday, also when today is Sunday or Monday', () => {
    expect(shortcutRange('thisWeek', now)).toEqual(['2026-05-11', '2026-05-17']);
    expect(shortcutRange('thisWeek', new Date(2026, 4, 17))).toEqual(['2026-05-11', '2026-05-17']);
    expect(shortcutRange('thisWeek', new Date(2026, 4, 11))).toEqual(['2026-05-11', '2026-05-17']);
  });
  it('crosses year boundaries', () => {
    expect(shortcutRange('previousMonth', new Date(2026, 0, 5))).toEqual(['2025-12-01', '2025-12-31']);
    expect(shortcutRange('previousQuarter', new Date(2026, 1, 5))).toEqual(['2025-10-01', '2025-12-31']);
  });
  it('datetimerange default 00:00:00 to 23:59:59', () => {
    expect(shortcutRange('today', now, 'datetimerange')).toEqual(['2026-05-13 00:00:00', '2026-05-13 23:59:59']);
  });
});

describe('range input (spec §5: "emits only when both ends are filled; emits an empty array when both are empty")', () => {
  it('emits the pair only when both ends are filled', () => {
    expect(rangeValue('2026-01-01', '2026-01-31')).toEqual(['2026-01-01', '2026-01-31']);
    expect(rangeValue('2026-01-01', '')).toBeUndefined();
    expect(rangeValue(null, '2026-01-31')).toBeUndefined();
  });
  it('emits an empty array when both are empty', () => {
    expect(rangeValue('', '')).toEqual([]);
    expect(rangeValue(undefined, null)).toEqual([]);
  });
  it('fills default times for a datetimerange', () => {
    expect(rangeValue('2026-01-01', '2026-01-31', 'datetimerange')).toEqual(['2026-01-01 00:00:00', '2026-01-31 23:59:59']);
    expect(withTime('2026-01-01T08:30', '00:00:00')).toBe('2026-01-01 08:30:00');
    expect(withTime('2026-01-01T08:30', '23:59:59')).toBe('2026-01-01 08:30:59');
  });
});
