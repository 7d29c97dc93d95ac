import { describe, expect, it } from 'vitest';
import { nestRows, reorderRanks } from './treeRows.js';

const flat = [
  { id: 1, parent_id: null, rank: 1 }, { id: 2, parent_id: 1, rank: 1 }, { id: 3, parent_id: 1, rank: 2 }, { id: 4, parent_id: 9, rank: 2 }, { id: 5, parent_id: null, rank: 3 },
];

describe('tree rows (spec §2: expand/collapse all)', () => {
  it('nests flat rows under their parents; a row whose parent is elsewhere becomes a root', () => {
    expect(nestRows(flat)).toEqual([
      { id: 1, parent_id: null, rank: 1, children: [{ id: 2, parent_id: 1, rank: 1 }, { id: 3, parent_id: 1, rank: 2 }] },
      { id: 4, parent_id: 9, rank: 2 },
      { id: 5, parent_id: null, rank: 3 },
    ]);
  });
  it('leaves rows without parents or already nested alone', () => {
    expect(nestRows([{ id: 1 }])).toEqual([{ id: 1 }]);
    const nested = [{ id: 1, children: [{ id: 2 }] }];
    expect(nestRows(nested)).toEqual(nested);
  });
});

describe('drag-reorder ranks (spec §2: row drag-reorder)', () => {
  const roots = [{ id: 1, rank: 10 }, { id: 2, rank: 20 }, { id: 3, rank: 30 }, { id: 4, rank: 40 }];
  it('moves a row down onto another: the rows between shift up', () => {
    expect(reorderRanks(roots, '1', '3')).toEqual([{ key: 2, rank: 10 }, { key: 3, rank: 20 }, { key: 1, rank: 30 }]);
  });
  it('moves a row up onto another', () => {
    expect(reorderRanks(roots, '4', '2')).toEqual([{ key: 4, rank: 20 }, { key: 2, rank: 30 }, { key: 3, rank: 40 }]);
  });
  it('reorders among siblings only', () => {
    const tree = nestRows(flat);
    expect(reorderRanks(tree, '3', '2')).toEqual([{ key: 3, rank: 1 }, { key: 2, rank: 2 }]);
    expect(reorderRanks(tree, '2', '5')).toEqual([]);
  });
  it('numbers 1..n when ranks are missing or equal', () => {
    expect(reorderRanks([{ id: 1, rank: 0 }, { id: 2, rank: 0 }], '2', '1')).toEqual([{ key: 2, rank: 1 }, { key: 1, rank: 2 }]);
  });
});
