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
  it('a box selects every row it touches (row height 38)', () => {
    expect(boxKeys(keys, 40, 100, 38)).toEqual(['2', '3']);
    expect(boxKeys(keys, 100, 10, 38)).toEqual(['1', '2', '3']);
    expect(boxKeys(keys, 0, 5000, 38)).toEqual(keys);
    expect(boxKeys([], 0, 10, 38)).toEqual([]);
  });
  it('adds to or replaces the selection', () => {
    expect(withKeys({ 1: true }, ['3'], true)).toEqual({ 1: true, 3: true });
    expect(withKeys({ 1: true }, ['3'], false)).toEqual({ 3: true });
  });
});
