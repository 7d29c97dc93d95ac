import { describe, expect, it } from 'vitest';
import { daysBetween, gridModel } from './rosterGrid.js';

const grid = { row: 'member_id', column: 'duty_date', value: 'shift_id' };

describe('grid layout of a list (src/core/rosterGrid.ts)', () => {
  it('people down, the days of the cycle across, free days empty, lines in the list\'s order', () => {
    const rows = [
      { id: 1, member_id: 7, duty_date: '2026-12-03', shift_id: 1 },
      { id: 2, member_id: 5, duty_date: '2026-12-01', shift_id: 2 },
      { id: 3, member_id: 7, duty_date: '2026-12-01', shift_id: 2 },
      { id: 4, member_id: 7, duty_date: '2026-12-01', shift_id: 3 },
    ];
    const m = gridModel(rows, grid);
    expect(m.columns).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
    expect(m.lines.map((l) => l.key)).toEqual(['7', '5']);
    expect(m.lines[0].cells['2026-12-01'].map((r) => r.id)).toEqual([3, 4]);
    expect(m.lines[0].cells['2026-12-02']).toBeUndefined();
    expect(m.lines[1].first).toBe(rows[1]);
    expect(m.clipped).toBe(false);
  });

  it('days cross months and years; a span past the limit is clipped and says so', () => {
    expect(daysBetween('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(daysBetween('2028-02-28', '2028-03-01')).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    const m = gridModel([{ member_id: 1, duty_date: '2026-01-01' }, { member_id: 1, duty_date: '2030-01-01' }], grid, 31);
    expect(m.columns).toHaveLength(31);
    expect(m.columns[30]).toBe('2026-01-31');
    expect(m.clipped).toBe(true);
    expect(Object.keys(m.lines[0].cells)).toEqual(['2026-01-01']);
  });

  it('a column field that is not a date: its values in order, none invented; rows without one are left out', () => {
    const m = gridModel([{ member_id: 1, duty_date: 'b' }, { member_id: 2, duty_date: 'a' }, { member_id: 2, duty_date: null }], grid);
    expect(m.columns).toEqual(['a', 'b']);
    expect(m.lines.map((l) => Object.keys(l.cells))).toEqual([['b'], ['a']]);
    expect(gridModel([], grid)).toEqual({ columns: [], lines: [], clipped: false });
  });
});
