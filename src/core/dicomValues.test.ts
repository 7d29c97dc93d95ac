import { describe, expect, it } from 'vitest';
import { ageString, dateTimeValue, decimalString, fitText, localDateTime, sexCode } from './dicomValues.js';

describe('DICOM values (PS3.5 value representations)', () => {
  it('writes a decimal string in at most 16 characters, as precisely as fits', () => {
    // dcmjs cut 0.000998336480108 (17 characters) itself, with a warning: we round instead.
    expect(decimalString(0.000998336480108)).toBe('0.00099833648011');
    expect(decimalString(0.00025)).toBe('0.00025');
    expect(decimalString(1)).toBe('1');
    expect(decimalString(-123456.123456789)).toBe('-123456.123457');
    expect(decimalString(1e-9)).toBe('1e-9');
    for (const v of [Math.PI / 1e7, 1.2345678901234e17, -0.000123456789012]) expect(decimalString(v).length).toBeLessThanOrEqual(16);
    expect(() => decimalString(Number.NaN)).toThrow(RangeError);
  });

  it('writes the case\'s age as an age string, in years unless it says otherwise', () => {
    expect(ageString(61, 'year')).toBe('061Y');
    expect(ageString(7, 'month')).toBe('007M');
    expect(ageString(3, 'day')).toBe('003D');
    expect(ageString(47, null)).toBe('047Y');
    expect(ageString(null, 'year')).toBeNull();
    expect(ageString(1000, 'year')).toBeNull();
    expect(ageString(4.5, 'year')).toBeNull();
    expect(ageString(4, 'decade')).toBeNull();
  });

  it('codes the sex, leaving it empty when the case does not say', () => {
    expect([sexCode('male'), sexCode('female'), sexCode('unknown'), sexCode(null), sexCode('')]).toEqual(['M', 'F', 'O', '', '']);
  });

  it('writes ISO date-times as DT, keeping a stated offset and adding none', () => {
    expect(dateTimeValue('2009-12-29T09:59:15')).toBe('20091229095915');
    expect(dateTimeValue('2024-10-11T12:13:14Z')).toBe('20241011121314+0000');
    expect(dateTimeValue('2024-10-11T12:13:14.123Z')).toBe('20241011121314+0000');
    expect(dateTimeValue('2024-10-11T20:13:14+08:00')).toBe('20241011201314+0800');
    expect(dateTimeValue('2024-10-11')).toBe('20241011000000');
    expect(dateTimeValue('12/29/09')).toBeNull();
    expect(dateTimeValue(null)).toBeNull();
  });

  it('writes local date and time', () => {
    expect(localDateTime(new Date(2026, 0, 2, 3, 4, 5))).toEqual({ date: '20260102', time: '030405' });
  });

  it('cuts text by characters, never inside one', () => {
    expect(fitText('胃黏膜活检'.repeat(20), 64)).toHaveLength(64);
    expect(fitText('ab😀cd', 3)).toBe('ab😀');
    expect(fitText('name   ', 64)).toBe('name');
  });
});
