import { describe, expect, it } from 'vitest';
import { atTime, formatDate, formatDateTime, formatTime, fromStored, fromWallClock, parseDate, parseTime, showStored, toStored, toWallClock } from './dateTime';

describe('date-time as the spec shows it (YYYY-MM-DD HH:mm:ss, local)', () => {
  it('formats with zero padding and 24 hours, in any language', () => {
    const d = new Date(2026, 0, 5, 7, 3, 9);
    expect(formatDate(d)).toBe('2026-01-05');
    expect(formatTime(d)).toBe('07:03:09');
    expect(formatDateTime(new Date(2026, 10, 23, 23, 59, 58))).toBe('2026-11-23 23:59:58');
  });

  it('reads a typed day, refusing days that do not exist', () => {
    expect(parseDate('2026-03-01')).toEqual(new Date(2026, 2, 1));
    expect(parseDate(' 2026/3/1 ')).toEqual(new Date(2026, 2, 1));
    expect(parseDate('2024-02-29')).toEqual(new Date(2024, 1, 29));
    for (const bad of ['2026-02-29', '2026-13-01', '2026-00-10', '03/01/2026', '2026-03', '', undefined, 'today']) expect(parseDate(bad), String(bad)).toBeNull();
  });

  it('reads a typed time of day, seconds optional', () => {
    expect(parseTime('14:05:09')).toEqual({ hours: 14, minutes: 5, seconds: 9 });
    expect(parseTime('9:30')).toEqual({ hours: 9, minutes: 30, seconds: 0 });
    expect(parseTime('00:00:00')).toEqual({ hours: 0, minutes: 0, seconds: 0 });
    for (const bad of ['24:00', '12:60', '12:00:60', '2 PM', '12', '', undefined]) expect(parseTime(bad), String(bad)).toBeNull();
  });

  it('puts a time on a day (midnight without one)', () => {
    const day = new Date(2026, 4, 17, 22, 10, 0);
    expect(atTime(day, { hours: 8, minutes: 1, seconds: 2 })).toEqual(new Date(2026, 4, 17, 8, 1, 2));
    expect(atTime(day, new Date(1999, 0, 1, 13, 14, 15))).toEqual(new Date(2026, 4, 17, 13, 14, 15));
    expect(atTime(day, null)).toEqual(new Date(2026, 4, 17, 0, 0, 0));
  });

  it('stores ISO text in UTC with whole seconds, and reads it back', () => {
    const local = new Date(2026, 10, 23, 10, 20, 30, 456);
    const stored = toStored(local);
    expect(stored).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
    expect(formatDateTime(fromStored(stored)!)).toBe('2026-11-23 10:20:30');
    expect(fromStored('')).toBeNull();
    expect(fromStored('not a date')).toBeNull();
    expect(fromStored(42)).toBeNull();
  });

  it('shows a stored date-time (a slide\'s scan time) in the spec\'s format, local', () => {
    expect(showStored(toStored(new Date(2026, 10, 23, 10, 20, 30)))).toBe('2026-11-23 10:20:30');
    // A scanner's time without a zone is the scanner's wall clock: shown as it reads.
    expect(showStored('2017-02-07T09:05:01')).toBe('2017-02-07 09:05:01');
    expect(showStored('sometime in 2017')).toBe('sometime in 2017');
    expect(showStored(null)).toBeNull();
    expect(showStored('')).toBeNull();
  });
});

describe('wall-clock date-times (specimen times, range ends)', () => {
  it('reads a day, a time with or without seconds, and a zoned instant; refuses what is no date-time', () => {
    expect(fromWallClock('2026-11-20')).toEqual(new Date(2026, 10, 20));
    expect(fromWallClock('2026-11-20T10:00')).toEqual(new Date(2026, 10, 20, 10, 0, 0));
    expect(fromWallClock('2026-11-20 23:59:59')).toEqual(new Date(2026, 10, 20, 23, 59, 59));
    expect(fromWallClock('2026-11-20T10:00:00.000Z')).toEqual(new Date(Date.UTC(2026, 10, 20, 10)));
    expect(fromWallClock('2026-02-30T10:00')).toBeNull();
    expect(fromWallClock('2026-11-20T25:00')).toBeNull();
    expect(fromWallClock('11/20/2026')).toBeNull();
    expect(fromWallClock('')).toBeNull();
    expect(fromWallClock(undefined)).toBeNull();
  });

  it('writes YYYY-MM-DDTHH:mm:ss, which it reads back', () => {
    const d = new Date(2026, 0, 5, 7, 8, 9);
    expect(toWallClock(d)).toBe('2026-01-05T07:08:09');
    expect(fromWallClock(toWallClock(d))).toEqual(d);
  });
});
