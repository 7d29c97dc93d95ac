import { describe, expect, it } from 'vitest';
import { boxKeys, rangeKeys, withKeys } from './selection.js';

const keys = ['1', '2', '3', '4', '5'];

describe('table selection gestures (spec §2: shift-range selection, ctrl-drag box selection)', () => {
  it('shift-click selects from the anchor to the row, either direction', () => {
    expect(rangeKeys(keys, '2', '4')).toEqual(['2', '3', '4']);
    expect(rangeKeys(keys, '4', '2')).toEqual(['2', '3', '4']);
    expect(rangeKeys(keys, null, '3')).toEqual(['3']);
    expect(rangeKeys(keys, '9', '3')).toEqual(['3']);
  });
  it('a box selects every row it touches, as the rows are laid out', () => {
    const rows = keys.map((key, i) => ({ key, top: i * 38, bottom: (i + 1) * 38 }));
    expect(boxKeys(rows, 40, 100)).toEqual(['2', '3']);
    expect(boxKeys(rows, 100, 10)).toEqual(['1', '2', '3']);
    expect(boxKeys(rows, 0, 5000)).toEqual(keys);
    expect(boxKeys([], 0, 10)).toEqual([]);
    // Row 1 wrapped to twice the height: the box over the third row's middle finds row 3, not row 4.
    const tall = [{ key: '1', top: 0, bottom: 76 }, { key: '2', top: 76, bottom: 114 }, { key: '3', top: 114, bottom: 152 }];
    expect(boxKeys(tall, 95, 133)).toEqual(['2', '3']);
  });
  it('adds to or replaces the selection', () => {
    expect(withKeys({ 1: true }, ['3'], true)).toEqual({ 1: true, 3: true });
    expect(withKeys({ 1: true }, ['3'], false)).toEqual({ 3: true });
  });
});
