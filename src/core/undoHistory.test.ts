import { describe, expect, it } from 'vitest';
import { emptyHistory, mapHistory, record, redo, undo } from './undoHistory';

describe('undo history', () => {
  it('undoes the latest edit first and redoes it back', () => {
    let h = record(record(emptyHistory<string>(), 'a'), 'b');
    const u = undo(h)!;
    expect(u.edit).toBe('b');
    h = u.history;
    expect(h).toEqual({ past: ['a'], future: ['b'] });
    const r = redo(h)!;
    expect(r.edit).toBe('b');
    expect(r.history).toEqual({ past: ['a', 'b'], future: [] });
  });
  it('a new edit clears what could be redone; nothing to undo or redo answers null', () => {
    const h = record(undo(record(emptyHistory<string>(), 'a'))!.history, 'c');
    expect(h).toEqual({ past: ['c'], future: [] });
    expect(undo(emptyHistory())).toBeNull();
    expect(redo(h)).toBeNull();
  });
  it('keeps at most `limit` edits', () => {
    let h = emptyHistory<number>();
    for (let i = 0; i < 5; i++) h = record(h, i, 3);
    expect(h.past).toEqual([2, 3, 4]);
  });
  it('rewrites every edit', () => {
    expect(mapHistory({ past: [1], future: [2] }, (e) => e * 10)).toEqual({ past: [10], future: [20] });
  });
});
