import { describe, expect, it } from 'vitest';
import { buildTree, parentProblem } from './templateTree';

const rows = [{ id: 1, parent_id: null }, { id: 2, parent_id: 1 }, { id: 3, parent_id: 2 }, { id: 4, parent_id: null }];

describe('diagnostic template tree', () => {
  it('an upper template cannot be itself, nor one of its own descendants', () => {
    expect(parentProblem(rows, 2, 2)).toBe('self');
    expect(parentProblem(rows, 1, 3)).toBe('descendant');
    expect(parentProblem(rows, 3, 4)).toBeUndefined();
    expect(parentProblem(rows, 3, 99)).toBe('unknown');
    expect(parentProblem(rows, null, 1)).toBeUndefined();
    expect(parentProblem(rows, 2, null)).toBeUndefined();
  });

  it('builds the tree in order; an orphan is a root', () => {
    const tree = buildTree([...rows, { id: 5, parent_id: 42 }]);
    expect(tree.map((n) => n.id)).toEqual([1, 4, 5]);
    expect(tree[0].children[0].children[0].id).toBe(3);
  });
});
