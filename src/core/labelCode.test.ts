import { describe, expect, it } from 'vitest';
import { labelReadings, labelSearchCondition } from './labelCode';

describe('labelReadings: a scanned code read as a number, a cassette and a slide label', () => {
  it('a slide label of a dashed number: number, cassette and slide readings, the whole code first', () => {
    expect(labelReadings('P2026-00001-A-2')).toEqual([
      { number: 'P2026-00001-A-2' },
      { number: 'P2026-00001-A', block: '2' },
      { number: 'P2026-00001', block: 'A', section: 2 },
    ]);
  });

  it('a cassette label: the last part is the block; a letter last is no slide serial', () => {
    expect(labelReadings(' P2026-00001-B ')).toEqual([{ number: 'P2026-00001-B' }, { number: 'P2026-00001', block: 'B' }]);
  });

  it('a plain number without a dash is one reading', () => {
    expect(labelReadings('S2026001')).toEqual([{ number: 'S2026001' }]);
  });

  it('text no label carries gives no reading: empty, spaces inside, other characters, a leading dash, too long', () => {
    for (const text of ['', '   ', 'P2026 00001', '张伟', '-A-1', 'P2026/1', 'x'.repeat(200)]) expect(labelReadings(text)).toEqual([]);
  });

  it('empty parts name no block or number (a doubled or trailing dash)', () => {
    expect(labelReadings('P1--2')).toEqual([{ number: 'P1--2' }, { number: 'P1-', block: '2' }]);
    expect(labelReadings('P1-')).toEqual([{ number: 'P1-' }]);
  });

  it('a block part longer than the block column is no block', () => {
    expect(labelReadings(`P1-${'b'.repeat(33)}`)).toEqual([{ number: `P1-${'b'.repeat(33)}` }]);
  });
});

describe('labelSearchCondition: the search box text as a filter on the pathology number', () => {
  it('a slide label: the numbers it may name, distinct, as one OR-ed "in" condition', () => {
    expect(labelSearchCondition('P2026-00001-1-1')).toEqual({
      column: 'pathology_number', operator: 'in', value: ['P2026-00001-1-1', 'P2026-00001-1', 'P2026-00001'], condition: 'or',
    });
  });

  it('another column name is kept', () => {
    expect(labelSearchCondition('N1-A', 'case_number')).toMatchObject({ column: 'case_number', value: ['N1-A', 'N1'] });
  });

  it('no condition for a fragment, a name or a number without a dash (the keyword search finds those)', () => {
    expect(labelSearchCondition('2026')).toBeNull();
    expect(labelSearchCondition('张伟')).toBeNull();
    expect(labelSearchCondition('')).toBeNull();
  });
});
