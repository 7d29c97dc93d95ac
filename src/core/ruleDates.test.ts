import { describe, expect, it } from 'vitest';
import { addDays } from './ruleDates';
import { evaluateRule } from './rules';

describe('add_days', () => {
  it('adds and subtracts whole days across months, years and leap days', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 365)).toBe('2027-12-31');
    expect(addDays('2026-05-04T10:00:00.000Z', 2)).toBe('2026-05-06');
    expect(addDays('2026-05-04', '30')).toBe('2026-06-03');
  });

  it('gives null for what is not a date or not whole days', () => {
    for (const [d, n] of [['2026-02-30', 1], ['04/05/2026', 1], [null, 1], ['2026-05-04', 1.5], ['2026-05-04', null], ['2026-05-04', ''], ['2026-05-04', 1e9]] as const) {
      expect(addDays(d, n)).toBeNull();
    }
  });

  it('is an operation rules may use, comparing as text with stored dates', () => {
    const expiring = { '<=': [{ add_days: [{ var: 'record.produced_on' }, { var: 'record.validity_days' }] }, { add_days: [{ var: 'today' }, 30] }] };
    const at = (produced: string, days: number) => evaluateRule(expiring, { record: { produced_on: produced, validity_days: days }, today: '2026-06-01' }, { resolve: () => undefined, fallback: 'x' });
    expect(at('2026-01-01', 180)).toBe(true); // ends 2026-06-30, within 30 days
    expect(at('2026-01-01', 365)).toBe(false);
  });
});
