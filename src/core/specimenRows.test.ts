import { describe, expect, it } from 'vitest';
import { setSpecimen, specimenRows } from './specimenRows';

describe('specimen rows of the registration form', () => {
  it('reads objects only, known keys only, empties dropped, the type as a number', () => {
    expect(specimenRows([{ name: '胃窦', specimen_type: '3', fixative: '', other: 'x' }, 'junk', null, [1]])).toEqual([{ name: '胃窦', specimen_type: 3 }]);
    expect(specimenRows(undefined)).toEqual([]);
    expect(specimenRows({ name: 'x' })).toEqual([]);
  });
  it('sets one key of one row; an emptied value removes the key', () => {
    const rows = [{ name: 'a' }, { name: 'b', fixative: 'NBF' }];
    expect(setSpecimen(rows, 1, 'location', 'antrum')).toEqual([{ name: 'a' }, { name: 'b', fixative: 'NBF', location: 'antrum' }]);
    expect(setSpecimen(rows, 1, 'fixative', '')).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(rows[1]).toEqual({ name: 'b', fixative: 'NBF' });
  });
});
