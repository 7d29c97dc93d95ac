import { describe, expect, it } from 'vitest';
import { bucketBounds, bucketKeys, CHART_PALETTE, parseDay, periodDays, shiftDay, shiftDayBounds, STAT_PERIODS, statRange } from './statPeriods';

const BEIJING = 480;

describe('shift day (spec §9: the day starts at 06:00)', () => {
  it('counts the small hours for the day before and 06:00 for the new day', () => {
    // 2026-03-10 05:59:59 Beijing = 2026-03-09 21:59:59 UTC
    expect(shiftDay(new Date('2026-03-09T21:59:59Z'), BEIJING)).toBe('2026-03-09');
    expect(shiftDay(new Date('2026-03-09T22:00:00Z'), BEIJING)).toBe('2026-03-10');
    expect(shiftDay(new Date('2026-03-10T15:59:59Z'), BEIJING)).toBe('2026-03-10');
    // At UTC the boundary is 06:00 UTC.
    expect(shiftDay(new Date('2026-03-10T05:59:59Z'), 0)).toBe('2026-03-09');
    expect(shiftDay(new Date('2026-03-10T06:00:00Z'), 0)).toBe('2026-03-10');
  });

  it('bounds a range of shift days by the 06:00 instants, half open', () => {
    // Spec §9 preset: yesterday 06:00 to today 06:00.
    expect(shiftDayBounds('2026-03-09', '2026-03-09', BEIJING)).toEqual({ start: '2026-03-08T22:00:00.000Z', end: '2026-03-09T22:00:00.000Z' });
    expect(shiftDayBounds('2026-01-01', '2026-12-31', 0)).toEqual({ start: '2026-01-01T06:00:00.000Z', end: '2027-01-01T06:00:00.000Z' });
  });

  it('reads only real dates', () => {
    expect(parseDay('2026-02-29')).toBeNull();
    expect(parseDay('2028-02-29')).not.toBeNull();
    expect(parseDay('2026-3-1')).toBeNull();
  });
});

describe('statistic periods (spec §9)', () => {
  // Wednesday 2026-05-20 10:00 Beijing.
  const now = new Date('2026-05-20T02:00:00Z');
  const expected: Record<(typeof STAT_PERIODS)[number], [string, string]> = {
    yesterday: ['2026-05-19', '2026-05-19'],
    lastThreeDays: ['2026-05-18', '2026-05-20'],
    lastWeek: ['2026-05-11', '2026-05-17'],
    thisWeek: ['2026-05-18', '2026-05-20'],
    thisMonth: ['2026-05-01', '2026-05-20'],
    lastMonth: ['2026-04-01', '2026-04-30'],
    lastThreeMonths: ['2026-02-21', '2026-05-20'],
    thisSeason: ['2026-04-01', '2026-05-20'],
    lastSeason: ['2026-01-01', '2026-03-31'],
    thisYear: ['2026-01-01', '2026-05-20'],
    lastYear: ['2025-01-01', '2025-12-31'],
  };
  for (const p of STAT_PERIODS) {
    it(p, () => expect(periodDays(p, now, BEIJING)).toEqual({ from: expected[p][0], to: expected[p][1] }));
  }

  it('takes today from the shift day: at 05:00 on the 1st it is still last month', () => {
    const early = new Date('2026-05-31T21:00:00Z'); // 2026-06-01 05:00 Beijing
    expect(periodDays('thisMonth', early, BEIJING)).toEqual({ from: '2026-05-01', to: '2026-05-31' });
    expect(periodDays('yesterday', early, BEIJING)).toEqual({ from: '2026-05-30', to: '2026-05-30' });
  });

  it('buckets by day up to three months and by month beyond', () => {
    const month = statRange({ period: 'lastMonth', utcOffset: BEIJING }, now);
    expect(month).toMatchObject({ bucket: 'day', days: 30, start: '2026-03-31T22:00:00.000Z', end: '2026-04-30T22:00:00.000Z' });
    const year = statRange({ period: 'lastYear', utcOffset: BEIJING }, now);
    expect(year).toMatchObject({ bucket: 'month', days: 365 });
    expect(bucketKeys(year as never)).toHaveLength(12);
    expect(bucketKeys({ from: '2026-04-29', to: '2026-05-02', bucket: 'day' })).toEqual(['2026-04-29', '2026-04-30', '2026-05-01', '2026-05-02']);
  });

  it('bounds each bucket by its 06:00 instants, months clipped to the range', () => {
    expect(bucketBounds({ from: '2026-03-30', to: '2026-04-02', bucket: 'month' }, BEIJING)).toEqual([
      { key: '2026-03', start: '2026-03-29T22:00:00.000Z', end: '2026-03-31T22:00:00.000Z' },
      { key: '2026-04', start: '2026-03-31T22:00:00.000Z', end: '2026-04-02T22:00:00.000Z' },
    ]);
    const days = bucketBounds({ from: '2026-03-09', to: '2026-03-10', bucket: 'day' }, 0);
    expect(days).toEqual([
      { key: '2026-03-09', start: '2026-03-09T06:00:00.000Z', end: '2026-03-10T06:00:00.000Z' },
      { key: '2026-03-10', start: '2026-03-10T06:00:00.000Z', end: '2026-03-11T06:00:00.000Z' },
    ]);
  });

  it('refuses what it cannot read, naming why', () => {
    expect(statRange({ period: 'fortnight', utcOffset: 0 }, now)).toBe('stat.bad_period');
    expect(statRange({ from: '2026-05-01', utcOffset: 0 }, now)).toBe('stat.bad_date');
    expect(statRange({ from: '2026-05-01', to: '2026-13-01', utcOffset: 0 }, now)).toBe('stat.bad_date');
    expect(statRange({ from: '2026-05-02', to: '2026-05-01', utcOffset: 0 }, now)).toBe('stat.range_reversed');
    expect(statRange({ from: '2020-01-01', to: '2026-05-01', utcOffset: 0 }, now)).toBe('stat.range_too_long');
    expect(statRange({ period: 'thisWeek', utcOffset: 900 }, now)).toBe('stat.bad_offset');
    expect(statRange({ period: 'thisWeek', bucket: 'hour', utcOffset: 0 }, now)).toBe('stat.bad_period');
  });

  it('has the six-colour palette', () => {
    expect(new Set(CHART_PALETTE).size).toBe(6);
  });
});
