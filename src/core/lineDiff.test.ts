import { describe, expect, it } from 'vitest';
import { changedHunks, lineDiff } from './lineDiff';

describe('lineDiff', () => {
  it('keeps common lines once and marks removed and added ones in order', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc\nd')).toEqual([
      { op: ' ', text: 'a' }, { op: '-', text: 'b' }, { op: '+', text: 'x' }, { op: ' ', text: 'c' }, { op: '+', text: 'd' },
    ]);
  });
  it('answers only kept lines for equal texts, and a whole removal for an emptied one', () => {
    expect(lineDiff('a\nb', 'a\nb').every((l) => l.op === ' ')).toBe(true);
    expect(lineDiff('a\nb', '')).toEqual([{ op: '-', text: 'a' }, { op: '-', text: 'b' }, { op: '+', text: '' }]);
  });
  it('changedHunks keeps the context around changes and folds the rest', () => {
    const lines = lineDiff('1\n2\n3\n4\n5\n6\n7\n8', '1\n2\n3\n4\n5\n6\n7\nX');
    expect(changedHunks(lines, 1)).toEqual([null, { op: ' ', text: '7' }, { op: '-', text: '8' }, { op: '+', text: 'X' }]);
  });
});
